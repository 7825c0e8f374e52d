//! `hookrt hook <harness>`: one event from a harness, every hook hookrt reads for the project
//! run and folded, and the answer said the way that harness reads its own hooks (stdout JSON,
//! exit code). It never leaves the harness waiting past its budget, and when it cannot answer
//! it fails the way the user chose: a deny on the `failClosed` events, nothing (the harness
//! goes on) elsewhere.

use crate::harness::reply::{Reply, Said};
use crate::runtime::{BaseEnv, DispatchRequest, DispatchResult, Runtime};
use crate::vocab::{CanonicalEvent, Decision, Dialect};
use serde_json::{Map, Value};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long an aborted dispatch may take to kill its hooks before hookrt answers anyway.
const UNWIND: Duration = Duration::from_secs(5);

/// Why a harness's call could not be answered from the hooks.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HookError {
    #[error("the harness's hook input is not a JSON object")]
    NotJson,
    #[error("the hook input names no event (pass --event)")]
    NoEvent,
    #[error("{0}")]
    Dispatch(#[from] crate::runtime::DispatchError),
    #[error("the hooks did not finish within {0:?}, the budget before the harness's own timeout")]
    Budget(Duration),
}

/// The harness's stdin as a payload: a JSON object (an empty input, or `null`, is an empty
/// object).
pub(crate) fn payload_of(stdin: &[u8]) -> Result<Map<String, Value>, HookError> {
    if stdin.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    crate::contract::payload::read(serde_json::de::SliceRead::new(stdin)).ok_or(HookError::NotJson)
}

/// The event: `--event`, else the name the stdin carries (`hook_event_name`, Copilot's
/// PascalCase form's `hookEventName`).
pub(crate) fn event_of(flag: Option<&str>, payload: &Map<String, Value>) -> Result<String, HookError> {
    flag.map(str::to_owned)
        .or_else(|| {
            ["hook_event_name", "hookEventName"].iter().find_map(|k| payload.get(*k)?.as_str().map(str::to_owned))
        })
        .filter(|e| !e.is_empty())
        .ok_or(HookError::NoEvent)
}

/// Dispatches the harness's event and says the outcome its way; past `budget` the hooks are
/// aborted (their process groups killed) and the failure rule answers.
pub(crate) async fn answer(
    rt: &Runtime,
    harness: Dialect,
    (event, payload, env): (String, Map<String, Value>, Option<BaseEnv>),
    budget: Duration,
    shutdown: &CancellationToken,
) -> Reply {
    let canonical = Runtime::resolve_event(&event).map(|e| e.canonical).ok();
    let token = shutdown.child_token();
    let req = DispatchRequest { event: event.clone(), payload, subject: None, cwd: None, progress: None, env };
    let dispatch = rt.dispatch(req, &token);
    tokio::pin!(dispatch);
    let result = tokio::select! {
        r = &mut dispatch => r.map_err(HookError::from),
        _ = tokio::time::sleep(budget) => {
            token.cancel();
            // The hooks' process groups are killed as the dispatch unwinds: let it finish
            // (bounded), so none outlives this process.
            let _ = tokio::time::timeout(UNWIND, &mut dispatch).await;
            Err(HookError::Budget(budget))
        }
    };
    let mut out = match (result, canonical) {
        (Ok(r), Some(c)) => reply(harness, &event, c, &r, skipped_message(rt, c)),
        (Ok(_), None) => Reply::default(),
        (Err(e), c) => failure(rt, harness, (&event, c), &e.to_string()),
    };
    if let Some(c) = canonical {
        for s in rt.loaded().skipped_for(c) {
            out.stderr.push_str(&format!(
                "hookrt: skipped {:?} ({}, {}): {}; to run it: {}\n",
                s.command, s.file, s.event, s.why, s.approve
            ));
        }
    }
    out
}

/// What the user is told once per session (on its start, where the harness shows a
/// `systemMessage`) about the project's hooks hookrt left out for trust.
fn skipped_message(rt: &Runtime, event: CanonicalEvent) -> Option<String> {
    let skipped = &rt.loaded().skipped;
    if event != CanonicalEvent::SessionStart || skipped.is_empty() {
        return None;
    }
    let project = &rt.options().load.cwd;
    let mut files: Vec<String> = Vec::new();
    for s in skipped {
        let f = std::path::Path::new(&s.file);
        let shown = f.strip_prefix(project).unwrap_or(f).display().to_string();
        if !files.contains(&shown) {
            files.push(shown);
        }
    }
    let dir = project.display().to_string();
    let q = shlex::try_quote(&dir).map(|q| q.into_owned()).unwrap_or(dir);
    Some(format!(
        "hookrt skipped {} hook(s) of this project that nothing trusts yet, in {} ({}). Review them with `hookrt trust list --cwd {q}`; run them with `hookrt trust approve --all --scope project --cwd {q}`.",
        skipped.len(),
        files.join(", "),
        skipped[0].why
    ))
}

/// The outcome said in the harness's own answer format, with hookrt's own note to the user.
pub(crate) fn reply(
    harness: Dialect,
    spelling: &str,
    event: CanonicalEvent,
    r: &DispatchResult,
    note: Option<String>,
) -> Reply {
    let o = &r.outcome;
    let messages: Vec<String> = o.messages.iter().cloned().chain(note).collect();
    let said = Said {
        event,
        spelling,
        decision: o.decision,
        reason: o.reason.as_deref(),
        contexts: &o.contexts,
        messages: &messages,
        update_input: o.update_inputs.last(),
        stop: o.stop,
        stop_reason: o.stop_reason.as_deref(),
        permission: o.fields.permission.as_ref(),
        after_block: o.raw_reason.as_deref().filter(|_| o.downgraded && event == CanonicalEvent::ToolAfter),
    };
    crate::harness::of(harness).reply(&said)
}

/// What the harness gets when hookrt could not answer: a deny (with the error as the reason)
/// on a `failClosed` event, otherwise nothing but a line on stderr, so the harness goes on.
pub(crate) fn failure(
    rt: &Runtime,
    harness: Dialect,
    (spelling, event): (&str, Option<CanonicalEvent>),
    why: &str,
) -> Reply {
    tracing::warn!(harness = crate::inside::host_name(harness), event = spelling, "hookrt could not answer: {why}");
    match event.filter(|e| rt.options().policy.fail_closed.contains(e)) {
        Some(event) => {
            let reason = format!("hookrt failed closed: {why}");
            let said = Said {
                event,
                spelling,
                decision: Decision::Deny,
                reason: Some(&reason),
                contexts: &[],
                messages: &[],
                update_input: None,
                stop: false,
                stop_reason: None,
                permission: None,
                after_block: None,
            };
            crate::harness::of(harness).reply(&said)
        }
        None => Reply { stdout: String::new(), stderr: format!("hookrt: {why}\n"), code: 0 },
    }
}
