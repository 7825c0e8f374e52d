//! Cursor's file type: `{"version": 1, "hooks": {"beforeShellExecution": [{"command", "matcher",
//! "timeout", "failClosed", "loop_limit"}]}}`, command hooks only.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{dialect_marker, CommandOnly, DialectMatcher, EventMap, NonBlank, Positive};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;

dialect_marker!(CursorDialect, Dialect::Cursor);

/// One hook of an event's list.
#[derive(Deserialize, JsonSchema)]
struct CursorHook {
    #[serde(rename = "type", default)]
    ty: CommandOnly,
    command: NonBlank,
    matcher: Option<DialectMatcher<CursorDialect>>,
    /// Seconds.
    timeout: Option<Positive>,
    /// Block when the hook fails (crashes, times out, answers nonsense).
    #[serde(rename = "failClosed")]
    fail_closed: Option<bool>,
    /// How many follow-ups a stop hook may ask for (`null`: no limit; 5 when left out).
    loop_limit: Option<u64>,
}

/// A Cursor `hooks.json`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Cursor hooks.json")]
pub(crate) struct CursorFile {
    hooks: EventMap<CursorDialect, CursorHook>,
}
