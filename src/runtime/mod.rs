//! The runtime: loaded configuration plus dispatch — plan the hooks for an event, run them,
//! decode each, fold in configuration order, settle (docs/architecture.md).

pub(crate) mod background;
pub(crate) mod dispatch;
pub(crate) mod env_file;
pub(crate) mod execute;
pub(crate) mod history;
pub(crate) mod host_hooks;
pub(crate) mod host_round;
pub(crate) mod logging;
pub(crate) mod options;
pub(crate) mod request;
mod run_plan;
pub(crate) mod sessions;
pub(crate) mod stop_guard;
pub(crate) mod wire;

use crate::config::{HandlerSpec, Hook};
use crate::handler::worker::{KeyRef, Pool};
use crate::handler::Resources;
use crate::load::{load, Loaded};
use crate::vocab::{Diagnostic, DispatchEvent};
use options::{OptionsError, Resolved, RuntimeOptions};
use request::DispatchCtx;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub use request::{BaseEnv, DispatchError, DispatchRequest, DispatchResult, Run};

/// A hook runtime: configuration, shared resources, and a close switch.
pub struct Runtime {
    opts: Resolved,
    /// Process slots, the HTTP client, workers and what the host lends: owned here, shared by
    /// every dispatch.
    shared: Resources,
    loaded: RwLock<Arc<Loaded>>,
    closed: AtomicBool,
    close_token: CancellationToken,
    stop_guard: stop_guard::StopGuard,
    sessions: sessions::Sessions,
    outbound: crate::handler::outbound::Outbound,
    background: Arc<background::Background>,
    /// The embedding program's callback hooks, planned before the files' hooks.
    host_hooks: host_hooks::HostHooks,
    /// `once` hooks already run, by (hook id, session id).
    once_seen: Mutex<std::collections::HashSet<(String, String)>>,
    /// The execution history writer, when `history` is set and its file opened.
    history: Option<history::History>,
    /// Problems outside the config files (a history file that cannot be opened), reported
    /// with every load.
    runtime_diags: Vec<Diagnostic>,
}

/// What the embedding program lends a runtime; each part is optional.
#[derive(Default)]
pub struct Host {
    /// Its MCP client, for `mcp_tool` hooks.
    pub mcp: Option<crate::handler::mcp::McpHost>,
    /// Its functions, for callback hooks.
    pub callbacks: Option<crate::handler::callback::CallbackHost>,
    /// Its event loop, where worker answers are read.
    pub answer_loop: Option<crate::handler::worker::HostLoop>,
}

