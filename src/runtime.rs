//! The runtime: loaded configuration plus dispatch — plan the hooks for an event, run them
//! concurrently, decode each, fold in configuration order (SPEC §2, §9, §10).

use crate::config::load::load;
use crate::config::{Diagnostic, Hook, Loaded, OnError};
use crate::decode::{self, RunOutcome};
use crate::env_file::EnvFile;
use crate::event::{resolve_dispatch_name, CanonicalEvent, DispatchEvent};
use crate::fold::{fold, Outcome};
use crate::handler::{self, Failure, RunCtx};
use crate::options::{Concurrency, Resolved, RunPolicy, RuntimeOptions};
use crate::payload::{self, PayloadCtx};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Why a dispatch has no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// The event name is not any dialect's spelling.
    #[error("unknown event {}", crate::config::groups::quote(.0))]
    UnknownEvent(String),
    /// The host's signal fired; every hook of the dispatch has been killed.
    #[error("hook aborted by the host")]
    Aborted,
    /// `close()` was called.
    #[error("runtime is closed")]
    Closed,
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
    stop_guard: crate::stop_guard::StopGuard,
    outbound: crate::handler::outbound::Outbound,
}

/// What every hook of one dispatch shares: the event, the host payload, where hooks run and
/// the `CLAUDE_ENV_FILE` of events that export variables. Built once per dispatch (and by
/// `trial` for a single hook).
struct DispatchCtx {
    canonical: CanonicalEvent,
    payload: Map<String, Value>,
    cwd: PathBuf,
    project_dir: String,
    ts: String,
    env_file: Option<EnvFile>,
}

impl DispatchCtx {
    fn new(policy: &RunPolicy, canonical: CanonicalEvent, payload: Map<String, Value>, cwd: Option<String>) -> Self {
        // SPEC §6: the dispatch's cwd, else the project directory, else the runtime's cwd.
        let cwd = cwd.map(PathBuf::from).or_else(|| policy.project_dir.clone()).unwrap_or_else(|| policy.cwd.clone());
        let project_dir = policy.project_dir.as_ref().unwrap_or(&cwd).display().to_string();
        let env_file = if canonical.takes_env_file() { EnvFile::create() } else { None };
        DispatchCtx { canonical, payload, cwd, project_dir, ts: payload::iso_now(), env_file }
    }

    /// The JSON a hook reads, shaped for its dialect.
    fn input_for(&self, policy: &RunPolicy, hook: &Hook) -> Map<String, Value> {
        let cwd = self.cwd.display().to_string();
        let pctx = PayloadCtx {
            host: &self.payload,
            canonical: self.canonical,
            cwd: &cwd,
            model: policy.model.as_deref(),
            turn_id: policy.turn_id.as_deref(),
            ts: &self.ts,
        };
        payload::hook_input(&pctx, hook.dialect, &hook.event)
    }

