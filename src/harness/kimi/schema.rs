//! The type of Kimi Code's `config.toml` hooks (each `[[hooks]]` table exactly `event`, `matcher`,
//! `command`, `timeout`): the JSON Schema `hookrt schema` writes (of the TOML read as JSON), held
//! to the loader (parse.rs) by a property test.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{checked_scalar, ok_if, NonEmpty};
use schemars::JsonSchema;
use serde::Deserialize;

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

checked_scalar! {
    /// Whole seconds from 1 to 600.
    struct Seconds: serde_json::Value as "Seconds",
    |v| ok_if(
        v.as_i64().is_some_and(|n| (1..=600).contains(&n)),
        "timeout must be a whole number of seconds from 1 to 600",
    ),
    {"type": "integer", "minimum": 1, "maximum": 600}
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
