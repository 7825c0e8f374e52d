//! Gemini CLI (`.gemini/settings.json`): PascalCase events, tool names such as
//! `run_shell_command`, `decision` allow/deny/block answers, and `hookSpecificOutput.tool_input`
//! that merges into the tool's arguments.

use super::{ev, tool, EventSpec};
use crate::decode::{Decision, RunOutcome};
use crate::event::{CanonicalEvent as E, ToolResult};
use serde_json::{Map, Value};

pub const EVENTS: &[EventSpec] = &[
    tool("BeforeTool", E::ToolBefore, ToolResult::Either),
    tool("AfterTool", E::ToolAfter, ToolResult::Either),
    ev("BeforeAgent", E::PromptSubmit),
    ev("AfterAgent", E::TurnStop),
    ev("BeforeModel", E::ModelBefore),
    ev("AfterModel", E::ModelAfter),
    ev("BeforeToolSelection", E::ToolSelect),
    ev("SessionStart", E::SessionStart),
    ev("SessionEnd", E::SessionEnd),
    ev("Notification", E::Notice),
    ev("PreCompress", E::CompactBefore),
];

/// Default timeout of a Gemini hook, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: f64 = 60_000.0;

/// Gemini's stdin: Claude's base fields plus `timestamp`, the tool named as Gemini names it.
pub fn input(m: &mut Map<String, Value>, ts: &str) {
    m.insert("timestamp".into(), Value::String(ts.to_owned()));
    m.remove("permission_mode");
    rename_tool(m, crate::dialect::Dialect::Gemini, "tool_name");
}

/// Replaces a tool name with the harness's spelling of it, where it has one.
pub fn rename_tool(m: &mut Map<String, Value>, dialect: crate::dialect::Dialect, key: &str) {
    if let Some(n) = m.get(key).and_then(Value::as_str).and_then(|n| super::tools::spelling(dialect, n)) {
        m.insert(key.into(), Value::String(n.to_owned()));
    }
}

/// Gemini's answer fields beyond Claude's: `decision` allow/deny/ask and
/// `hookSpecificOutput.tool_input`.
pub fn apply_answer(obj: &Map<String, Value>, out: &mut RunOutcome) {
    match obj.get("decision").and_then(Value::as_str) {
        Some("allow") => out.decision = Some(Decision::Allow),
        Some("deny") => out.decision = Some(Decision::Deny),
        Some("ask") => out.decision = Some(Decision::Ask),
        _ => {}
    }
    if let Some(u) = obj.get("hookSpecificOutput").and_then(|h| h.get("tool_input")).filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
}

/// `tool_input` answers merge with and override the arguments they were given.
pub fn merge_input(original: Option<&Value>, update: &Value) -> Value {
    match (original, update) {
        (Some(Value::Object(o)), Value::Object(u)) => {
            let mut m = o.clone();
            m.extend(u.iter().map(|(k, v)| (k.clone(), v.clone())));
            Value::Object(m)
        }
        _ => update.clone(),
    }
}
