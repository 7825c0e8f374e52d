//! How Auggie 0.36.0 reads a finished hook (`wao`, `OIt`, `zIt`, `_7n`): exit 0 or 2 with a JSON
//! object Auggie's schema accepts answers through `continue`, `systemMessage`,
//! `additionalContext` and `hookSpecificOutput` (never a top-level `decision`); exit 2 blocks
//! only a PreToolUse; every other exit, and a timeout, lets the moment go on.

use crate::vocab::{CanonicalEvent as E, Decision, RunOutcome, BLOCKED_BY_HOOK};
use serde_json::{Map, Value};

/// Auggie's message for an exit-2 block with an empty stderr.
const NO_MESSAGE: &str = "Hook blocked execution (no error message provided)";

pub(crate) fn read(code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) {
    if !matches!(code, Some(0 | 2)) {
        return;
    }
    let json = answer(stdout);
    // Exit 2 stops a PreToolUse unless the answer says `continue: true`.
    let mut blocked = code == Some(2) && event == E::ToolBefore;
    let mut reason = None;
    match &json {
        Some(o) => {
            out.answered = true;
            apply(o, event, out, &mut blocked, &mut reason);
        }
        None if code == Some(0) && !stdout.trim().is_empty() => {
            // Plain stdout reaches the agent on SessionStart, the user elsewhere.
            if event == E::SessionStart {
                out.contexts.push(stdout.trim().to_owned());
            } else {
                out.messages.push(stdout.trim().to_owned());
            }
        }
        None => {}
    }
    let stderr = stderr.trim();
    if code == Some(2) {
        let text = if stderr.is_empty() { NO_MESSAGE } else { stderr };
        match event {
            E::ToolBefore => reason = reason.or_else(|| Some(text.to_owned())),
            // The tool already ran: stderr goes to the agent.
            E::ToolAfter => {
                out.decision = Some(Decision::Deny);
                out.reason = Some(text.to_owned());
            }
            _ => out.messages.push(text.to_owned()),
        }
    }
    if blocked && matches!(event, E::ToolBefore | E::TurnStop) {
        out.decision = Some(Decision::Deny);
        out.reason = Some(reason.unwrap_or_else(|| BLOCKED_BY_HOOK.to_owned()));
    }
}

/// The fields of an accepted answer.
fn apply(o: &Map<String, Value>, event: E, out: &mut RunOutcome, blocked: &mut bool, reason: &mut Option<String>) {
    let s = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_owned);
    if let Some(c) = o.get("continue").and_then(Value::as_bool) {
        *blocked = !c;
        if !c {
            *reason = s(o, "stopReason");
        }
    }
    if let Some(m) = s(o, "systemMessage") {
        out.messages.push(m);
    }
    if let Some(c) = s(o, "additionalContext").filter(|c| !c.is_empty()) {
        out.contexts.push(c);
    }
    let Some(h) = o.get("hookSpecificOutput").and_then(Value::as_object) else { return };
    if h.get("hookEventName").and_then(Value::as_str) != Some(crate::harness::family::events::name_of(event)) {
        return;
    }
    match event {
        E::ToolBefore => {
            if s(h, "permissionDecision").as_deref() == Some("deny") {
                *blocked = true;
            }
            if let Some(r) = s(h, "permissionDecisionReason") {
                if *blocked {
                    *reason = Some(r);
                } else {
                    out.messages.push(r);
                }
            }
            if let Some(u) = h.get("updatedInput").filter(|u| u.is_object()) {
                out.update_input = Some(u.clone());
            }
        }
        E::ToolAfter => {
            if s(h, "decision").as_deref() == Some("block") {
                out.decision = Some(Decision::Deny);
                out.reason = s(h, "reason").or_else(|| Some(BLOCKED_BY_HOOK.to_owned()));
            }
            if let Some(c) = s(h, "additionalContext").filter(|c| !c.is_empty()) {
                out.contexts.push(c);
            }
        }
        E::TurnStop if s(h, "decision").as_deref() == Some("block") => {
            *blocked = true;
            *reason = s(h, "reason");
        }
        E::SessionStart => {
            if let Some(c) = s(h, "additionalContext").filter(|c| !c.is_empty()) {
                out.contexts.push(c);
            }
        }
        _ => {}
    }
}

/// A stdout that is one JSON object of the shape Auggie's schema (`bao`) accepts; anything
/// else is plain output.
fn answer(stdout: &str) -> Option<Map<String, Value>> {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(stdout.trim()) else { return None };
    let typed = |k: &str, ok: fn(&Value) -> bool| o.get(k).is_none_or(ok);
    let fields_ok = typed("continue", Value::is_boolean)
        && typed("suppressOutput", Value::is_boolean)
        && ["stopReason", "systemMessage", "additionalContext"].iter().all(|k| typed(k, Value::is_string));
    let specific_ok = match o.get("hookSpecificOutput") {
        None => true,
        Some(Value::Object(h)) => specific(h),
        Some(_) => false,
    };
    (fields_ok && specific_ok).then_some(o)
}

/// `hookSpecificOutput` must name one of six events and type its fields as that event's.
fn specific(h: &Map<String, Value>) -> bool {
    let str_or_absent = |k: &str| h.get(k).is_none_or(Value::is_string);
    let block_or_absent = |k: &str| h.get(k).is_none_or(|v| v == "block");
    match h.get("hookEventName").and_then(Value::as_str) {
        Some("PreToolUse") => {
            h.get("permissionDecision").is_none_or(|d| matches!(d.as_str(), Some("allow" | "deny" | "ask")))
                && str_or_absent("permissionDecisionReason")
                && h.get("updatedInput").is_none_or(Value::is_object)
        }
        Some("PostToolUse") => {
            block_or_absent("decision") && str_or_absent("reason") && str_or_absent("additionalContext")
        }
        Some("Stop") => block_or_absent("decision") && str_or_absent("reason"),
        Some("SessionStart") => str_or_absent("additionalContext"),
        Some("SessionEnd" | "Notification") => true,
        _ => false,
    }
}
