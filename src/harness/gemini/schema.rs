//! Gemini CLI's file type: `settings.json` (and an extension's `hooks/hooks.json`) with
//! `{"hooksConfig": {"enabled", "disabled"}, "hooks": {"BeforeTool": [{"matcher", "sequential",
//! "hooks": [{"type": "command", "command", "name", "env", "timeout" (ms)}]}]}}`. With
//! `enabled: false` nothing runs and nothing else is checked.

use crate::harness::schema::{
    called, dialect_marker, CommandOnly, Entries, EventMap, FileSchema, Lenient, Must, NonBlank,
    OrderedStrings, PositiveMs, When,
};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

dialect_marker!(GeminiDialect, Dialect::Gemini);

called! {
    /// `type`, which may only say `command` (a [`CommandOnly`] in Gemini's own words).
    #[derive(Default)]
    struct GeminiType(CommandOnly), says "only type \"command\" hooks exist in Gemini CLI"
}

/// One hook of a group: a command (the only type Gemini CLI has).
#[derive(Deserialize, JsonSchema)]
pub(super) struct GeminiHook {
    #[serde(rename = "type", default)]
    #[allow(dead_code)]
    ty: GeminiType,
    pub command: NonBlank,
    /// The name `hooksConfig.disabled` lists to turn the hook off.
    pub name: Option<Lenient<String>>,
    pub env: Option<Lenient<OrderedStrings>>,
    /// Milliseconds.
    pub timeout: Option<Lenient<PositiveMs>>,
}

/// A matcher group. Gemini never refuses a matcher: one that is not a regular expression
/// matches tool names exactly.
#[derive(Deserialize, JsonSchema)]
pub(super) struct GeminiGroup {
    pub matcher: Option<Must<String>>,
    /// Run the event's hooks one after the other, each seeing the last one's changes.
    pub sequential: Option<Lenient<bool>>,
    pub hooks: Must<Entries<GeminiHook>>,
}

/// Gemini CLI settings whose hooks run.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Gemini CLI settings (hooks)")]
pub(crate) struct GeminiSettings {
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
    hooks: Option<EventMap<GeminiDialect, GeminiGroup>>,
}

/// Settings that turn hooks off: only `hooks` being an object (or absent) is checked.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct HooksOff {
    #[allow(dead_code)]
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
