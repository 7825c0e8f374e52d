//! Where Codex 0.171.0 reads an answer differently from Claude Code (docs/harnesses/codex.md
//! "Answers", recorded; codex-rs/hooks/src/engine/output_parser.rs and events/*.rs): a
//! `hookSpecificOutput` counts whatever event its `hookEventName` names; a PreToolUse answer
//! Codex calls unsupported changes nothing at all; exit 2 acts only with text on stderr; a
//! PostToolUse block or exit 2 puts the reason where the tool's output was; `continue: false`
//! on PreToolUse and exit 2 on PreModelRequest change nothing; a PermissionRequest answer
//! with `updatedInput`, `updatedPermissions` or `interrupt: true` is refused whole.

use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, Decision, RunOutcome};
use serde_json::{Map, Value};

/// A run read Codex's own way; `false` leaves it to the common rules and [`exit_rule`].
pub(crate) fn read_run(code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) -> bool {
    match code {
        Some(0) => {
            let Ok(Value::Object(top)) = serde_json::from_str::<Value>(stdout) else {
                return false;
            };
            out.answered = true;
            // Codex parses `hookEventName` as any of its events and never compares it with the
            // one that fired (recorded: a deny naming PostToolUse still blocks the tool)
            let a = Answer { top: &top, hso: top.get("hookSpecificOutput").and_then(Value::as_object) };
            if let Some(why) = unsupported(&a, event) {
                tracing::warn!("Codex ignores this answer: {why}");
                if let Some(m) = a.top.get("systemMessage").and_then(Value::as_str) {
                    out.messages.push(m.to_owned());
                }
                return true;
            }
            read(&a, event, out);
            true
        }
        // "… exited with code 2 but did not write a blocking reason to stderr": a failed run
        Some(2) if stderr.is_empty() => {
            tracing::warn!("hook exited with code 2 but wrote nothing on stderr; Codex acts on nothing");
            true
        }
        _ => false,
    }
}

pub(crate) fn read(a: &Answer, event: E, out: &mut RunOutcome) {
    crate::harness::family::answer::read(a, event, out);
    let blocks = matches!(event, E::ToolAfter | E::PromptSubmit | E::TurnStop | E::SubagentEnd);
    if blocks && out.decision == Some(Decision::Deny) && out.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        // `decision: "block"` without a non-empty reason is an invalid answer: it blocks
        // nothing and its context is not added (`claude_block_decision_requires_reason`)
        tracing::warn!("a block without a non-empty reason; Codex does not block");
        out.decision = None;
        out.reason = None;
        out.contexts.clear();
    }
    if matches!(event, E::PromptSubmit | E::TurnStop | E::SubagentEnd) && out.stop {
        // `continue: false` is read first: the turn stops, and a block beside it is not read
        // (`stop.rs` `continue_false_overrides_block_decision`)
        out.decision = None;
        out.reason = None;
    }
    if event == E::ToolAfter && out.stop {
        // `post_tool_use.rs` `continue_false_stops_with_reason`: the turn stops, and the model
        // still gets the reason (else the stop's) where the tool's output was
        let said = text(a.top, "reason").map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned);
        let stop = out.stop_reason.clone().unwrap_or_else(|| "PostToolUse hook stopped execution".into());
        out.decision = Some(Decision::Deny);
        out.reason = Some(said.unwrap_or(stop));
    }
    settle(event, out);
}

pub(crate) fn exit_rule(code: Option<i32>, event: E, out: &mut RunOutcome) {
    if code == Some(2) && event == E::ModelBefore {
        out.decision = None;
        out.reason = None;
    }
    settle(event, out);
}

fn text<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

fn present(o: &Map<String, Value>, k: &str) -> bool {
    o.get(k).is_some_and(|v| !v.is_null())
}

/// Why Codex's output parser refuses a whole answer to `event` (its own messages), if it does.
fn unsupported(a: &Answer, event: E) -> Option<&'static str> {
    let top = a.top;
    match event {
        E::ToolBefore => {
            if top.get("continue") == Some(&Value::Bool(false)) {
                return Some("PreToolUse hook returned unsupported continue:false");
            }
            if present(top, "stopReason") {
                return Some("PreToolUse hook returned unsupported stopReason");
            }
            if top.get("suppressOutput") == Some(&Value::Bool(true)) {
                return Some("PreToolUse hook returned unsupported suppressOutput");
            }
            match a.hso.filter(|h| {
                ["permissionDecision", "permissionDecisionReason", "updatedInput"].iter().any(|k| present(h, k))
            }) {
                Some(h) => pre_tool_use_specific(h),
                None => legacy_decision(top),
            }
        }
        E::PermissionRequest => permission_request(a),
        E::ToolAfter if top.get("suppressOutput") == Some(&Value::Bool(true)) => {
            Some("PostToolUse hook returned unsupported suppressOutput")
        }
        E::ToolAfter
            if text(top, "decision") != Some("block")
                && top.get("continue") != Some(&Value::Bool(false))
                && present(top, "reason") =>
        {
            Some("PostToolUse hook returned reason without decision")
        }
        _ => None,
    }
}

