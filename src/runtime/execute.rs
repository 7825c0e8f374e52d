//! Running one hook and reading its answer: the handler, the decoder, and the policies that
//! apply to every run (`onError`, `denyOnFailure`, `failClosed`, the context cap), with a
//! progress report at the start and end for hosts that show it.

use crate::config::Hook;
use crate::contract::decode;
use crate::handler::{self, Failure, RunCtx};
use crate::runtime::options::RunPolicy;
use crate::vocab::text::first_chars;
use crate::vocab::{CanonicalEvent, Decision, Dialect, OnError, RunOutcome};
use serde::{Serialize, Serializer};
use std::sync::Arc;
use std::time::Instant;

/// One hook's run, as reported in `runs`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    #[serde(serialize_with = "ser_hook")]
    #[schemars(with = "crate::config::hook::HookRef<'static>")]
    pub hook: Arc<Hook>,
    /// Absent while an async hook is still running (it is reported again, with its outcome,
    /// on the next dispatch of the session).
    #[serde(skip_serializing_if = "RunOutcome::is_pending")]
    pub outcome: RunOutcome,
    pub duration_ms: u64,
    /// Why the run gave no answer (its text on the wire).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_error")]
    #[schemars(with = "Option<String>")]
    pub error: Option<Failure>,
    /// The run was killed at its timeout (its harness would have killed it too).
    #[serde(rename = "timedOut", skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// An `async` hook: started in the background, or (with an outcome) finished since.
    #[serde(rename = "async", skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    /// When the run started (history draws each run from its start to its end).
    #[serde(skip)]
    pub started: Option<Instant>,
    /// When its answer came (a harness that hears answers as they arrive merges them in this
    /// order: `Aggregator::answer_order`).
    #[serde(skip)]
    pub ended: Option<Instant>,
}

fn ser_hook<S: Serializer>(h: &Arc<Hook>, s: S) -> Result<S::Ok, S::Error> {
    match h.wire_json() {
        Some(json) => json.serialize(s),
        None => h.wire().serialize(s),
    }
}

fn ser_error<S: Serializer>(e: &Option<Failure>, s: S) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => s.serialize_str(&e.to_string()),
        None => s.serialize_none(),
    }
}

/// A hook starting or ending, for `onProgress`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// `start` or `end`.
    pub phase: &'static str,
    pub hook_id: String,
    pub dialect: Dialect,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// Milliseconds since the hook started (0 at the start).
    pub elapsed_ms: u64,
}

/// Where progress reports go (the JS API's `onProgress`).
#[derive(Clone)]
pub struct ProgressSink(pub Arc<dyn Fn(Progress) + Send + Sync>);

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl Progress {
    /// `hook` starting (`elapsed_ms` 0) or ending.
    pub(crate) fn of(phase: &'static str, hook: &Hook, elapsed_ms: u64) -> Self {
        Progress {
            phase,
            hook_id: hook.id.clone(),
            dialect: hook.dialect,
            matcher: hook.matcher_text.clone(),
            status_message: hook.family.status_message.clone(),
            elapsed_ms,
        }
    }
}

impl ProgressSink {
    fn report(&self, phase: &'static str, hook: &Hook, elapsed_ms: u64) {
        (self.0)(Progress::of(phase, hook, elapsed_ms));
    }
}

/// Runs and decodes one hook; `None` when the dispatch was aborted.
pub(crate) async fn execute(
    policy: &RunPolicy,
    hook: Arc<Hook>,
    ctx: RunCtx<'_>,
    event: CanonicalEvent,
    progress: Option<&ProgressSink>,
) -> Option<Run> {
    let started = Instant::now();
    tracing::debug!(target: "hookrt::run", hook = %hook.id, event = event.as_str(), kind = hook.handler.kind().as_str(), "hook started");
    if let Some(p) = progress {
        p.report("start", &hook, 0);
    }
    let result = handler::run(&hook, &ctx).await;
    let duration_ms = started.elapsed().as_millis() as u64;
    if let Some(p) = progress {
        p.report("end", &hook, duration_ms);
    }
    conclude(policy, hook, result, event, started)
}

/// A run from its handler's result: decoded, or its failure under `onError` and
/// `denyOnFailure`, then `failClosed` and the context cap; `None` when the dispatch was
/// aborted. (The host's callbacks of a host round reach here with the answers the host
/// collected itself.)
pub(crate) fn conclude(
    policy: &RunPolicy,
    hook: Arc<Hook>,
    result: Result<crate::vocab::Raw, Failure>,
    event: CanonicalEvent,
    started: Instant,
) -> Option<Run> {
    let duration_ms = started.elapsed().as_millis() as u64;
    let (mut outcome, error) = match result {
        Ok(raw) => (answered(policy, &hook, raw, event), None),
        Err(Failure::Aborted) => return None,
        Err(e) => {
            let on_error = if hook.deny_on_failure { OnError::Block } else { hook.on_error.unwrap_or(policy.on_error) };
            if on_error != OnError::Ignore {
                tracing::warn!(hook = %hook.id, "hook failed: {e}");
            }
            (decode::infra_failure(&e.to_string(), on_error), Some(e))
        }
    };
    let h = crate::harness::of(hook.dialect);
    if hook.fail_closed || policy.fail_closed.contains(&event) {
        if let Some(why) = h.failed_closed(&hook, &outcome, error.as_ref().map(|e| e.to_string()).as_deref()) {
            outcome.decision = Some(Decision::Deny);
            outcome.reason = Some(why);
        }
    }
    outcome.cap_texts(policy.context_cap);
    tracing::debug!(
        target: "hookrt::run",
        hook = %hook.id,
        event = event.as_str(),
        duration_ms,
        decision = ?outcome.decision,
        exit_code = ?outcome.exit_code.flatten(),
        error = error.as_ref().map(|e| e.to_string()).unwrap_or_default(),
        "hook finished"
    );
    let timed_out = error.as_ref().is_some_and(Failure::is_timeout);
    let ended = Some(Instant::now());
    Some(Run { hook, outcome, duration_ms, error, timed_out, is_async: false, started: Some(started), ended })
}

/// Decodes a run that gave an answer, with `denyOnFailure` and a log line for failed exits.
fn answered(policy: &RunPolicy, hook: &Hook, raw: crate::vocab::Raw, event: CanonicalEvent) -> RunOutcome {
    let mut o = decode::decode_as(raw, event, hook.dialect, policy.fidelity);
    crate::harness::of(hook.dialect).read_for_hook(hook, &mut o);
    if hook.deny_on_failure {
        decode::deny_on_failure(&mut o);
    }
    if let Some(Some(code)) = o.exit_code.filter(|c| *c != Some(0) && *c != Some(2)) {
        tracing::warn!(hook = %hook.id, "hook exited with code {code}: {}", first_chars(&o.stderr, policy.stderr_cap));
    } else if o.exit_code == Some(None) {
        tracing::warn!(hook = %hook.id, "hook was killed by a signal");
    }
    o
}
