//! Reading a Claude-shaped answer: `decision`, `reason`, `continue`, `systemMessage`,
//! `additionalContext`, `hookSpecificOutput` (with the event-specific fields of Claude Code's
//! hook reference), the prompt hook's `{ok, reason, impossible}`, and the Hermes and `.agents`
//! shapes the JavaScript implementation understood from any hook.

use crate::harness::family::events::name_of;
use crate::vocab::{Answer, CanonicalEvent, Decision, EventFields, RunOutcome, DENIED_BY_EVALUATION};
use serde_json::{Map, Value};

fn str_field<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

/// A decision and its reason while an answer is read.
type Verdict = (Option<Decision>, Option<String>);

/// Reads the fields of a Claude-shaped JSON answer into `out` (the answer every family member
/// and most other harnesses write; docs/harnesses/claude.md "Answers"). `a.hso` is the
/// `hookSpecificOutput` already known to be for this event.
pub(crate) fn read(a: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
    let obj = a.top;
    let mut verdict = top_verdict(obj);
    if obj.get("continue") == Some(&Value::Bool(false)) {
        out.stop = true;
        out.stop_reason = str_field(obj, "stopReason").map(str::to_owned);
    }
    if let Some(m) = str_field(obj, "systemMessage") {
        out.messages.push(m.to_owned());
    }
    if let Some(c) = str_field(obj, "additionalContext").filter(|c| !c.is_empty()) {
        out.contexts.push(c.to_owned());
    }
    if let Some(hso) = a.hso {
        specific(hso, event, &mut verdict, out);
    }
    out.fields = event_fields(obj, a.hso, event);
    if let Some(c) = str_field(obj, "context").filter(|c| !c.is_empty()) {
        out.contexts.push(c.to_owned());
    }
    // Claude's prompt-hook answer `{ok, reason, impossible}`: `impossible` lets a Stop or
    // SubagentStop end instead of feeding the reason back.
    let impossible = obj.get("impossible") == Some(&Value::Bool(true))
        && matches!(event, CanonicalEvent::TurnStop | CanonicalEvent::SubagentEnd);
    if obj.get("ok") == Some(&Value::Bool(false)) && !impossible {
        verdict = (Some(Decision::Deny), Some(verdict.1.unwrap_or_else(|| DENIED_BY_EVALUATION.to_owned())));
    }
    (out.decision, out.reason) = verdict;
}

/// The top-level `decision` (`approve`/`block`) and `reason`, and the Hermes
/// (`{"action":"block","message"}`) and `.agents` (`{"behavior":"deny"}`) shapes.
fn top_verdict(obj: &Map<String, Value>) -> Verdict {
    let mut decision = match str_field(obj, "decision") {
        Some("approve") => Some(Decision::Allow),
        Some("block") => Some(Decision::Deny),
        _ => None,
    };
    let mut reason = str_field(obj, "reason").map(str::to_owned);
    if str_field(obj, "action") == Some("block") || str_field(obj, "behavior") == Some("deny") {
        decision = Some(Decision::Deny);
        if reason.is_none() {
            reason = str_field(obj, "message").map(str::to_owned);
        }
    }
    (decision, reason)
}

/// `hookSpecificOutput`: `permissionDecision` (which overrides `decision`), its reason, context,
/// `updatedInput`, and PermissionRequest's `decision` object.
fn specific(hso: &Map<String, Value>, event: CanonicalEvent, (decision, reason): &mut Verdict, out: &mut RunOutcome) {
    match str_field(hso, "permissionDecision") {
        Some("defer") => *decision = Some(Decision::Defer),
        Some(w) => *decision = Decision::from_word(w).or(*decision),
        None => {}
    }
    if let Some(r) = str_field(hso, "permissionDecisionReason") {
        *reason = Some(r.to_owned());
    }
    if let Some(c) = str_field(hso, "additionalContext").filter(|c| !c.is_empty()) {
        out.contexts.push(c.to_owned());
    }
    if let Some(u) = hso.get("updatedInput").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
    // PermissionRequest: {"decision": {"behavior": "allow"|"deny", "updatedInput", "message", ...}}.
    let Some(d) = hso.get("decision").and_then(Value::as_object).filter(|_| event == CanonicalEvent::PermissionRequest)
    else {
        return;
    };
    match str_field(d, "behavior") {
        Some("allow") => *decision = Some(Decision::Allow),
        Some("deny") => {
            *decision = Some(Decision::Deny);
            if let Some(m) = str_field(d, "message") {
                *reason = Some(m.to_owned());
            }
        }
        _ => tracing::warn!("PermissionRequest decision.behavior must be \"allow\" or \"deny\"; ignored"),
    }
    if let Some(u) = d.get("updatedInput").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
}

