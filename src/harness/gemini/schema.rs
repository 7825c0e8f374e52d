//! Gemini CLI's file type: `settings.json` (and an extension's `hooks/hooks.json`) with
//! `{"hooksConfig": {"enabled", "disabled"}, "hooks": {"BeforeTool": [{"matcher", "sequential",
//! "hooks": [{"type": "command", "command", "name", "env", "timeout" (ms)}]}]}}`. With
//! `enabled: false` nothing runs and nothing else is checked.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{dialect_marker, CommandOnly, EventMap, FileSchema, NonBlank, Positive, StringMap, When};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

dialect_marker!(GeminiDialect, Dialect::Gemini);

/// One hook of a group: a command (the only type Gemini CLI has).
#[derive(Deserialize, JsonSchema)]
struct GeminiHook {
    #[serde(rename = "type", default)]
    ty: CommandOnly,
    command: NonBlank,
    /// The name `hooksConfig.disabled` lists to turn the hook off.
    name: Option<String>,
    env: Option<StringMap>,
    /// Milliseconds.
    timeout: Option<Positive>,
}

/// A matcher group. Gemini never refuses a matcher: one that is not a regular expression
/// matches tool names exactly.
#[derive(Deserialize, JsonSchema)]
struct GeminiGroup {
    matcher: Option<String>,
    /// Run the event's hooks one after the other, each seeing the last one's changes.
    sequential: Option<bool>,
    hooks: Vec<GeminiHook>,
}

/// Gemini CLI settings whose hooks run.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Gemini CLI settings (hooks)")]
pub(crate) struct GeminiSettings {
    hooks: Option<EventMap<GeminiDialect, GeminiGroup>>,
}

/// Settings that turn hooks off: only `hooks` being an object (or absent) is checked.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct HooksOff {
    hooks: Option<Map<String, Value>>,
}

/// `hooksConfig.enabled: false` (or, in older files without `hooksConfig`, `hooks.enabled`).
pub(crate) struct Off;

impl When for Off {
    fn holds(root: &Value) -> bool {
        let switches = match root.get("hooksConfig") {
            Some(c @ Value::Object(_)) => c,
            _ => match root.get("hooks") {
                Some(h @ Value::Object(_)) => h,
                _ => return false,
            },
        };
        switches.get("enabled") == Some(&Value::Bool(false))
    }
    fn schema() -> Value {
        let off = json!({"type": "object", "properties": {"enabled": {"const": false}}, "required": ["enabled"]});
        json!({"anyOf": [
            {"properties": {"hooksConfig": off}, "required": ["hooksConfig"]},
            {"properties": {"hooksConfig": {"not": {"type": "object"}}, "hooks": off}, "required": ["hooks"]},
        ]})
    }
}

pub(crate) static SCHEMA: FileSchema = FileSchema::either::<Off, HooksOff, GeminiSettings>();
