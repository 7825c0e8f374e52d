//! Callback hooks: functions the embedding program registered beside the hook files
//! (`createRuntime({hooks})`, in the Claude Agent SDK's shape). hookrt has no way to call them
//! itself; the host lends a [`CallbackCaller`]. A callback's answer is the JSON a Claude Code
//! command hook would print, read like that hook's stdout after exit 0; a throw is a failure of
//! the run (`onError`, `failClosed`), as a command that cannot start is.

use crate::handler::{bounded, Failure, RunCtx};
use crate::vocab::Raw;
use futures::future::BoxFuture;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// One call of a registered function.
#[derive(Debug, Clone)]
pub struct CallbackCall {
    /// Names this call in [`CallbackCaller::abort`].
    pub call: u64,
    /// The function, as the host registered it.
    pub id: u64,
    /// The Claude-shaped stdin a command hook of the same event would read (its `tool_use_id`
    /// is the SDK callback's second argument).
    pub input_json: String,
}

/// Why a call is given up before it answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUp {
    /// The hook's timeout passed.
    Timeout,
    /// The host aborted the dispatch, or the runtime closed.
    Abort,
}

/// The host side of callback hooks.
pub trait CallbackCaller: Send + Sync {
    /// Calls the function; resolves to its answer as JSON text, or the message it threw.
    fn call(&self, call: CallbackCall) -> BoxFuture<'static, Result<String, String>>;
    /// Tells the function to stop (its `signal` aborts); its answer, if one still comes, is
    /// dropped.
    fn abort(&self, call: u64, why: GiveUp);
}

/// A shared handle on the host's caller.
#[derive(Clone)]
pub struct CallbackHost(pub Arc<dyn CallbackCaller>);

impl std::fmt::Debug for CallbackHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CallbackHost")
    }
}

static NEXT_CALL: AtomicU64 = AtomicU64::new(1);

/// Aborts the call when the run ends without its answer (timeout, abort, or the dispatch
/// itself dropped).
struct Pending<'a> {
    host: &'a dyn CallbackCaller,
    call: u64,
    why: Option<GiveUp>,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Some(why) = self.why {
            self.host.abort(self.call, why);
        }
    }
}

pub(crate) async fn run(id: u64, name: &str, ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    let Some(CallbackHost(host)) = ctx.shared.callbacks.clone() else {
        return Err(Failure::Callback { name: name.to_owned(), cause: "the runtime has no callback host".into() });
    };
    let call = NEXT_CALL.fetch_add(1, Ordering::Relaxed);
    let mut pending = Pending { host: host.as_ref(), call, why: Some(GiveUp::Abort) };
    let fut = host.call(CallbackCall { call, id, input_json: ctx.input_json.clone() });
    let answer = bounded(fut, ctx, || Failure::CallbackTimeout { name: name.to_owned(), label: ctx.timeout_label() });
    let answer = match answer.await {
        Ok(a) => {
            pending.why = None;
            a
        }
        Err(e) => {
            if e.is_timeout() {
                pending.why = Some(GiveUp::Timeout);
            }
            return Err(e);
        }
    };
    read(name, answer.map_or_else(Answer::Threw, Answer::Json), &|| ctx.timeout_label())
}

/// How a call of a host function ended, as the host saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Its answer, as JSON text (`{}` when it returned nothing).
    Json(String),
    /// It threw or rejected, with this message.
    Threw(String),
    /// Its timeout passed first (the host aborted its signal).
    TimedOut,
}

/// A call's end as a run's result: an answer is read like a command hook's stdout after exit
/// 0; a throw or a timeout is the run's failure. `label` writes the timeout as messages do.
pub(crate) fn read(name: &str, answer: Answer, label: &dyn Fn() -> String) -> Result<Raw, Failure> {
    match answer {
        Answer::Json(stdout) => Ok(Raw { exit_code: Some(0), stdout, stderr: String::new(), truncated: false }),
        Answer::Threw(cause) => Err(Failure::Callback { name: name.to_owned(), cause }),
        Answer::TimedOut => Err(Failure::CallbackTimeout { name: name.to_owned(), label: label() }),
    }
}
