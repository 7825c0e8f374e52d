//! The runtime: loaded configuration plus dispatch — plan the hooks for an event, run them
//! concurrently, decode each, fold in configuration order (SPEC §2, §9, §10).

use crate::config::load::load;
use crate::config::{Diagnostic, HandlerSpec, Hook, Loaded, Order};
use crate::decode::RunOutcome;
use crate::env_file::EnvFile;
use crate::event::{resolve_dispatch_name, CanonicalEvent, DispatchEvent};
use crate::execute::execute;
use crate::fold::{fold, Outcome};
use crate::handler::{self, RunParts};
use crate::options::{Concurrency, Resolved, RunPolicy, RuntimeOptions};
use crate::payload::{self, PayloadCtx};
use futures::FutureExt;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
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
    /// Told when each hook starts and ends (the JS API's `onProgress`).
    pub progress: Option<crate::execute::ProgressSink>,
}

pub use crate::execute::Run;

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
    background: Arc<crate::background::Background>,
    /// `once` hooks already run, by (hook id, session id).
    once_seen: std::sync::Mutex<std::collections::HashSet<(String, String)>>,
    /// The execution history writer, when `history` is set and its file opened.
    history: Option<crate::history::History>,
    /// Problems outside the config files (a history file that cannot be opened), reported
    /// with every load.
    runtime_diags: Vec<Diagnostic>,
}

/// `once` entries remembered at most.
const MAX_ONCE: usize = 100_000;

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
    /// Consecutive blocked Stops of this session so far (Cursor's `loop_count`).
    loop_count: u32,
}

impl DispatchCtx {
    fn new(policy: &RunPolicy, canonical: CanonicalEvent, payload: Map<String, Value>, cwd: Option<String>) -> Self {
        // SPEC §6: the dispatch's cwd, else the project directory, else the runtime's cwd.
        let cwd = cwd.map(PathBuf::from).or_else(|| policy.project_dir.clone()).unwrap_or_else(|| policy.cwd.clone());
        let project_dir = policy.project_dir.as_ref().unwrap_or(&cwd).display().to_string();
        let env_file = if canonical.takes_env_file() { EnvFile::create() } else { None };
        DispatchCtx { canonical, payload, cwd, project_dir, ts: payload::iso_now(), env_file, loop_count: 0 }
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

    /// Everything one run of `hook` needs, owned.
    fn parts(&self, policy: &RunPolicy, hook: &Hook) -> RunParts {
        self.parts_with(policy, hook, None)
    }

    /// [`DispatchCtx::parts`], with the `tool_input` a previous hook of a Gemini chain returned.
    fn parts_with(&self, policy: &RunPolicy, hook: &Hook, tool_input: Option<&Value>) -> RunParts {
        let mut input = self.input_for(policy, hook);
        if let Some(t) = tool_input {
            input.insert("tool_input".into(), t.clone());
        }
        if hook.dialect == crate::dialect::Dialect::Cursor
            && matches!(self.canonical, CanonicalEvent::TurnStop | CanonicalEvent::SubagentEnd)
        {
            input.entry("loop_count").or_insert(Value::from(self.loop_count));
        }
        let secs = hook.timeout.or(policy.timeout_sec).unwrap_or_else(|| hook.handler.kind().default_timeout_secs());
        let mut env = hook.env.clone();
        if let Some(f) = &self.env_file {
            env.push(("CLAUDE_ENV_FILE".into(), f.path.display().to_string()));
        }
        if hook.dialect == crate::dialect::Dialect::Gemini {
            env.push(("GEMINI_PROJECT_DIR".into(), self.project_dir.clone()));
        }
        // Copilot `cwd`, Windsurf `working_directory`: relative to the project directory.
        let cwd = match &hook.harness.cwd {
            Some(c) => std::path::Path::new(&self.project_dir).join(c),
            None => self.cwd.clone(),
        };
        RunParts {
            input_json: serde_json::to_string(&input).unwrap_or_else(|_| "{}".into()),
            stdin: payload::to_stdin(&input, hook.dialect),
            cwd,
            project_dir: self.project_dir.clone(),
            timeout: Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX),
            timeout_label: handler::secs_label(secs),
            env,
        }
    }

    /// The hook's `if` rule against this dispatch: only tool events can match, a rule that did
    /// not parse lets the hook run.
    fn if_admits(&self, hook: &Hook, home: &std::path::Path) -> bool {
        use CanonicalEvent as E;
        if hook.claude.if_text.is_none() {
            return true;
        }
        if !matches!(self.canonical, E::ToolBefore | E::ToolAfter | E::PermissionRequest | E::PermissionDenied) {
            return false;
        }
        let Some(rule) = &hook.claude.if_rule else { return true };
        let tool_name = self.canonical.subject_of(&self.payload).unwrap_or("");
        let tool_input = self.payload.get("tool_input").and_then(Value::as_object);
        let project_dir = std::path::Path::new(&self.project_dir);
        rule.matches(&crate::permission_rule::Call { tool_name, tool_input, project_dir, home })
    }
}

