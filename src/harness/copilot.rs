//! GitHub Copilot CLI / coding agent (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`):
//! camelCase events with camelCase stdin (PascalCase event names get the VS Code snake_case
//! shape), anchored regex matchers, `permissionDecision`/`modifiedArgs` answers, and its own
//! exit-code rules.

use super::{ev, tool, EventSpec};
use crate::decode::{Decision, RunOutcome};
use crate::event::{CanonicalEvent as E, ToolResult};
use serde_json::{Map, Value};

pub const EVENTS: &[EventSpec] = &[
    ev("sessionStart", E::SessionStart),
    ev("sessionEnd", E::SessionEnd),
    ev("userPromptSubmitted", E::PromptSubmit),
    tool("preToolUse", E::ToolBefore, ToolResult::Either),
    tool("postToolUse", E::ToolAfter, ToolResult::Success),
    tool("postToolUseFailure", E::ToolAfter, ToolResult::Failure),
    tool("permissionRequest", E::PermissionRequest, ToolResult::Either),
    EventSpec { matcher: true, ..ev("notification", E::Notice) },
    EventSpec { matcher: true, ..ev("preCompact", E::CompactBefore) },
    EventSpec { matcher: true, ..ev("subagentStart", E::SubagentStart) },
    ev("subagentStop", E::SubagentEnd),
    ev("agentStop", E::TurnStop),
    ev("errorOccurred", E::TurnFail),
    // The VS Code compatible spellings.
    tool("PreToolUse", E::ToolBefore, ToolResult::Either),
    tool("PostToolUse", E::ToolAfter, ToolResult::Success),
    tool("PostToolUseFailure", E::ToolAfter, ToolResult::Failure),
    tool("PermissionRequest", E::PermissionRequest, ToolResult::Either),
    ev("SessionStart", E::SessionStart),
    ev("SessionEnd", E::SessionEnd),
    ev("UserPromptSubmit", E::PromptSubmit),
    ev("Stop", E::TurnStop),
    ev("SubagentStop", E::SubagentEnd),
    ev("PreCompact", E::CompactBefore),
    ev("ErrorOccurred", E::TurnFail),
];

/// Default timeout of a Copilot hook, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 30.0;

/// Whether the event name asks for the VS Code (snake_case) stdin shape.
pub fn vscode_shape(spelling: &str) -> bool {
    spelling.starts_with(|c: char| c.is_ascii_uppercase())
}

fn camel(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut up = false;
    for c in k.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Copilot's camelCase stdin, built from the Claude-shaped input: `sessionId`, `timestamp` in
/// epoch milliseconds, `toolName` (Copilot's spelling), `toolArgs`, `toolResult`.
pub fn input(claude_shaped: Map<String, Value>, spelling: &str, ts_ms: i64) -> Map<String, Value> {
    let mut m = Map::new();
    if vscode_shape(spelling) {
        m = claude_shaped;
        m.remove("permission_mode");
        m.insert("timestamp".into(), Value::String(crate::payload::iso_now()));
        return m;
    }
    for (k, v) in claude_shaped {
        let key = match k.as_str() {
            "tool_input" => "toolArgs".to_owned(),
            "tool_response" => "toolResult".to_owned(),
            "hook_event_name" | "permission_mode" => continue,
            "stop_hook_active" => k,
            _ => camel(&k),
        };
        m.insert(key, v);
    }
    m.insert("timestamp".into(), Value::from(ts_ms));
    super::tools::rename_in(&mut m, crate::dialect::Dialect::Copilot, "toolName");
    m
}

/// Copilot's answer fields beyond Claude's.
pub fn apply_answer(obj: &Map<String, Value>, out: &mut RunOutcome) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
    super::read_decision(obj, "permissionDecision", out);
    if let Some(r) = text("permissionDecisionReason") {
        out.reason = Some(r);
    }
    if obj.get("behavior").and_then(Value::as_str) == Some("allow") {
        out.decision = Some(Decision::Allow);
    }
    if obj.get("decision").and_then(Value::as_str) == Some("allow") {
        out.decision = Some(Decision::Allow);
    }
    if let Some(u) = obj.get("modifiedArgs").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
    if let Some(r) = obj.get("modifiedResult").filter(|r| r.is_object()) {
        out.fields.updated_tool_output = Some(r.clone());
    }
}

/// The default Copilot reason for a `preToolUse` hook that failed.
pub const HOOK_ERRORED: &str = "Denied by preToolUse hook (hook errored)";

/// Copilot's exit codes: 2 warns, except on `preToolUse` and `permissionRequest` (deny) and
/// `postToolUseFailure` (stdout becomes context); any other failure of a `preToolUse` hook
/// denies (fail-closed; timeouts are not exits and stay fail-open).
pub fn exit_rule(code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) {
    match (code, event) {
        (Some(0), _) => {}
        (Some(2), E::ToolBefore) => {
            out.decision = Some(Decision::Deny);
            if out.reason.is_none() {
                out.reason =
                    Some(if stderr.is_empty() { crate::decode::BLOCKED_BY_HOOK.to_owned() } else { stderr.to_owned() });
            }
        }
        (_, E::ToolBefore) => {
            out.decision = Some(Decision::Deny);
            out.reason = Some(HOOK_ERRORED.to_owned());
        }
        (Some(2), E::PermissionRequest) => {
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(stdout) {
                apply_answer(&o, out);
                if let Some(m) = o.get("message").and_then(Value::as_str) {
                    out.reason = Some(m.to_owned());
                }
            }
            out.decision = Some(Decision::Deny);
            // Copilot ignores stderr here; without a `message` the deny still says why.
            if out.reason.is_none() {
                out.reason = Some(crate::decode::BLOCKED_BY_HOOK.to_owned());
            }
        }
        (Some(2), E::ToolAfter) if !stdout.is_empty() => {
            out.decision = None;
            out.reason = None;
            out.contexts.push(stdout.to_owned());
        }
        (Some(2), _) => {
            out.decision = None;
            out.reason = None;
            tracing::warn!("copilot hook exited 2 on {}: a warning in Copilot: {stderr}", event.as_str());
        }
        _ => {}
    }
}
