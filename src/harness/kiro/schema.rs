//! The type of a Kiro v1 hook file: what the loader reads each entry through (parse.rs) and the
//! JSON Schema `hookrt schema` writes.

use crate::config::matcher::{compile_matcher, Matcher};
use crate::harness::schema::{checked_scalar, ok_if, NonBlank, NonEmpty, Positive};
use crate::vocab::MatcherStyle;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

/// Every v3 trigger (those hookrt has no moment for are read and reported, not refused).
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
pub(super) enum Trigger {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    Stop,
    PreTaskExec,
    PostTaskExec,
    PostFileCreate,
    PostFileSave,
    PostFileDelete,
    Manual,
}

impl Trigger {
    /// The trigger as files spell it (each variant is named as its word).
    pub(super) fn name(self) -> String {
        format!("{self:?}")
    }
}

/// A regular expression on a tool name or a file path, compiled (empty: every name).
pub(super) struct Pattern {
    pub text: Option<String>,
    pub matcher: Matcher,
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Some(String::deserialize(d)?).filter(|s| !s.is_empty());
        let matcher = compile_matcher(text.as_deref(), MatcherStyle::Regex).map_err(D::Error::custom)?;
        Ok(Pattern { text, matcher })
    }
}

impl JsonSchema for Pattern {
    fn schema_name() -> Cow<'static, str> {
        "Pattern".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "format": "regex"})
    }
}

/// `{"type": "command", "command"}` or `{"type": "agent", "prompt"}`.
pub(super) enum Action {
    Command(String),
    /// A prompt for Kiro's own agent, which hookrt does not run.
    Agent,
}

#[derive(Deserialize, JsonSchema)]
struct CommandAction {
    command: NonBlank,
}

#[derive(Deserialize, JsonSchema)]
struct AgentAction {
    #[allow(dead_code)]
    prompt: Option<Value>,
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let Some(o) = v.as_object() else { return Err(D::Error::custom("action must be an object")) };
        let r = match o.get("type").and_then(Value::as_str) {
            Some("command") => CommandAction::deserialize(&v).map(|a| Action::Command(a.command.0)),
            Some("agent") => AgentAction::deserialize(&v).map(|_| Action::Agent),
            _ => return Err(D::Error::custom("action.type must be \"command\" or \"agent\"")),
        };
        r.map_err(D::Error::custom)
    }
}

impl JsonSchema for Action {
    fn schema_name() -> Cow<'static, str> {
        "Action".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {"type": {"enum": ["command", "agent"]}},
            "required": ["type"],
            "allOf": [
                {"if": {"properties": {"type": {"const": "command"}}}, "then": g.subschema_for::<CommandAction>()},
                {"if": {"properties": {"type": {"const": "agent"}}}, "then": g.subschema_for::<AgentAction>()},
            ],
        })
    }
}

/// One hook of a v1 file.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct KiroEntry {
    pub name: NonEmpty,
    pub trigger: Trigger,
    /// A tool name (PreToolUse, PostToolUse) or file path pattern; missing or empty: everything.
    pub matcher: Option<Pattern>,
    pub action: Action,
    /// Seconds (default 60).
    pub timeout: Option<Positive>,
    pub enabled: Option<bool>,
}

/// A `.kiro/hooks/<name>.json` file.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Kiro hooks file")]
pub(crate) struct KiroFile {
    // Checked and described; the loader reads the version and each entry itself.
    #[allow(dead_code)]
    version: V1,
    #[allow(dead_code)]
    hooks: Vec<KiroEntry>,
}

/// A file without `"version": "v1"` (the IDE's older when/then hooks share the folder): Kiro
/// CLI does not read it, and hookrt skips it with a warning, so nothing in it is checked.
pub(crate) struct NotV1;

impl crate::harness::schema::When for NotV1 {
    fn holds(root: &Value) -> bool {
        root.get("version").and_then(Value::as_str) != Some("v1")
    }
    fn schema() -> Value {
        serde_json::json!({"not": {"properties": {"version": {"const": "v1"}}, "required": ["version"]}})
    }
}

pub(crate) static SCHEMA: crate::harness::schema::FileSchema =
    crate::harness::schema::FileSchema::either::<NotV1, Value, KiroFile>();

checked_scalar! {
    /// The literal `"v1"`.
    struct V1: String as "Version",
    |s| ok_if(s == "v1", "version must be \"v1\""),
    {"const": "v1"}
}
