//! Windsurf's file type: `{"hooks": {"pre_run_command": [{"command", "working_directory"}]}}`.
//! The loader reads each entry through [`WindsurfHook`]; the JSON Schema is generated from it.

use crate::harness::schema::{dialect_marker, EventMap, Lenient, NonBlank};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;

dialect_marker!(WindsurfDialect, Dialect::Windsurf);

/// One hook of an event's list (Windsurf hooks have no matcher and no timeout).
#[derive(Deserialize, JsonSchema)]
pub(super) struct WindsurfHook {
    pub command: NonBlank,
    /// Relative to the project directory.
    pub working_directory: Option<Lenient<String>>,
}

/// A Windsurf `hooks.json`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Windsurf hooks.json")]
pub(crate) struct WindsurfFile {
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
    hooks: EventMap<WindsurfDialect, WindsurfHook>,
}
