//! The napi layer: conversions and cancellation only. Payloads and results cross the
//! boundary as JSON strings (cheaper than property-by-property conversion); the JS wrapper
//! (`wrapper.js`) turns them into objects and maps AbortSignals onto [`CancelToken`]s.

mod js_loop;

use crate::runtime::options::{OptionsError, RuntimeOptions};
use crate::runtime::{DispatchError, DispatchRequest, Runtime};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// The addon's async runtime: one worker thread. Dispatches themselves run on the JS thread
/// (`js_loop`); what they wait on here (timers, command hooks, HTTP, `listen` and the CLI) is
/// pipes, sockets and timers, never long computation, so one thread is enough. Blocking work
/// (reloads, process-tree scans) goes to tokio's blocking pool.
#[napi_derive::module_init]
fn init() {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(1).enable_all();
    if let Ok(rt) = builder.build() {
        let _ = TOKIO.set(rt.handle().clone());
        create_custom_tokio_runtime(rt);
    }
}

static TOKIO: std::sync::OnceLock<tokio::runtime::Handle> = std::sync::OnceLock::new();

/// The addon's tokio runtime, which dispatches polled on the JS thread enter.
fn tokio_handle() -> Option<tokio::runtime::Handle> {
    TOKIO.get().cloned()
}

/// A cancellation handle the JS wrapper fires when the host's AbortSignal aborts.
#[napi]
pub struct CancelToken {
    inner: CancellationToken,
}

#[napi]
impl CancelToken {
    #[napi(constructor)]
    pub fn new() -> Self {
        CancelToken { inner: CancellationToken::new() }
    }

    /// Kills every hook process of the dispatches holding this token.
    #[napi(catch_unwind)]
    pub fn cancel(&self) {
        self.inner.cancel();
    }
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

/// The native runtime behind `createRuntime`; use the wrapper's `HookRuntime` instead.
#[napi]
pub struct NativeRuntime {
    inner: Arc<Runtime>,
}

fn to_napi(e: DispatchError) -> Error {
    match e {
        DispatchError::Aborted => Error::new(Status::Cancelled, e.to_string()),
        DispatchError::UnknownEvent(_) => Error::new(Status::InvalidArg, e.to_string()),
        DispatchError::Closed => Error::new(Status::GenericFailure, e.to_string()),
    }
}

/// A JS callback taking one JSON string, not keeping the event loop alive.
type JsonCallback = ThreadsafeFunction<String, (), String, Status, false, true>;
/// A JS callback taking one JSON string and returning a promise of a JSON string.
type JsonCall = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// The host's `mcpCall`, reached through the wrapper: `call` gets `{id, server, tool, input}`
/// and resolves to `{content, isError}`; `abort` gets the id of a call to give up on.
struct JsMcp {
    call: Arc<JsonCall>,
    abort: Arc<JsonCallback>,
    next: std::sync::atomic::AtomicU64,
}

/// Aborts a host MCP call when its future is dropped unanswered.
struct AbortOnDrop {
    abort: Arc<JsonCallback>,
    id: u64,
    armed: bool,
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.abort.call(self.id.to_string(), ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
}

impl crate::handler::mcp::McpCaller for JsMcp {
    fn call(
        &self,
        server: String,
        tool: String,
        input: serde_json::Value,
        cancel: CancellationToken,
    ) -> futures::future::BoxFuture<'static, std::result::Result<crate::handler::mcp::McpAnswer, String>> {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let req = json(&serde_json::json!({"id": id, "server": server, "tool": tool, "input": input}));
        let (call, abort) = (self.call.clone(), self.abort.clone());
        Box::pin(async move {
            // Dropped before the answer (timeout, abort): tell the host to give up.
            let mut pending = AbortOnDrop { abort: abort.clone(), id, armed: true };
            let work = async {
                let promise = call.call_async(req).await.map_err(|e| e.reason.clone())?;
                let text = promise.await.map_err(|e| e.reason.clone())?;
                let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                Ok(crate::handler::mcp::McpAnswer {
                    content: v.get("content").cloned().unwrap_or(serde_json::Value::Null),
                    is_error: v.get("isError") == Some(&serde_json::Value::Bool(true)),
                })
            };
            let r = tokio::select! {
                r = work => r,
                _ = cancel.cancelled() => Err("aborted".into()),
            };
            pending.armed = r.is_err() && cancel.is_cancelled();
            r
        })
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

#[napi]
impl NativeRuntime {
    /// Creates a runtime from options JSON; bad config files only produce diagnostics.
    /// `mcp_call` / `mcp_abort`: the wrapper's adapters of the host's `mcpCall` option.
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "optionsJson: string, mcpCall?: ((requestJson: string) => Promise<string>) | null, mcpAbort?: ((id: string) => void) | null"
    )]
    pub fn new(
        env: Env,
        options_json: String,
        mcp_call: Option<JsonCall>,
        mcp_abort: Option<JsonCallback>,
    ) -> Result<Self> {
        crate::runtime::logging::init();
        let opts: RuntimeOptions = serde_json::from_str(&options_json)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid runtime options: {e}")))?;
        let mcp = match (mcp_call, mcp_abort) {
            (Some(call), Some(abort)) => Some(crate::handler::mcp::McpHost(Arc::new(JsMcp {
                call: Arc::new(call),
                abort: Arc::new(abort),
                next: Default::default(),
            }))),
            _ => None,
        };
        let answers = js_loop::Loop::here(env.raw())?.answer_loop();
        let answers = Some(crate::handler::worker::HostLoop(answers));
        let rt = Runtime::with_host(&opts, &|k| std::env::var(k).ok(), mcp, answers).map_err(|e| {
            let status = match e {
                OptionsError::Timeout | OptionsError::UnknownEvent(_) => Status::InvalidArg,
                OptionsError::NoCwd(_) => Status::GenericFailure,
            };
            Error::new(status, e.to_string())
        })?;
        Ok(NativeRuntime { inner: Arc::new(rt) })
    }

