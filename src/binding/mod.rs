//! The napi layer: conversions and cancellation only. Payloads and results cross the
//! boundary as JSON strings (cheaper than property-by-property conversion); the JS wrapper
//! (`wrapper.js`) turns them into objects and maps AbortSignals onto [`CancelToken`]s.

mod host;
mod js_loop;
mod rounds;
mod text;

use crate::contract::Outcome;
use crate::runtime::host_round::Started;
use crate::runtime::options::{OptionsError, RuntimeOptions};
use crate::runtime::{DispatchError, DispatchRequest, Runtime};
use host::{CallArgs, JsonCall, JsonCallback, QueuedCall};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use text::Text;
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

/// The addon's Rust allocations (the host's own `malloc` is untouched): a dispatch allocates
/// some forty small blocks and frees them together, past what glibc's per-thread cache keeps of
/// a size, so every dispatch went through glibc's slower paths; jemalloc's cache holds them.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

static TOKIO: std::sync::OnceLock<tokio::runtime::Handle> = std::sync::OnceLock::new();

/// The addon's tokio runtime, which dispatches polled on the JS thread enter.
fn tokio_handle() -> Option<tokio::runtime::Handle> {
    TOKIO.get().cloned()
}

/// Enters the addon's tokio runtime for the rest of a synchronous call on the JS thread that
/// runs part of a dispatch (which may start background tasks: outbound webhooks, history).
fn in_tokio() -> Option<tokio::runtime::EnterGuard<'static>> {
    TOKIO.get().map(tokio::runtime::Handle::enter)
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
    /// The host's callback hooks' caller, which their answers come back to.
    callbacks: Option<Arc<host::JsCallbacks>>,
    /// Dispatches whose callbacks the wrapper is running.
    rounds: Arc<rounds::Rounds>,
}

fn to_napi(e: DispatchError) -> Error {
    match e {
        DispatchError::Aborted => Error::new(Status::Cancelled, e.to_string()),
        DispatchError::UnknownEvent(_) => Error::new(Status::InvalidArg, e.to_string()),
        DispatchError::Closed => Error::new(Status::GenericFailure, e.to_string()),
    }
}