/// `once` entries remembered at most.
const MAX_ONCE: usize = 100_000;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Runtime {
    /// Creates a runtime and loads configuration (never fails on bad config files).
    pub fn new(options: &RuntimeOptions) -> Result<Self, OptionsError> {
        Self::with_env(options, &|k| std::env::var(k).ok())
    }

    /// Like [`Runtime::new`] with an explicit environment lookup.
    pub fn with_env(options: &RuntimeOptions, env: &dyn Fn(&str) -> Option<String>) -> Result<Self, OptionsError> {
        Self::with_host(options, env, Host::default())
    }

    /// Like [`Runtime::with_env`], with what the embedding program lends: its MCP client for
    /// `mcp_tool` hooks, its functions for callback hooks, its event loop for worker answers.
    pub fn with_host(
        options: &RuntimeOptions,
        env: &dyn Fn(&str) -> Option<String>,
        host: Host,
    ) -> Result<Self, OptionsError> {
        let opts = options.resolve(env)?;
        let close_token = CancellationToken::new();
        let mut shared = Resources::new(opts.max_processes);
        shared.mcp = host.mcp;
        shared.callbacks = host.callbacks;
        shared.answer_loop = host.answer_loop;
        shared.workers = Arc::new(Pool::new(close_token.child_token()));
        let mut loaded = Self::load(&opts, &shared);
        let mut runtime_diags = Vec::new();
        let history = opts.history.as_ref().and_then(|h| {
            let secrets = opts.handlers.removed_env.iter().filter_map(|k| env(k)).collect();
            history::History::open(h, secrets)
                .map_err(|e| {
                    runtime_diags.push(Diagnostic::warning(&h.path, None, format!("{e}; no history is written")))
                })
                .ok()
        });
        loaded.diagnostics.extend(runtime_diags.iter().cloned());
        let stop_guard = stop_guard::StopGuard::new(opts.policy.stop_block_limit);
        Ok(Runtime {
            opts,
            shared,
            loaded: RwLock::new(Arc::new(loaded)),
            closed: AtomicBool::new(false),
            close_token,
            stop_guard,
            sessions: Default::default(),
            outbound: Default::default(),
            background: Default::default(),
            host_hooks: Default::default(),
            once_seen: Default::default(),
            history,
            runtime_diags,
        })
    }

    fn load(opts: &Resolved, shared: &Resources) -> Loaded {
        let mut l = load(&opts.load);
        l.table.case_insensitive_literals = opts.policy.case_insensitive_tools;
        l.table.harness_tool_names = opts.policy.inside.is_some();
        for h in l.table.hooks() {
            let problem = match &h.handler {
                HandlerSpec::McpTool { .. } if shared.mcp.is_none() => {
                    Some(crate::handler::failure::Unconfigured::McpHost.to_string())
                }
                HandlerSpec::Http { url, .. } => opts
                    .handlers
                    .allowed_http_hook_urls
                    .as_deref()
                    .filter(|p| !crate::handler::webhook::url_allowed(url, p))
                    .map(|_| format!("http hook URL {url} matches no allowedHttpHookUrls pattern; it is not run")),
                _ => None,
            };
            if let Some(message) = problem {
                l.diagnostics.push(Diagnostic::warning(&h.file, Some(&h.event), format!("{}: {message}", h.id)));
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

    /// Re-reads configuration; returns the new diagnostics. Workers whose hook changed or
    /// disappeared stop; the others keep running.
    pub fn reload(&self) -> Vec<Diagnostic> {
        let mut fresh = Self::load(&self.opts, &self.shared);
        fresh.diagnostics.extend(self.runtime_diags.iter().cloned());
        let fresh = Arc::new(fresh);
        let diags = fresh.diagnostics.clone();
        let workers: Vec<&HandlerSpec> = fresh
            .table
            .hooks()
            .iter()
            .map(|h| &h.handler)
            .filter(|h| matches!(h, HandlerSpec::Worker { .. }))
            .collect();
        self.shared.workers.retain(|k| {
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
            let ctx = DispatchCtx::new(&self.opts, hook.canonical, Map::new(), None);
            let cancel = self.close_token.child_token();
            let run = ctx.parts(&self.opts, hook).ctx(&self.opts.handlers, &self.shared, &cancel);
            let key = KeyRef::of(command, args.as_deref(), env, &run);
            self.shared.workers.warm(hook, key, *settings, &run).await;
        }
    }

    /// Stops every worker (stdin closed, the kill grace, then the tree kill); the next
    /// matching request starts a fresh one.
    pub fn stop_workers(&self) {
        self.shared.workers.stop_all();
    }

    /// Live worker processes of this runtime.
    pub fn live_workers(&self) -> usize {
        self.shared.workers.live_count()
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
        crate::harness::resolve_dispatch_name(name).ok_or_else(|| DispatchError::UnknownEvent(name.to_owned()))
    }

    /// Whether any hook would run; lets hosts answer a no-match dispatch synchronously.
    pub fn any_match(&self, event: &str, subject: Option<&str>) -> Result<bool, DispatchError> {
        let ev = Self::resolve_event(event)?;
        Ok(self.could_run(ev, subject))
    }

    /// Whether a hook runs for this event whatever the subject, until the next reload: a host
    /// may then skip [`Runtime::any_match`] for it (false for unknown events).
    pub fn always_matches(&self, event: &str) -> bool {
        Self::resolve_event(event).is_ok_and(|ev| {
            self.loaded().table.always_matches(ev)
                || self.host_hooks.table().is_some_and(|t| t.always_matches(ev))
                || self.records_skips(ev)
        })
    }

    /// Registers the embedding program's callback hooks; the handle given back removes them.
    pub fn add_callback_hooks(&self, spec: &host_hooks::CallbackHooks) -> Result<u64, host_hooks::HostHooksError> {
        self.host_hooks.add(spec, self.table_rules())
    }

    /// Removes callback hooks registered with [`Runtime::add_callback_hooks`]; false when they
    /// were removed already.
    pub fn remove_callback_hooks(&self, handle: u64) -> bool {
        self.host_hooks.remove(handle, self.table_rules())
    }

    /// How tool names compare, for the callback hooks' table as for the files'.
    fn table_rules(&self) -> (bool, bool) {
        (self.opts.policy.case_insensitive_tools, self.opts.policy.inside.is_some())
    }

    /// Runs one hook alone on a payload, as `hookrt doctor` does (timeout capped at `cap`).
    pub async fn trial(&self, hook: Arc<Hook>, payload: Map<String, Value>, cap: Duration) -> Option<Run> {
        let ctx = DispatchCtx::new(&self.opts, hook.canonical, payload, None);
        let never = CancellationToken::new();
        let mut parts = ctx.parts(&self.opts, &hook);
        if parts.timeout > cap {
            parts.timeout = cap;
            parts.timeout_secs = cap.as_secs_f64();
        }
        let rctx = parts.ctx(&self.opts.handlers, &self.shared, &never);
        execute::execute(&self.opts.policy, hook, rctx, ctx.canonical, None).await
    }

    /// Finished async hooks are handed to `listener` as they end.
    pub fn on_async(&self, listener: Option<background::Listener>) {
        self.background.set_listener(listener);
    }

    /// Whether a dispatch could run anything or deliver waiting async results; the no-match
    /// shortcuts of the JS wrapper and `listen` answer at once only when it cannot.
    pub fn could_run(&self, ev: DispatchEvent, subject: Option<&str>) -> bool {
        self.background.has_pending()
            || self.host_hooks.table().is_some_and(|t| t.any_match(ev, subject))
            || self.loaded().table.any_match(ev, subject)
            || self.records_skips(ev)
    }

    /// The merged effective configuration: files, hooks in order, and the off switch.
    pub fn dump(&self) -> Value {
        let l = self.loaded();
        let hooks: Vec<Value> = l.table.hooks().iter().map(|h| dump_hook(h)).collect();
        serde_json::json!({
            "disabled": l.table.disabled,
            "sources": l.sources,
            "diagnostics": l.diagnostics,
            "hooks": hooks,
        })
    }
}

fn dump_hook(h: &Hook) -> Value {
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
}