    /// Finished async hooks, as JSON `{sessionId, run, rewake?}`, go to `cb` (null: none).
    #[napi(catch_unwind, ts_args_type = "cb?: ((finishedJson: string) => void) | null")]
    pub fn on_async(&self, cb: Option<JsonCallback>) {
        let listener = cb.map(|cb| {
            let cb = Arc::new(cb);
            crate::runtime::background::Listener(Arc::new(move |f: &crate::runtime::background::Finished| {
                cb.call(json(f), ThreadsafeFunctionCallMode::NonBlocking);
            }))
        });
        self.inner.on_async(listener);
    }

    /// Diagnostics of the current configuration, as JSON.
    #[napi(catch_unwind)]
    pub fn diagnostics_json(&self) -> String {
        json(&self.inner.loaded().diagnostics)
    }

    /// Files read, as JSON.
    #[napi(catch_unwind)]
    pub fn sources_json(&self) -> String {
        json(&self.inner.loaded().sources)
    }

    /// The merged effective configuration, as JSON.
    #[napi(catch_unwind)]
    pub fn dump_json(&self) -> String {
        json(&self.inner.dump())
    }

    /// Whether any hook would run for this event and subject (false for unknown events).
    #[napi(catch_unwind)]
    pub fn any_match(&self, event: String, subject: Option<String>) -> bool {
        !self.inner.is_closed() && self.inner.any_match(&event, subject.as_deref()).unwrap_or(false)
    }

    /// Whether a hook runs for this event whatever the subject, until the next `reload()`:
    /// the wrapper then skips `anyMatch` for it (one napi call less per dispatch).
    #[napi(catch_unwind)]
    pub fn always_matches(&self, event: String) -> bool {
        !self.inner.is_closed() && self.inner.always_matches(&event)
    }