    /// Everything one run of `hook` needs.
    fn run_ctx<'a>(&self, opts: &'a Resolved, hook: &Hook, cancel: &'a CancellationToken) -> RunCtx<'a> {
        let policy = &opts.policy;
        let input = self.input_for(policy, hook);
        let secs = hook.timeout.or(policy.timeout_sec).unwrap_or_else(|| hook.handler.kind().default_timeout_secs());
        let mut env = hook.env.clone();
        if let Some(f) = &self.env_file {
            env.push(("CLAUDE_ENV_FILE".into(), f.path.display().to_string()));
        }
        RunCtx {
            policy,
            shared: &opts.shared,
            input_json: serde_json::to_string(&input).unwrap_or_else(|_| "{}".into()),
            stdin: payload::to_stdin(&input, hook.dialect),
            cwd: self.cwd.clone(),
            project_dir: self.project_dir.clone(),
            timeout: Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX),
            timeout_label: handler::secs_label(secs),
            cancel,
            env,
        }
    }
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
        let stop_guard = crate::stop_guard::StopGuard::new(opts.policy.stop_block_limit);
        Ok(Runtime {
            opts,
            loaded: RwLock::new(Arc::new(loaded)),
            closed: AtomicBool::new(false),
            close_token: CancellationToken::new(),
            stop_guard,
            outbound: Default::default(),
        })
    }

    fn load(opts: &Resolved) -> Loaded {
        let mut l = load(&opts.load);
        l.table.case_insensitive_literals = opts.policy.case_insensitive_tools;
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

    /// Runs every matching hook and folds their answers: plan, run, fold, settle.
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
        let DispatchRequest { mut payload, subject, cwd, .. } = req;
        let ticket = self.stop_guard.prepare(ev.canonical, &mut payload);
        let loaded = self.loaded();
        let host_cwd = cwd.clone().unwrap_or_else(|| self.opts.policy.cwd.display().to_string());
        self.outbound.notify(&loaded.table, ev.canonical, &payload, &host_cwd, self.opts.shared.http());
        let plan = loaded.table.plan(ev, subject.as_deref().or_else(|| ev.canonical.subject_of(&payload)));
        if plan.is_empty() {
            self.stop_guard.settle(&ticket, None);
            return Ok(DispatchResult::empty(ev.canonical));
        }
        let ctx = DispatchCtx::new(&self.opts.policy, ev.canonical, payload, cwd);
        let runs = self.run_plan(&plan, &ctx, cancel).await?;
        let mut outcome = fold(runs.iter().map(|r| &r.outcome), ev.canonical);
        if let Some(f) = &ctx.env_file {
            outcome.env = f.take_exports();
        }
        self.stop_guard.settle(&ticket, Some(&mut outcome));
        Ok(DispatchResult { canonical: ev.canonical, outcome, runs })
    }

    /// Runs the planned hooks (concurrently or in order), until done, the host's abort or
    /// `close()`.
    async fn run_plan(
        &self,
        plan: &[Arc<Hook>],
        ctx: &DispatchCtx,
        cancel: &CancellationToken,
    ) -> Result<Vec<Run>, DispatchError> {
        let merged = self.close_token.child_token();
        let one = |hook: Arc<Hook>| {
            let rctx = ctx.run_ctx(&self.opts, &hook, &merged);
            self.run_one(hook, rctx, ctx.canonical)
        };
        let runs_fut = async {
            match self.opts.policy.concurrency {
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
        Ok(results.into_iter().flatten().collect())
    }

    /// Runs one hook alone on a payload, as `hookrt doctor` does (timeout capped at `cap`).
    pub async fn trial(&self, hook: Arc<Hook>, payload: Map<String, Value>, cap: Duration) -> Option<Run> {
        let ctx = DispatchCtx::new(&self.opts.policy, hook.canonical, payload, None);
        let never = CancellationToken::new();
        let mut rctx = ctx.run_ctx(&self.opts, &hook, &never);
        if rctx.timeout > cap {
            rctx.timeout = cap;
            rctx.timeout_label = handler::secs_label(cap.as_secs_f64());
        }
        self.run_one(hook, rctx, ctx.canonical).await
    }

    /// Runs and decodes one hook; `None` when the dispatch was aborted.
    async fn run_one(&self, hook: Arc<Hook>, ctx: RunCtx<'_>, event: CanonicalEvent) -> Option<Run> {
        let policy = &self.opts.policy;
        let started = Instant::now();
        let result = handler::run(&hook, &ctx).await;
        let duration_ms = started.elapsed().as_millis() as u64;
        let (mut outcome, error) = match result {
            Ok(raw) => {
                let mut o = decode::decode(raw, event, hook.dialect);
                if hook.deny_on_failure {
                    decode::deny_on_failure(&mut o);
                }
                if let Some(Some(code)) = o.exit_code.filter(|c| *c != Some(0) && *c != Some(2)) {
                    tracing::warn!(hook = %hook.id, "hook exited with code {code}: {}", crate::handler::first_chars(&o.stderr, policy.stderr_cap));
                } else if o.exit_code == Some(None) {
                    tracing::warn!(hook = %hook.id, "hook was killed by a signal");
                }
                (o, None)
            }
            Err(Failure::Aborted) => return None,
            Err(Failure::Infra(e)) => {
                let policy =
                    if hook.deny_on_failure { OnError::Block } else { hook.on_error.unwrap_or(policy.on_error) };
                if policy != OnError::Ignore {
                    tracing::warn!(hook = %hook.id, "hook failed: {e}");
                }
                (decode::infra_failure(&e, policy), Some(e))
            }
        };
        if hook.fail_closed || policy.fail_closed.contains(&event) {
            fail_closed(&mut outcome, error.as_deref());
        }
        outcome.cap_texts(policy.context_cap);
        Some(Run { hook, outcome, duration_ms, error })
    }
}

/// `failClosed`: a run that gave no answer (could not start, timed out, HTTP failure, killed by
/// a signal) denies instead of letting the action through.
fn fail_closed(outcome: &mut RunOutcome, error: Option<&str>) {
    let why = match (error, outcome.exit_code) {
        (Some(e), _) => e.to_owned(),
        (None, Some(None)) => "hook was killed by a signal".to_owned(),
        _ => return,
    };
    outcome.decision = Some(decode::Decision::Deny);
    outcome.reason = Some(format!("hook failed closed: {why}"));
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
                    "enabled": h.enabled,
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