impl Runtime {
    /// Creates a runtime and loads configuration (never fails on bad config files).
    pub fn new(options: &RuntimeOptions) -> Result<Self, String> {
        Self::with_env(options, &|k| std::env::var(k).ok())
    }

    /// Like [`Runtime::new`] with an explicit environment lookup.
    pub fn with_env(options: &RuntimeOptions, env: &dyn Fn(&str) -> Option<String>) -> Result<Self, String> {
        Self::with_host(options, env, None)
    }

    /// Like [`Runtime::with_env`], with the host's MCP client for `mcp_tool` hooks.
    pub fn with_host(
        options: &RuntimeOptions,
        env: &dyn Fn(&str) -> Option<String>,
        mcp: Option<crate::handler::mcp::McpHost>,
    ) -> Result<Self, String> {
        let mut opts = options.resolve(env)?;
        opts.shared.mcp = mcp;
        let close_token = CancellationToken::new();
        opts.shared.workers = Arc::new(crate::handler::worker::Pool::new(close_token.child_token()));
        let mut loaded = Self::load(&opts);
        let mut runtime_diags = Vec::new();
        let history = opts.history.as_ref().and_then(|h| {
            let secrets = opts.policy.removed_env.iter().filter_map(|k| env(k)).collect();
            crate::history::History::open(h, secrets)
                .map_err(|message| {
                    runtime_diags.push(Diagnostic {
                        severity: crate::config::Severity::Warning,
                        file: Some(h.path.display().to_string()),
                        event: None,
                        message: format!("{message}; no history is written"),
                    })
                })
                .ok()
        });
        loaded.diagnostics.extend(runtime_diags.iter().cloned());
        let stop_guard = crate::stop_guard::StopGuard::new(opts.policy.stop_block_limit);
        Ok(Runtime {
            opts,
            loaded: RwLock::new(Arc::new(loaded)),
            closed: AtomicBool::new(false),
            close_token,
            stop_guard,
            outbound: Default::default(),
            background: Default::default(),
            once_seen: Default::default(),
            history,
            runtime_diags,
        })
    }

    fn load(opts: &Resolved) -> Loaded {
        let mut l = load(&opts.load);
        l.table.case_insensitive_literals = opts.policy.case_insensitive_tools;
        for h in l.table.hooks() {
            let problem = match &h.handler {
                HandlerSpec::McpTool { .. } if opts.shared.mcp.is_none() => Some(handler::mcp::NO_HOST.to_owned()),
                HandlerSpec::Http { url, .. } => opts
                    .policy
                    .allowed_http_hook_urls
                    .as_deref()
                    .filter(|p| !handler::webhook::url_allowed(url, p))
                    .map(|_| format!("http hook URL {url} matches no allowedHttpHookUrls pattern; it is not run")),
                _ => None,
            };
            if let Some(message) = problem {
                l.diagnostics.push(Diagnostic {
                    severity: crate::config::Severity::Warning,
                    file: Some(h.file.display().to_string()),
                    event: Some(h.event.clone()),
                    message: format!("{}: {message}", h.id),
                });
            }
        }
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
        let mut fresh = Self::load(&self.opts);
        fresh.diagnostics.extend(self.runtime_diags.iter().cloned());
        let fresh = Arc::new(fresh);
        let diags = fresh.diagnostics.clone();
        // Workers whose hook changed or disappeared stop; the others keep running.
        let workers: Vec<&HandlerSpec> = fresh
            .table
            .hooks()
            .iter()
            .map(|h| &h.handler)
            .filter(|h| matches!(h, HandlerSpec::Worker { .. }))
            .collect();
        self.opts.shared.workers.retain(|k| {
            workers.iter().any(|h| match h {
                HandlerSpec::Worker { command, args, env, .. } => {
                    *command == k.command && *args == k.args && env.iter().all(|v| k.env.contains(v))
                }
                _ => false,
            })
        });
        match self.loaded.write() {
            Ok(mut g) => *g = fresh,
            Err(p) => *p.into_inner() = fresh,
        }
        diags
    }

    pub fn options(&self) -> &Resolved {
        &self.opts
    }

