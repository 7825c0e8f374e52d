//! The runtime: loaded configuration plus dispatch — plan the hooks for an event, run them
//! concurrently, decode each, fold in configuration order (SPEC §2, §9, §10).

use crate::config::load::load;
use crate::config::{Diagnostic, Hook, Loaded, OnError};
use crate::decode::{self, Decision, RunOutcome};
use crate::event::{resolve_dispatch_name, CanonicalEvent, DispatchEvent};
use crate::fold::{fold, Outcome};
use crate::handler::{self, Failure, RunCtx};
use crate::options::{Concurrency, Resolved, RuntimeOptions};
use crate::payload::{self, PayloadCtx};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Why a dispatch has no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DispatchError {
    /// The event name is not any dialect's spelling.
    UnknownEvent(String),
    /// The host's signal fired; every hook of the dispatch has been killed.
    Aborted,
    /// `close()` was called.
    Closed,
}

impl std::fmt::Display for DispatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DispatchError::UnknownEvent(e) => write!(f, "unknown event {}", crate::config::groups::quote(e)),
            DispatchError::Aborted => f.write_str("hook aborted by the host"),
            DispatchError::Closed => f.write_str("runtime is closed"),
        }
    }
}

/// One dispatch as a host asks for it.
#[derive(Debug, Clone, Default)]
pub struct DispatchRequest {
    pub event: String,
    pub payload: Map<String, Value>,
    /// Overrides the subject derived from the payload.
    pub subject: Option<String>,
    /// Working directory of this dispatch (hook cwd, `cwd` field).
    pub cwd: Option<String>,
}

/// One hook's run, as reported in `runs`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    #[serde(serialize_with = "ser_hook")]
    pub hook: Arc<Hook>,
    pub outcome: RunOutcome,
    pub duration_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn ser_hook<S: Serializer>(h: &Arc<Hook>, s: S) -> Result<S::Ok, S::Error> {
    h.wire().serialize(s)
}

/// The result of a dispatch: `{canonical, outcome, runs}`.
#[derive(Debug, Clone, Serialize)]
pub struct DispatchResult {
    pub canonical: CanonicalEvent,
    pub outcome: Outcome,
    pub runs: Vec<Run>,
}

impl DispatchResult {
    pub fn empty(canonical: CanonicalEvent) -> Self {
        DispatchResult { canonical, outcome: Outcome::empty(), runs: Vec::new() }
    }
}

/// A hook runtime: configuration, an HTTP client, and a close switch.
pub struct Runtime {
    opts: Resolved,
    loaded: RwLock<Arc<Loaded>>,
    closed: AtomicBool,
    close_token: CancellationToken,
    /// Built on first use: loading the TLS roots costs more than a whole no-match session.
    http: std::sync::OnceLock<reqwest::Client>,
    stop_guard: crate::stop_guard::StopGuard,
    outbound: crate::handler::outbound::Outbound,
}