    /// Runs the matching hooks; resolves to the result JSON. Rejects with code `Cancelled`
    /// when the token fires. The dispatch runs on the calling (JS) thread's loop
    /// (`js_loop`): one that waits on nothing has settled when this returns.
    #[napi(
        catch_unwind,
        ts_args_type = "event: string, payloadJson: string, subject?: string | null, cwd?: string | null, token?: CancelToken | null, progress?: ((progressJson: string) => void) | null",
        ts_return_type = "Promise<string>"
    )]
    // The arguments are the JS call's, one for one.
    #[allow(clippy::too_many_arguments)]
    pub fn dispatch_json<'env>(
        &self,
        env: &'env Env,
        event: String,
        payload_json: String,
        subject: Option<String>,
        cwd: Option<String>,
        token: Option<&CancelToken>,
        progress: Option<JsonCallback>,
    ) -> Result<PromiseRaw<'env, String>> {
        let payload = match serde_json::from_str::<serde_json::Value>(&payload_json) {
            Ok(serde_json::Value::Object(m)) => Ok(m),
            Ok(serde_json::Value::Null) => Ok(Default::default()),
            _ => Err((Status::InvalidArg, "payload must be a JSON object".to_owned())),
        };
        let cancel = token.map(|t| t.inner.clone()).unwrap_or_default();
        let progress = progress.map(Arc::new);
        let sink = progress.clone().map(|cb| {
            crate::runtime::execute::ProgressSink(Arc::new(move |p| {
                cb.call(json(&p), ThreadsafeFunctionCallMode::NonBlocking);
            }))
        });
        let rt = self.inner.clone();
        let work = async move {
            let payload = payload?;
            let req = DispatchRequest { event, payload, subject, cwd, progress: sink, env: None };
            let result = rt.dispatch(req, &cancel).await;
            // Every progress report reaches JS before the promise settles: the queue is in
            // order, and this last call returns only once JS has run it.
            if let Some(cb) = progress {
                let _ = cb.call_async("{\"phase\":\"flush\"}".to_owned()).await;
            }
            result.map(|r| json(&r)).map_err(|e| {
                let e = to_napi(e);
                (e.status, e.reason.clone())
            })
        };
        let promise = js_loop::Loop::here(env.raw())?.start(work)?;
        Ok(PromiseRaw::new(env.raw(), promise))
    }

    /// Re-reads configuration; resolves to the diagnostics JSON.
    #[napi]
    pub async fn reload(&self) -> Result<String> {
        let rt = self.inner.clone();
        let diags = tokio::task::spawn_blocking(move || rt.reload())
            .await
            .map_err(|e| Error::from_reason(format!("reload failed: {e}")))?;
        Ok(json(&diags))
    }

    /// Starts the `warm: true` workers of the current configuration.
    #[napi]
    pub async fn warm(&self) {
        self.inner.warm_workers().await;
    }

    /// Aborts running hooks and stops workers; later dispatches reject.
    #[napi(catch_unwind)]
    pub fn close(&self) {
        self.inner.close();
    }
}

/// SIGKILLs every worker process group of this process at once (Node's `exit`, when no
/// async code runs any more).
#[napi(catch_unwind)]
pub(crate) fn kill_workers() {
    crate::handler::worker::kill_all_now();
}

/// `{canonical, subjectKeys}` for a dispatch name, or null when no dialect spells it so.
#[napi(catch_unwind)]
pub(crate) fn event_info(event: String) -> Option<String> {
    let ev = Runtime::resolve_event(&event).ok()?;
    Some(json(&serde_json::json!({
        "canonical": ev.canonical,
        "subjectKeys": ev.canonical.subject_keys(),
        "subjectBasename": ev.canonical.subject().basename,
    })))
}

fn cli_token() -> &'static Mutex<Option<CancellationToken>> {
    static T: std::sync::OnceLock<Mutex<Option<CancellationToken>>> = std::sync::OnceLock::new();
    T.get_or_init(|| Mutex::new(None))
}

/// Runs the `hookrt` command line (arguments without the program name); resolves to the
/// exit code. `launcher`: the words that start this same command again (`[node, bin/hookrt.js]`),
/// which `hookrt install` writes into the harnesses' entries.
#[napi]
pub(crate) async fn run_cli(argv: Vec<String>, launcher: Option<Vec<String>>) -> i32 {
    if let Some(words) = launcher {
        crate::cli::inside::set_launcher(words);
    }
    let token = CancellationToken::new();
    if let Ok(mut g) = cli_token().lock() {
        *g = Some(token.clone());
    }
    crate::cli::main(argv, token).await
}

/// Stops a running `run_cli` (SIGTERM/SIGINT): hooks are killed and it resolves promptly.
#[napi(catch_unwind)]
pub(crate) fn stop_cli() {
    if let Ok(g) = cli_token().lock() {
        if let Some(t) = g.as_ref() {
            t.cancel();
        }
    }
}