/// PermissionRequest: none of the universal stops, and a decision without `updatedInput`,
/// `updatedPermissions` or `interrupt: true`.
fn permission_request(a: &Answer) -> Option<&'static str> {
    let top = a.top;
    if top.get("continue") == Some(&Value::Bool(false)) {
        return Some("PermissionRequest hook returned unsupported continue:false");
    }
    if present(top, "stopReason") {
        return Some("PermissionRequest hook returned unsupported stopReason");
    }
    if top.get("suppressOutput") == Some(&Value::Bool(true)) {
        return Some("PermissionRequest hook returned unsupported suppressOutput");
    }
    let d = a.hso.and_then(|h| h.get("decision")).and_then(Value::as_object)?;
    if present(d, "updatedInput") {
        Some("PermissionRequest hook returned unsupported updatedInput")
    } else if present(d, "updatedPermissions") {
        Some("PermissionRequest hook returned unsupported updatedPermissions")
    } else if d.get("interrupt") == Some(&Value::Bool(true)) {
        Some("PermissionRequest hook returned unsupported interrupt:true")
    } else {
        None
    }
}

/// PreToolUse's `hookSpecificOutput` decision: `allow` only with `updatedInput` (and that only
/// with `allow`), no `ask`, a `deny` with a reason, no reason without a decision.
fn pre_tool_use_specific(h: &Map<String, Value>) -> Option<&'static str> {
    let decision = text(h, "permissionDecision");
    let reason = text(h, "permissionDecisionReason").map(str::trim).filter(|r| !r.is_empty());
    match decision {
        _ if present(h, "updatedInput") && decision != Some("allow") => {
            Some("PreToolUse hook returned updatedInput without permissionDecision:allow")
        }
        Some("allow") if !present(h, "updatedInput") => {
            Some("PreToolUse hook returned unsupported permissionDecision:allow")
        }
        Some("ask") => Some("PreToolUse hook returned unsupported permissionDecision:ask"),
        Some("deny") if reason.is_none() => {
            Some("PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason")
        }
        Some("allow" | "deny") => None,
        Some(_) => Some("hook returned invalid pre-tool-use JSON output"),
        None if present(h, "permissionDecisionReason") => {
            Some("PreToolUse hook returned permissionDecisionReason without permissionDecision")
        }
        None => None,
    }
}

/// PreToolUse's top-level `decision`: `block` with a reason; `approve` is unsupported.
fn legacy_decision(top: &Map<String, Value>) -> Option<&'static str> {
    let reason = text(top, "reason").map(str::trim).filter(|r| !r.is_empty());
    match text(top, "decision") {
        Some("approve") => Some("PreToolUse hook returned unsupported decision:approve"),
        Some("block") if reason.is_none() => Some("PreToolUse hook returned decision:block without a non-empty reason"),
        Some("block") => None,
        Some(_) => Some("hook returned invalid pre-tool-use JSON output"),
        None if present(top, "reason") => Some("PreToolUse hook returned reason without decision"),
        None => None,
    }
}

fn settle(event: E, out: &mut RunOutcome) {
    match event {
        E::ToolBefore => {
            out.stop = false;
            out.stop_reason = None;
        }
        E::ToolAfter if out.decision == Some(Decision::Deny) => {
            let reason = out.reason.clone().unwrap_or_default();
            out.fields.updated_tool_output = Some(Value::String(reason));
        }
        E::PermissionRequest => {
            out.update_input = None;
            if let Some(Value::Object(p)) = out.fields.permission.as_mut() {
                p.remove("updatedInput");
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(v: Value, event: E) -> RunOutcome {
        let mut out = RunOutcome::default();
        assert!(read_run(Some(0), event, &v.to_string(), "", &mut out));
        out
    }

    #[test]
    fn codex_reads_these_answers_its_own_way() {
        let o = answer(json!({"decision": "block", "reason": "lint failed"}), E::ToolAfter);
        assert_eq!(o.fields.updated_tool_output, Some(json!("lint failed")));
        let o =
            answer(json!({"continue": false, "stopReason": "s", "decision": "block", "reason": "r"}), E::ToolBefore);
        assert!(!o.stop);
        assert_eq!(o.decision, None, "an unsupported answer changes nothing");
        let allow =
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}});
        assert_eq!(answer(allow, E::PermissionRequest).fields.permission, Some(json!({"behavior": "allow"})));
        let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedInput": {"cmd": "x"}}}});
        let o = answer(rewrite, E::PermissionRequest);
        assert_eq!((o.fields.permission, o.update_input), (None, None), "unsupported updatedInput");
        let mut o = RunOutcome { decision: Some(Decision::Deny), reason: Some("r".into()), ..Default::default() };
        exit_rule(Some(2), E::ModelBefore, &mut o);
        assert_eq!(o.decision, None);
    }
}
