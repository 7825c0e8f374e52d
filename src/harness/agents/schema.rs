//! The `.agents` file type: `{PreToolUse: [{matcher, command, timeoutMs, denyOnFailure}],
//! PostToolUse, Stop}`, at the root or wrapped in `{"hooks": …}`.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{dialect_marker, DialectMatcher, EventMap, FileSchema, NonBlank, Positive, When};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

dialect_marker!(AgentsDialect, Dialect::Agents);

/// One hook of an event's list.
#[derive(Deserialize, JsonSchema)]
struct AgentsHook {
    command: NonBlank,
    matcher: Option<DialectMatcher<AgentsDialect>>,
    /// Milliseconds (5000 when left out).
    #[serde(rename = "timeoutMs")]
    timeout_ms: Option<Positive>,
    /// Any failure of the hook denies the tool call.
    #[serde(rename = "denyOnFailure")]
    deny_on_failure: Option<bool>,
}

type Events = EventMap<AgentsDialect, AgentsHook>;

/// The events wrapped in `hooks`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = ".agents hooks file")]
pub(crate) struct Wrapped {
    hooks: Events,
}

/// `hooks` is an object (else the events are read from the root).
pub(crate) struct HasHooks;

impl When for HasHooks {
    fn holds(root: &Value) -> bool {
        root.get("hooks").is_some_and(Value::is_object)
    }
    fn schema() -> Value {
        json!({"properties": {"hooks": {"type": "object"}}, "required": ["hooks"]})
    }
}

pub(crate) static SCHEMA: FileSchema = FileSchema::either::<HasHooks, Wrapped, Events>();
