//! Cursor (`.cursor/hooks.json`): camelCase events, several of them for one class of tool
//! (`beforeShellExecution`), stdin with `conversation_id`/`generation_id`/`workspace_roots`, and
//! answers with `permission`, `user_message`, `agent_message` and `followup_message`.

use super::{class, ev, tool, tools::ToolClass, EventSpec};
use crate::decode::{Decision, RunOutcome};
use crate::event::{CanonicalEvent as E, ToolResult};
use serde_json::{json, Map, Value};

pub const EVENTS: &[EventSpec] = &[
    class("beforeShellExecution", E::ToolBefore, ToolClass::Shell),
    class("afterShellExecution", E::ToolAfter, ToolClass::Shell),
    class("beforeMCPExecution", E::ToolBefore, ToolClass::Mcp),
    class("afterMCPExecution", E::ToolAfter, ToolClass::Mcp),
    class("beforeReadFile", E::ToolBefore, ToolClass::Read),
    class("afterFileEdit", E::ToolAfter, ToolClass::Write),
    ev("beforeSubmitPrompt", E::PromptSubmit),
    ev("stop", E::TurnStop),
    ev("sessionStart", E::SessionStart),
    ev("sessionEnd", E::SessionEnd),
    tool("preToolUse", E::ToolBefore, ToolResult::Either),
    tool("postToolUse", E::ToolAfter, ToolResult::Success),
    tool("postToolUseFailure", E::ToolAfter, ToolResult::Failure),
    ev("subagentStart", E::SubagentStart),
    ev("subagentStop", E::SubagentEnd),
    ev("preCompact", E::CompactBefore),
    ev("afterAgentResponse", E::AgentResponse),
    ev("afterAgentThought", E::AgentThought),
];

/// Default `loop_limit` of a stop hook's follow-ups.
pub const DEFAULT_LOOP_LIMIT: u32 = 5;

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Cursor's stdin: its own id fields, then the fields of the event's tool class taken from
/// `tool_input`, then whatever the host sent (a Cursor host's own fields win).
pub fn input(
    host: &Map<String, Value>,
    spelling: &str,
    cwd: &str,
    model: Option<&str>,
    turn: Option<&str>,
) -> Map<String, Value> {
    let mut m = Map::new();
    let get = |k: &str| host.get(k).cloned();
    m.insert("conversation_id".into(), get("session_id").unwrap_or_else(|| s("")));
    m.insert("generation_id".into(), turn.map(s).unwrap_or_else(|| s("")));
    m.insert("hook_event_name".into(), s(spelling));
    m.insert("workspace_roots".into(), json!([cwd]));
    m.insert("cwd".into(), s(cwd));
    if let Some(model) = model {
        m.insert("model".into(), s(model));
    }
    let input = host.get("tool_input").and_then(Value::as_object);
    let field = |k: &str| input.and_then(|i| i.get(k)).cloned();
    match super::resolve_event(spelling).and_then(|e| e.class) {
        Some(ToolClass::Shell) => {
            m.insert("command".into(), field("command").unwrap_or_else(|| s("")));
            if let Some(o) = host.get("tool_response") {
                m.insert("output".into(), o.clone());
            }
        }
        Some(ToolClass::Read) | Some(ToolClass::Write) => {
            m.insert("file_path".into(), field("file_path").unwrap_or_else(|| s("")));
            if let (Some(old), Some(new)) = (field("old_string"), field("new_string")) {
                m.insert("edits".into(), json!([{"old_string": old, "new_string": new}]));
            }
        }
        Some(ToolClass::Mcp) | None => {}
    }
    if spelling == "beforeSubmitPrompt" {
        m.insert("prompt".into(), get("prompt").unwrap_or_else(|| s("")));
    }
    m.extend(
        host.iter().filter(|(k, _)| *k != "session_id" && *k != "hook_event_name").map(|(k, v)| (k.clone(), v.clone())),
    );
    super::tools::rename_in(&mut m, crate::dialect::Dialect::Cursor, "tool_name");
    m
}

/// Cursor's answer fields.
pub fn apply_answer(obj: &Map<String, Value>, event: E, out: &mut RunOutcome) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_owned);
    super::read_decision(obj, "permission", out);
    if let Some(m) = text("user_message") {
        out.messages.push(m);
    }
    if let Some(a) = text("agent_message").or_else(|| text("user_message")) {
        if out.decision == Some(Decision::Deny) && out.reason.is_none() {
            out.reason = Some(a);
        }
    }
    if let Some(u) = obj.get("updated_input").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
    if let Some(c) = text("additional_context") {
        out.contexts.push(c);
    }
    // beforeSubmitPrompt: `continue: false` keeps the prompt from being sent.
    if event == E::PromptSubmit && obj.get("continue") == Some(&Value::Bool(false)) {
        out.stop = false;
        out.stop_reason = None;
        out.decision = Some(Decision::Deny);
        out.reason = text("user_message").or_else(|| Some(crate::decode::BLOCKED_BY_HOOK.to_owned()));
    }
    // stop / subagentStop: a follow-up message continues the agent, like a blocked Stop.
    if matches!(event, E::TurnStop | E::SubagentEnd) {
        if let Some(f) = text("followup_message") {
            out.decision = Some(Decision::Deny);
            out.reason = Some(f);
        }
    }
}