/// What a dispatch's promise rejects with (as `js_loop` settles it).
fn rejection(e: DispatchError) -> (Status, String) {
    let e = to_napi(e);
    (e.status, e.reason.clone())
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

/// `Outcome::empty()` and its JSON, written once: most dispatches' outcome (serde writes an
/// outcome through a flattened map, which costs more than the rest of a callback's result).
static EMPTY_OUTCOME: LazyLock<(Outcome, String)> = LazyLock::new(|| {
    let empty = Outcome::empty();
    let text = json(&empty);
    (empty, text)
});

/// A dispatch result as the wrapper reads it: three lines, the canonical event's name, the
/// outcome's JSON and the runs' JSON (compact JSON holds no newline). Parsing is most of what
/// a callback hook's dispatch costs in JS: the wrapper takes the name as it is and builds the
/// empty outcome (most dispatches') instead of parsing it.
fn result_text(r: crate::runtime::DispatchResult) -> String {
    // One buffer for the three lines, under glibc's 1 KiB line: a larger block makes it
    // consolidate its free lists, on every dispatch.
    let mut buf = Vec::with_capacity(960);
    buf.extend_from_slice(r.canonical.as_str().as_bytes());
    buf.push(b'\n');
    if r.outcome == EMPTY_OUTCOME.0 {
        buf.extend_from_slice(EMPTY_OUTCOME.1.as_bytes());
    } else {
        write_json(&mut buf, &r.outcome);
    }
    buf.push(b'\n');
    write_json(&mut buf, &r.runs);
    // serde_json writes UTF-8 only.
    String::from_utf8(buf).unwrap_or_default()
}

/// The token of a dispatch's synchronous first part, which nothing cancels.
static NOT_CANCELLED: LazyLock<CancellationToken> = LazyLock::new(CancellationToken::new);

/// Starts a dispatch on the calling (JS) thread's loop (`js_loop`): `dispatchStart` of
/// [`NativeRuntime::hot_calls`]. Returns the result's three lines (`result_text`) when no hook
/// runs; a host round's text (`rounds.rs`: `#<round>`, then each call's function, timeout,
/// input and start report) when only the host's callbacks run (`host_round.rs`; answered with
/// `finishRound`); else a promise of the result — with `cancellable`, as `{promise, token}`
/// and the token that cancels it (made only then: most dispatches with a signal need none).
/// It rejects, or this throws, with code `Cancelled` on the token, `InvalidArg` for an unknown
/// event or a bad payload. `progress` hears each hook start and end, then `{"phase":"flush"}`
/// before it settles.
fn dispatch_start<'env>(
    (rt, rounds): (&Arc<Runtime>, &rounds::Rounds),
    env: &'env Env,
    (Text(event), Text(payload_json), subject, cwd): (Text, Text, Option<Text>, Option<Text>),
    (cancellable, progress): (Option<bool>, Option<Function<'env, String, ()>>),
) -> Result<Either3<String, PromiseRaw<'env, String>, Object<'env>>> {
    let payload = payload_of(&payload_json).map_err(|(status, reason)| Error::new(status, reason))?;
    let (subject, cwd) = (subject.map(|t| t.0), cwd.map(|t| t.0));
    // The host's progress function is made callable from the runtime's side only when the
    // runtime runs the hooks: a host round's calls carry their reports to the host.
    let reporter: Option<Arc<OnceLock<Arc<JsonCallback>>>> = progress.as_ref().map(|_| Arc::default());
    let sink = reporter.clone().map(|reporter| {
        crate::runtime::execute::ProgressSink(Arc::new(move |p| {
            if let Some(cb) = reporter.get() {
                cb.call(json(&p), ThreadsafeFunctionCallMode::NonBlocking);
            }
        }))
    });
    let req = DispatchRequest { event, payload, subject, cwd, progress: sink, env: None };
    let entered = in_tokio();
    // Nothing can cancel the synchronous first part: the token only matters from here.
    let started = rt.start(req, &NOT_CANCELLED).map_err(to_napi)?;
    drop(entered);
    match started {
        Started::Done(result) => Ok(Either3::A(result_text(result))),
        Started::Round(round) => Ok(Either3::A(rounds.put(round))),
        Started::Planned(planned) => {
            let progress = match progress {
                Some(f) => {
                    let cb: JsonCallback =
                        f.build_threadsafe_function::<String>().callee_handled::<false>().weak::<true>().build()?;
                    let cb = Arc::new(cb);
                    if let Some(r) = &reporter {
                        let _ = r.set(cb.clone());
                    }
                    Some(cb)
                }
                None => None,
            };
            run_natively(rt.clone(), env, planned, progress, cancellable == Some(true))
        }
    }
}

/// A planned dispatch run by the runtime on the JS thread's loop: its promise, and with
/// `cancellable` the token that cancels it.
fn run_natively<'env>(
    rt: Arc<Runtime>,
    env: &'env Env,
    planned: crate::runtime::dispatch::Planned,
    progress: Option<Arc<JsonCallback>>,
    cancellable: bool,
) -> Result<Either3<String, PromiseRaw<'env, String>, Object<'env>>> {
    let cancel = CancellationToken::new();
    let token = cancel.clone();
    let work = async move {
        let result = rt.run_planned(planned, &token).await;
        // Every progress report reaches JS before the promise settles: the queue is in order,
        // and this last call returns only once JS has run it.
        if let Some(cb) = progress {
            let _ = cb.call_async("{\"phase\":\"flush\"}".to_owned()).await;
        }
        result.map(result_text).map_err(rejection)
    };
    let promise = PromiseRaw::new(env.raw(), js_loop::Loop::here(env.raw())?.start(work)?);
    if !cancellable {
        return Ok(Either3::B(promise));
    }
    let mut both = Object::new(env)?;
    both.set("promise", promise)?;
    both.set("token", CancelToken { inner: cancel })?;
    Ok(Either3::C(both))
}

