//! The type of Auggie's `hooks` (its zod schema in `@augmentcode/auggie` 0.36.0, `Cgi`): what
//! the loader reads event by event (read.rs), and the JSON Schema `hookrt schema` writes.
//! zod's `.optional()` takes a missing field, never `null`.

#![allow(non_snake_case)]

use crate::harness::schema::{checked_scalar, NonBlank, Positive};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;

/// An optional field that, when present, must be a `T` (not `null`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// The literal `"command"`.
struct CommandWord;

impl<'de> Deserialize<'de> for CommandWord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match String::deserialize(d)?.as_str() {
            "command" => Ok(CommandWord),
            other => Err(D::Error::custom(format!("type must be \"command\", not {other:?}"))),
        }
    }
}

impl JsonSchema for CommandWord {
    fn schema_name() -> Cow<'static, str> {
        "CommandType".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"const": "command"})
    }
}

checked_scalar! {
    /// A matcher: a JavaScript regular expression that compiles.
    pub(super) struct Pattern: String as "Pattern",
    |s| regex::Regex::new(&s).map(|_| ()).map_err(|_| format!("invalid regex pattern {s:?}")),
    {"type": "string", "format": "regex"}
}

/// `{type: "command", command, args?, timeout?}` (timeout in milliseconds).
#[derive(Deserialize, JsonSchema)]
pub(crate) struct AuggieHook {
    #[serde(rename = "type")]
    #[allow(dead_code)]
    ty: CommandWord,
    /// Auggie takes any non-empty string; hookrt also refuses one of only blanks, which could
    /// never start.
    pub command: NonBlank,
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Vec<String>")]
    pub args: Option<Vec<String>>,
    /// Milliseconds.
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Positive")]
    pub timeout: Option<Positive>,
}

/// What Auggie adds to a hook's stdin.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Metadata {
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "bool")]
    includeConversationData: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "bool")]
    includeMCPMetadata: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "bool")]
    includeUserContext: Option<bool>,
}

/// A PreToolUse / PostToolUse group.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct ToolGroup {
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Pattern")]
    pub matcher: Option<Pattern>,
    pub hooks: Vec<AuggieHook>,
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Metadata")]
    #[allow(dead_code)]
    metadata: Option<Metadata>,
}

/// A group of the other events (a `matcher` there is dropped).
#[derive(Deserialize, JsonSchema)]
pub(crate) struct EventGroup {
    pub hooks: Vec<AuggieHook>,
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Metadata")]
    #[allow(dead_code)]
    metadata: Option<Metadata>,
}

/// Auggie's `hooks` object: each event on its own (one that breaks is ignored, the others
/// load); other keys are warned about.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
pub(crate) struct AuggieEvents {
    #[serde(default)]
    PreToolUse: Vec<ToolGroup>,
    #[serde(default)]
    PostToolUse: Vec<ToolGroup>,
    #[serde(default)]
    Stop: Vec<EventGroup>,
    #[serde(default)]
    SessionStart: Vec<EventGroup>,
    #[serde(default)]
    SessionEnd: Vec<EventGroup>,
    #[serde(default)]
    Notification: Vec<EventGroup>,
    #[serde(default)]
    PromptSubmit: Vec<EventGroup>,
    #[serde(flatten)]
    other: serde_json::Map<String, serde_json::Value>,
}

/// An Auggie `settings.json`: `hooks` beside its other settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Auggie settings (hooks)")]
pub(crate) struct AuggieSettings {
    #[allow(dead_code)]
    hooks: Option<AuggieEvents>,
}
