//! Windsurf Cascade (`.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`): snake_case
//! events, each for one kind of action, stdin `{agent_action_name, trajectory_id, execution_id,
//! timestamp, tool_info}`, and exit code 2 to block a pre-hook.

use super::{class, ev, tools::ToolClass, EventSpec};
use crate::event::CanonicalEvent as E;
use serde_json::{json, Map, Value};

pub const EVENTS: &[EventSpec] = &[
    class("pre_read_code", E::ToolBefore, ToolClass::Read),
    class("post_read_code", E::ToolAfter, ToolClass::Read),
    class("pre_write_code", E::ToolBefore, ToolClass::Write),
    class("post_write_code", E::ToolAfter, ToolClass::Write),
    class("pre_run_command", E::ToolBefore, ToolClass::Shell),
    class("post_run_command", E::ToolAfter, ToolClass::Shell),
    class("pre_mcp_tool_use", E::ToolBefore, ToolClass::Mcp),
    class("post_mcp_tool_use", E::ToolAfter, ToolClass::Mcp),
    ev("pre_user_prompt", E::PromptSubmit),
    ev("post_cascade_response", E::AgentResponse),
];

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Windsurf's stdin; `tool_info` from the host's own `tool_info`, else built from
/// `tool_input` for the event's kind of action.
pub fn input(host: &Map<String, Value>, spelling: &str, cwd: &str, turn: Option<&str>, ts: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("agent_action_name".into(), s(spelling));
    m.insert("trajectory_id".into(), host.get("session_id").cloned().unwrap_or_else(|| s("")));
    m.insert("execution_id".into(), turn.map(s).or_else(|| host.get("execution_id").cloned()).unwrap_or_else(|| s("")));
    m.insert("timestamp".into(), s(ts));
    let tool_info = match host.get("tool_info") {
        Some(t) => t.clone(),
        None => tool_info(host, spelling, cwd),
    };
    m.insert("tool_info".into(), tool_info);
    m
}

fn tool_info(host: &Map<String, Value>, spelling: &str, cwd: &str) -> Value {
    let input = host.get("tool_input").and_then(Value::as_object);
    let field = |k: &str| input.and_then(|i| i.get(k)).cloned().unwrap_or_else(|| s(""));
    match super::resolve_event(spelling).and_then(|e| e.class) {
        Some(ToolClass::Shell) => json!({"command_line": field("command"), "cwd": cwd}),
        Some(ToolClass::Read) => json!({"file_path": field("file_path")}),
        Some(ToolClass::Write) => {
            let edits = match (input.and_then(|i| i.get("old_string")), input.and_then(|i| i.get("new_string"))) {
                (Some(o), Some(n)) => json!([{"old_string": o, "new_string": n}]),
                _ => json!([{"old_string": "", "new_string": field("content")}]),
            };
            json!({"file_path": field("file_path"), "edits": edits})
        }
        Some(ToolClass::Mcp) => {
            let name = host.get("tool_name").and_then(Value::as_str).unwrap_or("");
            let mut parts = name.trim_start_matches("mcp__").splitn(2, "__");
            let server = parts.next().unwrap_or("");
            let tool = parts.next().unwrap_or("");
            json!({"mcp_server_name": server, "mcp_tool_name": tool, "mcp_tool_arguments": host.get("tool_input").cloned().unwrap_or(Value::Null)})
        }
        None if spelling == "pre_user_prompt" => {
            json!({"user_prompt": host.get("prompt").cloned().unwrap_or_else(|| s(""))})
        }
        None => {
            json!({"response": host.get("response").or_else(|| host.get("last_assistant_message")).cloned().unwrap_or_else(|| s(""))})
        }
    }
}