    /// Starts the `warm: true` workers now instead of on their first match.
    pub async fn warm_workers(&self) {
        let loaded = self.loaded();
        for hook in loaded.table.hooks() {
            let HandlerSpec::Worker { command, args, env, settings } = &hook.handler else { continue };
            if !settings.warm || !hook.enabled {
                continue;
            }
            let ctx = DispatchCtx::new(&self.opts.policy, hook.canonical, Map::new(), None);
            let cancel = self.close_token.child_token();
            let run = ctx.parts(&self.opts.policy, hook).ctx(&self.opts.policy, &self.opts.shared, &cancel);
            let key = crate::handler::worker::WorkerKey::of(command, args.as_deref(), env, &run);
            self.opts.shared.workers.warm(hook, key, *settings, &run).await;
        }
    }

    /// Stops every worker (stdin closed, the kill grace, then the tree kill); the next
    /// matching request starts a fresh one.
    pub fn stop_workers(&self) {
        self.opts.shared.workers.stop_all();
    }

    /// Live worker processes of this runtime.
    pub fn live_workers(&self) -> usize {
        self.opts.shared.workers.live_count()
    }

    /// Aborts running hooks; later dispatches fail with [`DispatchError::Closed`].
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.close_token.cancel();
        self.flush_history();
    }

    /// Waits (briefly) until the history lines of finished dispatches are on disk.
    pub fn flush_history(&self) {
        if let Some(h) = &self.history {
            h.flush(Duration::from_secs(2));
        }
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
        Ok(self.could_run(ev, subject))
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
        let started = std::time::Instant::now();
        let DispatchRequest { event, mut payload, subject, cwd, progress } = req;
        let ticket = self.stop_guard.prepare(ev.canonical, &mut payload);
        let loaded = self.loaded();
        let host_cwd = cwd.clone().unwrap_or_else(|| self.opts.policy.cwd.display().to_string());
        self.outbound.notify(&loaded.table, ev.canonical, &payload, &host_cwd, self.opts.shared.http());
        let session = payload.get("session_id").and_then(Value::as_str).unwrap_or("").to_owned();
        let delivered = self.background.take(&session);
        let plan = loaded.table.plan(ev, subject.as_deref().or_else(|| ev.canonical.subject_of(&payload)));
        if plan.is_empty() && delivered.is_empty() {
            self.stop_guard.settle(&ticket, None);
            return Ok(DispatchResult::empty(ev.canonical));
        }
        let mut ctx = DispatchCtx::new(&self.opts.policy, ev.canonical, payload, cwd);
        ctx.loop_count = self.stop_guard.count(&ticket);
        let plan = self.admit(plan, &ctx, &session);
        let mut runs = self.run_plan(&plan, &ctx, cancel, progress.as_ref(), &session).await?;
        crate::harness::settle_runs(&mut runs, &ctx.payload, ctx.loop_count);
        let rewake = delivered.iter().find_map(|d| d.rewake.clone());
        runs.extend(delivered.into_iter().map(|d| d.run));
        let mut outcome = fold(runs.iter().map(|r| &r.outcome), ev.canonical);
        outcome.rewake = rewake;
        if let Some(f) = &ctx.env_file {
            outcome.env = f.take_exports();
        }
        self.stop_guard.settle(&ticket, Some(&mut outcome));
        tracing::debug!(
            target: "hookrt::dispatch",
            event = %event,
            canonical = ev.canonical.as_str(),
            runs = runs.len(),
            decision = ?outcome.decision,
            duration_ms = started.elapsed().as_millis() as u64,
            "dispatch finished"
        );
        if let Some(h) = &self.history {
            h.record((&event, ev.canonical), &outcome, &runs, started, &ctx.payload);
        }
        Ok(DispatchResult { canonical: ev.canonical, outcome, runs })
    }

    /// The planned hooks that really run: their `if` rule admits the call and a `once` hook
    /// has not run for this session yet.
    fn admit(&self, plan: Vec<Arc<Hook>>, ctx: &DispatchCtx, session: &str) -> Vec<Arc<Hook>> {
        let home = &self.opts.load.home;
        plan.into_iter()
            .filter(|h| ctx.if_admits(h, home))
            .filter(|h| {
                if !h.claude.once {
                    return true;
                }
                let mut seen = match self.once_seen.lock() {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                };
                if seen.len() >= MAX_ONCE {
                    seen.clear();
                }
                seen.insert((h.id.clone(), session.to_owned()))
            })
            .collect()
    }

    /// Starts an async hook in the background; its result waits for the session's next
    /// dispatch. `close()` kills it like any other hook.
    fn start_async(&self, hook: Arc<Hook>, ctx: &DispatchCtx, session: &str) -> Run {
        let parts = ctx.parts(&self.opts.policy, &hook);
        let opts = self.opts.clone();
        let cancel = self.close_token.child_token();
        let background = self.background.clone();
        let (event, session, h) = (ctx.canonical, session.to_owned(), hook.clone());
        tokio::spawn(async move {
            let rctx = parts.ctx(&opts.policy, &opts.shared, &cancel);
            if let Some(run) = execute(&opts.policy, h, rctx, event, None).await {
                background.finished(session, run);
            }
        });
        let outcome = RunOutcome { pending: true, ..Default::default() };
        Run { hook, outcome, duration_ms: 0, error: None, is_async: true, started: None }
    }

    /// Runs the planned hooks (concurrently or in order), until done, the host's abort or
    /// `close()`.
    async fn run_plan(
        &self,
        plan: &[Arc<Hook>],
        ctx: &DispatchCtx,
        cancel: &CancellationToken,
        progress: Option<&crate::execute::ProgressSink>,
        session: &str,
    ) -> Result<Vec<Run>, DispatchError> {
        let merged = self.close_token.child_token();
        let policy = &self.opts.policy;
        let one = |hook: Arc<Hook>, tool_input: Option<Value>| {
            let started = hook.claude.is_async.then(|| self.start_async(hook.clone(), ctx, session));
            let rctx = ctx.parts_with(policy, &hook, tool_input.as_ref()).ctx(policy, &self.opts.shared, &merged);
            async move {
                match started {
                    Some(run) => Some(run),
                    None => execute(policy, hook, rctx, ctx.canonical, progress).await,
                }
            }
        };
        let of = |order: Order| plan.iter().enumerate().filter(move |(_, h)| h.harness.order == order);
        let runs_fut = async {
            let mut slots: Vec<Option<Run>> = (0..plan.len()).map(|_| None).collect();
            match self.opts.policy.concurrency {
                Concurrency::Parallel => {
                    let parallel = futures::future::join_all(
                        of(Order::Parallel).map(|(i, h)| one(h.clone(), None).map(move |r| (i, r))),
                    );
                    let in_order = async {
                        let mut v = Vec::new();
                        for (i, h) in of(Order::InOrder) {
                            v.push((i, one(h.clone(), None).await));
                        }
                        v
                    };
                    let chain = self.run_chain(of(Order::Chain).collect(), ctx, &one);
                    let (a, b, c) = futures::join!(parallel, in_order, chain);
                    for (i, r) in a.into_iter().chain(b).chain(c) {
                        slots[i] = r;
                    }
                }
                Concurrency::Serial => {
                    for (i, h) in plan.iter().enumerate() {
                        slots[i] = one(h.clone(), None).await;
                    }
                }
            }
            slots
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

    /// Gemini `sequential`: each hook gets the `tool_input` the previous one returned (merged
    /// into the arguments), and the first deny ends the chain.
    async fn run_chain<F, Fut>(
        &self,
        hooks: Vec<(usize, &Arc<Hook>)>,
        ctx: &DispatchCtx,
        one: &F,
    ) -> Vec<(usize, Option<Run>)>
    where
        F: Fn(Arc<Hook>, Option<Value>) -> Fut,
        Fut: std::future::Future<Output = Option<Run>>,
    {
        let mut current = ctx.payload.get("tool_input").cloned();
        let mut out = Vec::with_capacity(hooks.len());
        for (i, h) in hooks {
            let mut run = one(h.clone(), current.clone()).await;
            if let Some(r) = run.as_mut() {
                if let Some(u) = r.outcome.update_input.take() {
                    let merged = crate::harness::gemini::merge_input(current.as_ref(), &u);
                    r.outcome.update_input = Some(merged.clone());
                    current = Some(merged);
                }
            }
            let denied = run.as_ref().is_some_and(|r| r.outcome.decision == Some(crate::decode::Decision::Deny));
            out.push((i, run));
            if denied {
                break;
            }
        }
        out
    }

    /// Runs one hook alone on a payload, as `hookrt doctor` does (timeout capped at `cap`).
    pub async fn trial(&self, hook: Arc<Hook>, payload: Map<String, Value>, cap: Duration) -> Option<Run> {
        let ctx = DispatchCtx::new(&self.opts.policy, hook.canonical, payload, None);
        let never = CancellationToken::new();
        let mut parts = ctx.parts(&self.opts.policy, &hook);
        if parts.timeout > cap {
            parts.timeout = cap;
            parts.timeout_label = handler::secs_label(cap.as_secs_f64());
        }
        let rctx = parts.ctx(&self.opts.policy, &self.opts.shared, &never);
        execute(&self.opts.policy, hook, rctx, ctx.canonical, None).await
    }

    /// Finished async hooks are handed to `listener` as they end.
    pub fn on_async(&self, listener: Option<crate::background::Listener>) {
        self.background.set_listener(listener);
    }

    /// Whether a dispatch could run anything or deliver waiting async results; the no-match
    /// shortcuts of the JS wrapper and `listen` answer at once only when it cannot.
    pub fn could_run(&self, ev: DispatchEvent, subject: Option<&str>) -> bool {
        self.background.has_pending() || self.loaded().table.any_match(ev, subject)
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