/// What Claude Code 2.1.332 tells the model for an exit 2 with nothing on stderr (recorded): the
/// reason of a JSON answer on stdout, else that there was no stderr output (Claude puts the
/// hook's command in front: `[<command>]: No stderr output`).
pub(crate) fn exit_two_reason(stdout: &str) -> String {
    let reason = match serde_json::from_str::<Value>(stdout) {
        Ok(Value::Object(obj)) => {
            let hso = obj.get("hookSpecificOutput").and_then(Value::as_object);
            hso.and_then(|h| str_field(h, "permissionDecisionReason"))
                .or_else(|| str_field(&obj, "reason"))
                .map(str::to_owned)
        }
        _ => None,
    };
    reason.filter(|r| !r.trim().is_empty()).unwrap_or_else(|| NO_STDERR.to_owned())
}

/// Claude Code's words for an exit 2 that wrote nothing on stderr.
pub(crate) const NO_STDERR: &str = "No stderr output";

/// A JSON answer on the stdout of a run that exited with neither 0 nor 2 is still read
/// (recorded: Claude Code 2.1.332 blocks on exit 1 with a deny on stdout, with its reason),
/// so a guard that prints its deny and exits 1 is not bypassed.
pub(crate) fn read_failed_run(code: Option<i32>, event: CanonicalEvent, stdout: &str, out: &mut RunOutcome) -> bool {
    let failed = matches!(code, Some(c) if c != 0 && c != 2);
    if !failed || event.output_rule() != crate::vocab::OutputRule::Standard || !stdout.starts_with('{') {
        return false;
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(stdout) else {
        return false;
    };
    out.answered = true;
    read(&crate::harness::answer_for(&obj, event), event, out);
    true
}

fn string(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> Option<String> {
    match o.get(k) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            tracing::warn!("{k} on {} must be a string; ignored", name_of(event));
            None
        }
    }
}

fn boolean(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> bool {
    match o.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            tracing::warn!("{k} on {} must be a boolean; ignored", name_of(event));
            false
        }
    }
}

fn strings(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> Option<Vec<String>> {
    match o.get(k) {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
            Some(a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        }
        Some(_) => {
            tracing::warn!("{k} on {} must be an array of strings; ignored", name_of(event));
            None
        }
    }
}

/// Reads the fields `event` understands from an answer's `hookSpecificOutput` (`hso`,
/// already checked to be for this event) and its top level.
pub(crate) fn event_fields(
    top: &Map<String, Value>,
    hso: Option<&Map<String, Value>>,
    event: CanonicalEvent,
) -> EventFields {
    use CanonicalEvent as E;
    let empty = Map::new();
    let h = hso.unwrap_or(&empty);
    let mut f = EventFields { terminal_sequence: string(top, "terminalSequence", event), ..Default::default() };
    match event {
        E::PermissionRequest => match h.get("decision") {
            Some(Value::Object(d)) => f.permission = Some(Value::Object(d.clone())),
            None | Some(Value::Null) => {}
            Some(_) => tracing::warn!("decision on PermissionRequest must be an object; ignored"),
        },
        E::ToolAfter => f.updated_tool_output = h.get("updatedToolOutput").filter(|v| !v.is_null()).cloned(),
        E::SessionStart => {
            f.session_title = string(h, "sessionTitle", event);
            f.initial_user_message = string(h, "initialUserMessage", event);
            f.watch_paths = strings(h, "watchPaths", event);
            f.reload_skills = boolean(h, "reloadSkills", event);
        }
        E::CwdChange | E::FileChange => {
            f.watch_paths = strings(h, "watchPaths", event).or_else(|| strings(top, "watchPaths", event));
        }
        E::PermissionDenied => f.retry = boolean(h, "retry", event),
        E::WorktreeCreate => f.worktree_path = string(h, "worktreePath", event),
        E::ElicitationRequest | E::ElicitationResult => {
            let action = string(h, "action", event);
            if let Some(action) = action {
                let mut e = Map::new();
                e.insert("action".into(), Value::String(action));
                if let Some(c) = h.get("content").filter(|c| !c.is_null()) {
                    e.insert("content".into(), c.clone());
                }
                f.elicitation = Some(Value::Object(e));
            }
        }
        E::MessageDisplay => f.display_content = string(h, "displayContent", event),
        _ => {}
    }
    f
}
