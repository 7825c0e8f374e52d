//! Gemini CLI (`.gemini/settings.json`): PascalCase events, tool names such as
//! `run_shell_command`, `decision` allow/deny/block answers, and `hookSpecificOutput.tool_input`
//! that merges into the tool's arguments.

use super::{ev, tool, EventSpec};
use crate::decode::RunOutcome;
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
    super::tools::rename_in(m, crate::dialect::Dialect::Gemini, "tool_name");
}

/// Gemini's answer fields beyond Claude's: `decision` allow/deny/ask and
/// `hookSpecificOutput.tool_input`.
pub fn apply_answer(obj: &Map<String, Value>, out: &mut RunOutcome) {
    super::read_decision(obj, "decision", out);
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
