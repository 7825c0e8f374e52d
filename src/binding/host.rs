//! What the JS side lends a runtime: the host's `mcpCall` for `mcp_tool` hooks and its
//! functions for callback hooks, both reached through the wrapper's adapters.

use crate::handler::callback::{CallbackCall, CallbackCaller, CallbackHost, GiveUp};
use futures::future::BoxFuture;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// A JS callback taking one JSON string, not keeping the event loop alive.
pub(super) type JsonCallback = ThreadsafeFunction<String, (), String, Status, false, true>;
/// A callback hook's call as JS receives it: the call's number, the function's id, and the
/// input JSON (parsed once, by the wrapper, into the function's first argument).
pub(super) type CallArgs = FnArgs<(f64, f64, String)>;
/// The wrapper's caller of callback hooks, reached from a thread other than the JS thread.
pub(super) type QueuedCall = ThreadsafeFunction<CallArgs, (), CallArgs, Status, false, true>;
/// A JS callback taking one JSON string and returning a promise of a JSON string.
pub(super) type JsonCall = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

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

/// The host's `mcpCall`, when the wrapper passed both of its adapters.
pub(super) fn mcp(call: Option<JsonCall>, abort: Option<JsonCallback>) -> Option<crate::handler::mcp::McpHost> {
    let (call, abort) = (call?, abort?);
    Some(crate::handler::mcp::McpHost(Arc::new(JsMcp {
        call: Arc::new(call),
        abort: Arc::new(abort),
        next: Default::default(),
    })))
}

/// The wrapper's caller of the host's callback hooks. `call` gets `(call, id, inputJson)` (the
/// input as the JSON object a command hook reads) and answers later through
/// [`JsCallbacks::answered`]; `abort` gets `"<call> timeout"` or `"<call> abort"`.
///
/// A dispatch polled on the JS thread calls `call` directly (the wrapper starts the function
/// in a microtask, never inside this call), and the answer polls the dispatch on at once: a
/// callback hook costs no thread hop and no turn of the event loop. Elsewhere `call` goes
/// through its threadsafe twin.
pub(super) struct JsCallbacks {
    direct: FunctionRef<CallArgs, ()>,
    queued: QueuedCall,
    abort: JsonCallback,
    thread: std::thread::ThreadId,
    waiting: Mutex<FxHashMap<u64, oneshot::Sender<std::result::Result<String, String>>>>,
}

impl JsCallbacks {
    /// The function's answer (its JSON, or the message it threw) reached JS's `answer`.
    pub(super) fn answered(&self, env: sys::napi_env, call: u64, answer: std::result::Result<String, String>) {
        let Some(tx) = lock(&self.waiting).remove(&call) else { return };
        match super::js_loop::Loop::here(env) {
            Ok(lp) => lp.wake_here(|| {
                let _ = tx.send(answer);
            }),
            Err(_) => {
                let _ = tx.send(answer);
            }
        }
    }

    /// Calls JS's `call` in this very poll when that is allowed.
    /// `Err` gives the arguments back for the queued path.
    fn call_directly(&self, args: CallArgs) -> std::result::Result<(), CallArgs> {
        if std::thread::current().id() != self.thread {
            return Err(args);
        }
        let Some(env) = super::js_loop::draining_env() else { return Err(args) };
        let env = Env::from_raw(env);
        match self.direct.borrow_back(&env) {
            Ok(f) => {
                let _ = f.call(args);
                Ok(())
            }
            Err(_) => Err(args),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl CallbackCaller for JsCallbacks {
    fn call(&self, c: CallbackCall) -> BoxFuture<'static, std::result::Result<String, String>> {
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(c.call, tx);
        // Call numbers and ids count up from 1: far below 2^53, exact as JS numbers.
        if let Err(args) = self.call_directly((c.call as f64, c.id as f64, c.input_json).into()) {
            self.queued.call(args, ThreadsafeFunctionCallMode::NonBlocking);
        }
        Box::pin(
            async move { rx.await.unwrap_or_else(|_| Err("the runtime closed before the callback answered".into())) },
        )
    }

    fn abort(&self, call: u64, why: GiveUp) {
        lock(&self.waiting).remove(&call);
        let why = match why {
            GiveUp::Timeout => "timeout",
            GiveUp::Abort => "abort",
        };
        self.abort.call(format!("{call} {why}"), ThreadsafeFunctionCallMode::NonBlocking);
    }
}

/// The caller of the host's callback hooks, when the wrapper passed its adapters.
pub(super) fn callbacks(
    direct: Option<FunctionRef<CallArgs, ()>>,
    queued: Option<QueuedCall>,
    abort: Option<JsonCallback>,
) -> Option<Arc<JsCallbacks>> {
    Some(Arc::new(JsCallbacks {
        direct: direct?,
        queued: queued?,
        abort: abort?,
        thread: std::thread::current().id(),
        waiting: Mutex::default(),
    }))
}

/// The runtime's handle on the same caller.
pub(super) fn callback_host(c: &Arc<JsCallbacks>) -> CallbackHost {
    CallbackHost(c.clone())
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}
