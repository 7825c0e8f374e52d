//! Windsurf's file type: `{"hooks": {"pre_run_command": [{"command", "working_directory"}]}}`.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{dialect_marker, EventMap, NonBlank};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;

dialect_marker!(WindsurfDialect, Dialect::Windsurf);

/// One hook of an event's list (Windsurf hooks have no matcher and no timeout).
#[derive(Deserialize, JsonSchema)]
struct WindsurfHook {
    command: NonBlank,
    working_directory: Option<String>,
}

/// A Windsurf `hooks.json`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Windsurf hooks.json")]
pub(crate) struct WindsurfFile {
    hooks: EventMap<WindsurfDialect, WindsurfHook>,
}