fn http_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(10))
        .user_agent(concat!("hookrt/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

impl Runtime {
    /// Creates a runtime and loads configuration (never fails on bad config files).
    pub fn new(options: &RuntimeOptions) -> Result<Self, String> {
        Self::with_env(options, &|k| std::env::var(k).ok())
    }

    /// Like [`Runtime::new`] with an explicit environment lookup.
    pub fn with_env(options: &RuntimeOptions, env: &dyn Fn(&str) -> Option<String>) -> Result<Self, String> {
        let opts = options.resolve(env)?;
        let loaded = Self::load(&opts);
        let stop_guard = crate::stop_guard::StopGuard::new(opts.stop_block_limit);
        Ok(Runtime {
            opts,
            loaded: RwLock::new(Arc::new(loaded)),
            closed: AtomicBool::new(false),
            close_token: CancellationToken::new(),
            http: std::sync::OnceLock::new(),
            stop_guard,
            outbound: Default::default(),
        })
    }

    fn load(opts: &Resolved) -> Loaded {
        let mut l = load(&opts.load);
        l.table.case_insensitive_literals = opts.case_insensitive_tools;
        for d in &l.diagnostics {
            tracing::debug!(file = d.file.as_deref().unwrap_or(""), "{}", d.message);
        }
        l
    }

    /// The current configuration snapshot.
    pub fn loaded(&self) -> Arc<Loaded> {
        match self.loaded.read() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Re-reads configuration; returns the new diagnostics.
    pub fn reload(&self) -> Vec<Diagnostic> {
        let fresh = Arc::new(Self::load(&self.opts));
        let diags = fresh.diagnostics.clone();
        match self.loaded.write() {
            Ok(mut g) => *g = fresh,
            Err(p) => *p.into_inner() = fresh,
        }
        diags
    }

    pub fn options(&self) -> &Resolved {
        &self.opts
    }

    /// Aborts running hooks; later dispatches fail with [`DispatchError::Closed`].
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.close_token.cancel();
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Resolves a dispatch name.
    pub fn resolve_event(name: &str) -> Result<DispatchEvent, DispatchError> {
        resolve_dispatch_name(name).ok_or_else(|| DispatchError::UnknownEvent(name.to_owned()))
    }

    /// Whether any hook would run; lets hosts answer a no-match dispatch synchronously.
    pub fn any_match(&self, event: &str, subject: Option<&str>) -> Result<bool, DispatchError> {
        let ev = Self::resolve_event(event)?;
        Ok(self.loaded().table.any_match(ev, subject))
    }

    /// Runs every matching hook and folds their answers.
    pub async fn dispatch(
        &self,
        req: DispatchRequest,
        cancel: &CancellationToken,
    ) -> Result<DispatchResult, DispatchError> {
        if self.is_closed() {
            return Err(DispatchError::Closed);
        }
        let ev = Self::resolve_event(&req.event)?;
        if cancel.is_cancelled() {
            return Err(DispatchError::Aborted);
        }
        let mut req = req;
        let session = req.payload.get("session_id").and_then(Value::as_str).unwrap_or("").to_owned();
        let is_stop = ev.canonical == CanonicalEvent::TurnStop;
        if is_stop
            && self.stop_guard.was_blocked(&session)
            && req.payload.get("stop_hook_active") != Some(&Value::Bool(true))
        {
            req.payload.insert("stop_hook_active".into(), Value::Bool(true));
        }
        let loaded = self.loaded();
        self.notify_outbound(&loaded, ev.canonical, &req);
        let subject = req.subject.as_deref().or_else(|| ev.canonical.subject_of(&req.payload));
        let plan = loaded.table.plan(ev, subject);
        if plan.is_empty() {
            if is_stop {
                self.stop_guard.record(&session, false);
            }
            return Ok(DispatchResult::empty(ev.canonical));
        }

        let cwd = req.cwd.clone().map(PathBuf::from).unwrap_or_else(|| self.opts.cwd.clone());
        let cwd_str = cwd.display().to_string();
        let project_dir =
            self.opts.project_dir.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| cwd_str.clone());
        let ts = payload::iso_now();
        let pctx = PayloadCtx {
            host: &req.payload,
            canonical: ev.canonical,
            cwd: &cwd_str,
            model: self.opts.model.as_deref(),
            turn_id: self.opts.turn_id.as_deref(),
            ts: &ts,
        };

        let merged = self.close_token.child_token();
        let runs_fut = async {
            let one = |hook: Arc<Hook>| {
                let input = payload::hook_input(&pctx, hook.dialect, &hook.event);
                let ctx = self.run_ctx(&hook, &input, cwd.clone(), project_dir.clone(), &merged);
                async move { self.run_one(hook, ctx, ev.canonical).await }
            };
            match self.opts.concurrency {
                Concurrency::Parallel => futures::future::join_all(plan.iter().cloned().map(one)).await,
                Concurrency::Serial => {
                    let mut v = Vec::with_capacity(plan.len());
                    for h in plan.iter().cloned() {
                        v.push(one(h).await);
                    }
                    v
                }
            }
        };
        tokio::pin!(runs_fut);
        let results = tokio::select! {
            r = &mut runs_fut => r,
            _ = cancel.cancelled() => {
                merged.cancel();
                runs_fut.await
            }
        };
        if merged.is_cancelled() {
            return Err(if self.is_closed() && !cancel.is_cancelled() {
                DispatchError::Closed
            } else {
                DispatchError::Aborted
            });
        }
        let runs: Vec<Run> = results.into_iter().flatten().collect();
        let mut outcome = fold(runs.iter().map(|r| &r.outcome), ev.canonical);
        if is_stop && self.stop_guard.record(&session, outcome.decision == Decision::Deny) {
            tracing::warn!(
                session = %session,
                "Stop blocked more than {} times in a row; letting the turn stop",
                self.opts.stop_block_limit
            );
            outcome.decision = Decision::None;
            outcome.raw_decision = Some(Decision::Deny);
            outcome.raw_reason = outcome.reason.take();
            outcome.downgraded = true;
        }
        Ok(DispatchResult { canonical: ev.canonical, outcome, runs })
    }

    /// Queues the Hermes outbound webhooks subscribed to this event (never waits).
    fn notify_outbound(&self, loaded: &Loaded, canonical: CanonicalEvent, req: &DispatchRequest) {
        let mut targets = loaded.table.outbound_for(canonical).peekable();
        if targets.peek().is_none() {
            return;
        }
        let cwd = req.cwd.clone().unwrap_or_else(|| self.opts.cwd.display().to_string());
        let ts = payload::iso_now();
        let pctx = PayloadCtx { host: &req.payload, canonical, cwd: &cwd, model: None, turn_id: None, ts: &ts };
        let http = self.http.get_or_init(http_client);
        for t in targets {
            let Some((_, name)) = t.events.iter().find(|(c, _)| *c == canonical) else { continue };
            let id = crate::handler::outbound::delivery_id();
            let body = serde_json::json!({
                "event": name,
                "delivery_id": id,
                "timestamp": ts,
                "payload": payload::hook_input(&pctx, crate::dialect::Dialect::Hermes, name),
            });
            let secret = t.secret_env.as_deref().and_then(|k| std::env::var(k).ok()).filter(|s| !s.is_empty());
            self.outbound.enqueue(
                http,
                crate::handler::outbound::Delivery {
                    url: t.url.clone(),
                    event: name.clone(),
                    id,
                    body: serde_json::to_vec(&body).unwrap_or_default(),
                    secret,
                },
            );
        }
    }

    fn run_ctx<'a>(
        &'a self,
        hook: &Hook,
        input: &Map<String, Value>,
        cwd: PathBuf,
        project_dir: String,
        cancel: &'a CancellationToken,
    ) -> RunCtx<'a> {
        let secs = hook.timeout.or(self.opts.timeout_sec).unwrap_or_else(|| hook.handler.kind().default_timeout_secs());
        RunCtx {
            opts: &self.opts,
            input_json: serde_json::to_string(input).unwrap_or_else(|_| "{}".into()),
            stdin: payload::to_stdin(input, hook.dialect),
            cwd,
            project_dir,
            timeout: Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX),
            timeout_label: handler::secs_label(secs),
            cancel,
            http: self.http.get_or_init(http_client),
        }
    }

    /// Runs one hook alone on a payload, as `hookrt doctor` does (timeout capped at `cap`).
    pub async fn trial(&self, hook: Arc<Hook>, payload: Map<String, Value>, cap: Duration) -> Option<Run> {
        let cwd = self.opts.cwd.clone();
        let cwd_str = cwd.display().to_string();
        let project_dir =
            self.opts.project_dir.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| cwd_str.clone());
        let ts = payload::iso_now();
        let pctx = PayloadCtx {
            host: &payload,
            canonical: hook.canonical,
            cwd: &cwd_str,
            model: self.opts.model.as_deref(),
            turn_id: self.opts.turn_id.as_deref(),
            ts: &ts,
        };
        let input = payload::hook_input(&pctx, hook.dialect, &hook.event);
        let never = CancellationToken::new();
        let mut ctx = self.run_ctx(&hook, &input, cwd, project_dir, &never);
        if ctx.timeout > cap {
            ctx.timeout = cap;
            ctx.timeout_label = handler::secs_label(cap.as_secs_f64());
        }
        let canonical = hook.canonical;
        self.run_one(hook, ctx, canonical).await
    }

    /// Runs and decodes one hook; `None` when the dispatch was aborted.
    async fn run_one(&self, hook: Arc<Hook>, ctx: RunCtx<'_>, event: CanonicalEvent) -> Option<Run> {
        let started = Instant::now();
        let result = handler::run(&hook, &ctx).await;
        let duration_ms = started.elapsed().as_millis() as u64;
        let (outcome, error) = match result {
            Ok(raw) => {
                let mut o = decode::decode(raw, event, hook.dialect);
                if hook.deny_on_failure {
                    decode::deny_on_failure(&mut o);
                }
                if let Some(Some(code)) = o.exit_code.filter(|c| *c != Some(0) && *c != Some(2)) {
                    tracing::warn!(hook = %hook.id, "hook exited with code {code}: {}", crate::handler::first_chars(&o.stderr, self.opts.stderr_cap));
                } else if o.exit_code == Some(None) {
                    tracing::warn!(hook = %hook.id, "hook was killed by a signal");
                }
                (o, None)
            }
            Err(Failure::Aborted) => return None,
            Err(Failure::Infra(e)) => {
                let policy =
                    if hook.deny_on_failure { OnError::Block } else { hook.on_error.unwrap_or(self.opts.on_error) };
                if policy != OnError::Ignore {
                    tracing::warn!(hook = %hook.id, "hook failed: {e}");
                }
                (decode::infra_failure(&e, policy), Some(e))
            }
        };
        Some(Run { hook, outcome, duration_ms, error })
    }
}

impl Runtime {
    /// The merged effective configuration: files, hooks in order, and the off switch.
    pub fn dump(&self) -> Value {
        let l = self.loaded();
        let hooks: Vec<Value> = l
            .table
            .hooks()
            .iter()
            .map(|h| {
                serde_json::json!({
                    "id": h.id,
                    "dialect": h.dialect,
                    "event": h.event,
                    "canonical": h.canonical,
                    "matcher": h.matcher_text,
                    "handler": h.handler,
                    "timeout": h.timeout,
                    "onError": h.on_error,
                    "file": h.file.display().to_string(),
                })
            })
            .collect();
        serde_json::json!({
            "disabled": l.table.disabled,
            "sources": l.sources,
            "diagnostics": l.diagnostics,
            "hooks": hooks,
        })
    }
}
