//! opencode's file type: `opencode.json(c)` with a `hooks` object of opencode's dotted event
//! names, Claude's group shape, `command`, `http` and `subagent` handlers, regex matchers.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::family::schema::{Family, Group};
use crate::harness::schema::{dialect_marker, EventMap};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;

pub(crate) struct OpencodeFamily;

impl Family for OpencodeFamily {
    const NAME: &'static str = "Opencode";
    const KINDS: &'static [&'static str] = &["command", "http", "subagent"];
    const FULL_HANDLERS: bool = false;
    type Of = OpencodeDialect;
}

dialect_marker!(OpencodeDialect, Dialect::Opencode);

/// An opencode config: `hooks` beside the rest of opencode's settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "opencode config (hooks)")]
pub(crate) struct OpencodeConfig {
    hooks: Option<EventMap<OpencodeDialect, Group<OpencodeFamily>>>,
}