/// A payload's JSON as the runtime takes it (`null` is an empty payload).
fn payload_of(json: &str) -> std::result::Result<serde_json::Map<String, serde_json::Value>, (Status, String)> {
    crate::contract::payload::read(serde_json::de::StrRead::new(json))
        .ok_or_else(|| (Status::InvalidArg, "payload must be a JSON object".to_owned()))
}

/// Appends `v`'s JSON to `buf`, or `null` when it cannot be written (as [`json`] does).
fn write_json<T: serde::Serialize>(buf: &mut Vec<u8>, v: &T) {
    let mark = buf.len();
    if serde_json::to_writer(&mut *buf, v).is_err() {
        buf.truncate(mark);
        buf.extend_from_slice(b"null");
    }
}

#[napi]
impl NativeRuntime {
    /// Creates a runtime from options JSON; bad config files only produce diagnostics.
    /// `mcp_call` / `mcp_abort`: the wrapper's adapters of the host's `mcpCall` option;
    /// `callback_call` / `callback_abort`: its caller of the host's callback hooks.
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "optionsJson: string, mcpCall?: ((requestJson: string) => Promise<string>) | null, mcpAbort?: ((id: string) => void) | null, callbackCall?: ((call: number, id: number, inputJson: string) => void) | null, callbackCallQueued?: ((call: number, id: number, inputJson: string) => void) | null, callbackAbort?: ((why: string) => void) | null"
    )]
    pub fn new(
        env: Env,
        options_json: String,
        mcp_call: Option<JsonCall>,
        mcp_abort: Option<JsonCallback>,
        callback_call: Option<FunctionRef<CallArgs, ()>>,
        callback_call_queued: Option<QueuedCall>,
        callback_abort: Option<JsonCallback>,
    ) -> Result<Self> {
        crate::runtime::logging::init();
        let opts: RuntimeOptions = serde_json::from_str(&options_json)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid runtime options: {e}")))?;
        let answers = js_loop::Loop::here(env.raw())?.answer_loop();
        let callbacks = host::callbacks(callback_call, callback_call_queued, callback_abort);
        let lent = crate::runtime::Host {
            mcp: host::mcp(mcp_call, mcp_abort),
            callbacks: callbacks.as_ref().map(host::callback_host),
            answer_loop: Some(crate::handler::worker::HostLoop(answers)),
        };
        let rt = Runtime::with_host(&opts, &|k| std::env::var(k).ok(), lent).map_err(|e| {
            let status = match e {
                OptionsError::Timeout | OptionsError::UnknownEvent(_) => Status::InvalidArg,
                OptionsError::NoCwd(_) => Status::GenericFailure,
            };
            Error::new(status, e.to_string())
        })?;
        Ok(NativeRuntime { inner: Arc::new(rt), callbacks, rounds: Arc::default() })
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

    /// Registers callback hooks (`{event: [{matcher?, hooks: [{id, name}], timeout?}]}`);
    /// returns the handle that removes them.
    #[napi(catch_unwind)]
    pub fn add_callback_hooks(&self, spec_json: String) -> Result<f64> {
        let spec = serde_json::from_str(&spec_json)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid hooks: {e}")))?;
        let handle = self.inner.add_callback_hooks(&spec).map_err(|e| Error::new(Status::InvalidArg, e.to_string()))?;
        Ok(handle as f64)
    }

    /// `anyMatch(event, subject)`, `dispatchStart(...)` ([`dispatch_start`]),
    /// `callbackAnswered(call, ok, text)`, and a host round's `finishRound(round, answers)` (its
    /// result's three lines) and `dropRound(round)` (the host aborted it) as plain functions
    /// bound to this runtime. Every dispatch calls the first two and every callback hook one of
    /// the others;
    /// as class methods each call paid napi-rs's bookkeeping for `this` (an unwrap and a borrow
    /// registered and released), about half of what a dispatch no hook matches costs.
    #[napi(
        catch_unwind,
        ts_return_type = "{ anyMatch(event: string, subject?: string | null): boolean; callbackAnswered(call: number, ok: boolean, text: string): void; finishRound(round: number, answers: string): string; dropRound(round: number): void; dispatchStart(event: string, payloadJson: string, subject: string | null | undefined, cwd: string | null | undefined, cancellable: boolean, progress: ((progressJson: string) => void) | null): string | Promise<string> | { promise: Promise<string>, token: CancelToken } }"
    )]
    pub fn hot_calls<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let mut calls = Object::new(env)?;
        let rt = self.inner.clone();
        let any_match = env.create_function_from_closure::<(), bool, _>("anyMatch", move |c| {
            let Text(event) = c.get(0)?;
            let subject: Option<Text> = if c.length() > 1 { c.get(1)? } else { None };
            Ok(!rt.is_closed() && rt.any_match(&event, subject.as_ref().map(|t| t.0.as_str())).unwrap_or(false))
        })?;
        calls.set_named_property("anyMatch", any_match)?;
        let callbacks = self.callbacks.clone();
        let answered = env.create_function_from_closure::<(), (), _>("callbackAnswered", move |c| {
            let (call, ok, text): (f64, bool, String) = (c.get(0)?, c.get(1)?, c.get(2)?);
            if let Some(cb) = &callbacks {
                cb.answered(c.env.raw(), call as u64, if ok { Ok(text) } else { Err(text) });
            }
            Ok(())
        })?;
        calls.set_named_property("callbackAnswered", answered)?;
        let (rt, rounds) = (self.inner.clone(), self.rounds.clone());
        let finish = env.create_function_from_closure::<(), sys::napi_value, _>("finishRound", move |c| {
            let (round, Text(answers)): (f64, Text) = (c.get(0)?, c.get(1)?);
            let round = rounds.take(round as u64).ok_or_else(|| to_napi(DispatchError::Closed))?;
            let entered = in_tokio();
            let result = rt.finish_round(round, rounds::answers(&answers)).map_err(to_napi)?;
            drop(entered);
            text::to_js(c.env.raw(), &result_text(result))
        })?;
        calls.set_named_property("finishRound", finish)?;
        let rounds = self.rounds.clone();
        let drop_round = env.create_function_from_closure::<(), (), _>("dropRound", move |c| {
            let round: f64 = c.get(0)?;
            let _rt = in_tokio();
            drop(rounds.take(round as u64));
            Ok(())
        })?;
        calls.set_named_property("dropRound", drop_round)?;
        let (rt, rounds) = (self.inner.clone(), self.rounds.clone());
        let start = env.create_function_from_closure::<(), sys::napi_value, _>("dispatchStart", move |c| {
            let text = (c.get(0)?, c.get(1)?, c.get(2)?, c.get(3)?);
            let rest = (c.get(4)?, c.get(5)?);
            match dispatch_start((&rt, &rounds), c.env, text, rest)? {
                Either3::A(text) => text::to_js(c.env.raw(), &text),
                // SAFETY: the value is made in this call's scope, on its thread, and returned
                // to it at once: what napi-rs does with a method's return value.
                started => unsafe { ToNapiValue::to_napi_value(c.env.raw(), started) },
            }
        })?;
        calls.set_named_property("dispatchStart", start)?;
        Ok(calls)
    }

    /// Removes callback hooks by the handle [`NativeRuntime::add_callback_hooks`] gave.
    #[napi(catch_unwind)]
    pub fn remove_callback_hooks(&self, handle: f64) -> bool {
        self.inner.remove_callback_hooks(handle as u64)
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

    /// Whether a hook runs for this event whatever the subject, until the next `reload()`:
    /// the wrapper then skips `anyMatch` for it (one napi call less per dispatch).
    #[napi(catch_unwind)]
    pub fn always_matches(&self, event: String) -> bool {
        !self.inner.is_closed() && self.inner.always_matches(&event)
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
        let _rt = in_tokio();
        self.rounds.clear();
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
