//! opencode's file type: `opencode.json(c)` with a `hooks` object of opencode's dotted event
//! names, Claude's group shape, `command`, `http` and `subagent` handlers, regex matchers.

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
    // Checked and described; the loader walks the events itself (unknown ones are warned about)
    // and reads each group through `Group`.
    #[allow(dead_code)]
    hooks: Option<EventMap<OpencodeDialect, Group<OpencodeFamily>>>,
}
