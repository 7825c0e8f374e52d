//! The type of Kimi Code's `config.toml` hooks (each `[[hooks]]` table exactly `event`, `matcher`,
//! `command`, `timeout`): the JSON Schema `hookrt schema` writes (of the TOML read as JSON), held
//! to the loader (parse.rs) by a property test.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::NonEmpty;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;

/// Kimi's 13 events.
#[derive(Deserialize, JsonSchema)]
enum Event {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    UserPromptSubmit,
    Stop,
    StopFailure,
    SessionStart,
    SessionEnd,
    SubagentStart,
    SubagentStop,
    PreCompact,
    PostCompact,
    Notification,
}

/// Whole seconds from 1 to 600.
struct Seconds;

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match v.as_i64().filter(|n| (1..=600).contains(n)) {
            Some(_) => Ok(Seconds),
            None => Err(D::Error::custom("timeout must be a whole number of seconds from 1 to 600")),
        }
    }
}

impl JsonSchema for Seconds {
    fn schema_name() -> Cow<'static, str> {
        "Seconds".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": 1, "maximum": 600})
    }
}

/// One `[[hooks]]` table: any other field makes Kimi refuse the whole file.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct KimiHook {
    event: Event,
    /// A regular expression, unanchored; missing or empty matches everything.
    matcher: Option<String>,
    command: NonEmpty,
    /// Seconds (default 30).
    timeout: Option<Seconds>,
}

/// `~/.kimi-code/config.toml`: `[[hooks]]` beside Kimi's other settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Kimi Code config.toml (hooks)")]
pub(crate) struct KimiConfig {
    hooks: Option<Vec<KimiHook>>,
}
