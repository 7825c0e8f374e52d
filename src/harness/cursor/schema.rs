//! Cursor's file type: `{"version": 1, "hooks": {"beforeShellExecution": [{"command", "matcher",
//! "timeout", "failClosed", "loop_limit"}]}}`, command hooks only. The loader reads each entry
//! through [`CursorHook`]; the JSON Schema is generated from it.

use crate::harness::schema::{dialect_marker, refused, CommandOnly, DialectMatcher, EventMap, Lenient, NonBlank, Positive};
use crate::vocab::Dialect;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;

dialect_marker!(CursorDialect, Dialect::Cursor);

/// One hook of an event's list.
#[derive(Deserialize, JsonSchema)]
pub(super) struct CursorHook {
    // Checked, never read: only `command` hooks are run.
    #[serde(rename = "type", default)]
    #[allow(dead_code)]
    ty: CommandOnly,
    pub command: NonBlank,
    pub matcher: Option<DialectMatcher<CursorDialect>>,
    /// Seconds.
    pub timeout: Option<Lenient<Positive>>,
    /// Block when the hook fails (crashes, times out, answers nonsense).
    #[serde(rename = "failClosed")]
    pub fail_closed: Option<Lenient<bool>>,
    /// How many follow-ups a stop hook may ask for (`null`: no limit; 5 when left out).
    #[serde(default)]
    pub loop_limit: LoopLimit,
}

/// A hook's `loop_limit`, where left out (5) and `null` (no limit) differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum LoopLimit {
    /// Left out, or refused by the loader: Cursor's default.
    #[default]
    Default,
    /// `null`.
    Unlimited,
    Limit(u64),
}

impl<'de> Deserialize<'de> for LoopLimit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match Option::<u64>::deserialize(&v) {
            Ok(None) => Ok(LoopLimit::Unlimited),
            Ok(Some(n)) => Ok(LoopLimit::Limit(n)),
            Err(e) => {
                let strict = serde::de::Error::custom(e);
                Ok(refused("loop_limit must be a whole number or null", strict)?.unwrap_or_default())
            }
        }
    }
}

impl JsonSchema for LoopLimit {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        <Option<u64>>::schema_name()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        <Option<u64>>::json_schema(g)
    }
}

/// A Cursor `hooks.json`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Cursor hooks.json")]
pub(crate) struct CursorFile {
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
    hooks: EventMap<CursorDialect, CursorHook>,
}
