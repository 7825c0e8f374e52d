//! The type of Kimi Code's `config.toml` hooks (each `[[hooks]]` table exactly `event`, `matcher`,
//! `command`, `timeout`): the JSON Schema `hookrt schema` writes (of the TOML read as JSON), and
//! the type the loader (parse.rs) reads each table through.

use crate::harness::schema::{checked_scalar, is_lenient, loader_says, ok_if, schema_as, Must, NonEmpty};
use schemars::JsonSchema;
use serde::de::{Error as _, IntoDeserializer};
use serde::{Deserialize, Deserializer};

/// Kimi's 13 events.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
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

/// An event name, one of [`Event`].
pub(super) struct EventName(pub String);

impl<'de> Deserialize<'de> for EventName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d).map_err(|e| loader_says(e, Some(|key| format!("missing {key}"))))?;
        let known = Event::deserialize(name.as_str().into_deserializer());
        let known: Result<Event, serde::de::value::Error> = known;
        match known {
            Ok(_) => Ok(EventName(name)),
            Err(_) if is_lenient() => Err(D::Error::custom(format!("unknown event \"{name}\""))),
            Err(e) => Err(D::Error::custom(e)),
        }
    }
}

schema_as!(EventName, Event);

checked_scalar! {
    /// Whole seconds from 1 to 600.
    pub(super) struct Seconds: serde_json::Value as "Seconds",
    |v| ok_if(
        v.as_i64().is_some_and(|n| (1..=600).contains(&n)),
        "timeout must be a whole number of seconds from 1 to 600",
    ),
    {"type": "integer", "minimum": 1, "maximum": 600}
}

/// One `[[hooks]]` table: any other field makes Kimi refuse the whole file.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct KimiHook {
    pub event: EventName,
    /// A regular expression, unanchored; missing or empty matches everything.
    pub matcher: Option<Must<String>>,
    pub command: NonEmpty,
    /// Seconds (default 30).
    pub timeout: Option<Seconds>,
}

/// `~/.kimi-code/config.toml`: `[[hooks]]` beside Kimi's other settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Kimi Code config.toml (hooks)")]
pub(crate) struct KimiConfig {
    // Checked and described; the loader reads each table itself (one wrong table drops the file).
    #[allow(dead_code)]
    hooks: Option<Vec<KimiHook>>,
}
