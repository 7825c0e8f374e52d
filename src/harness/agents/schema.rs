//! The `.agents` file type: `{PreToolUse: [{matcher, command, timeoutMs, denyOnFailure}],
//! PostToolUse, Stop}`, at the root or wrapped in `{"hooks": …}`. The loader reads each entry
//! through [`AgentsHook`]; the JSON Schema is generated from it.

use crate::harness::schema::{
    dialect_marker, DialectMatcher, EventMap, FileSchema, Lenient, NonBlank, PositiveMs, When,
};
use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

dialect_marker!(AgentsDialect, Dialect::Agents);

/// One hook of an event's list.
#[derive(Deserialize, JsonSchema)]
pub(super) struct AgentsHook {
    pub command: NonBlank,
    pub matcher: Option<DialectMatcher<AgentsDialect>>,
    /// Milliseconds (5000 when left out).
    #[serde(rename = "timeoutMs")]
    pub timeout_ms: Option<Lenient<PositiveMs>>,
    /// Any failure of the hook denies the tool call.
    #[serde(rename = "denyOnFailure")]
    pub deny_on_failure: Option<Lenient<bool>>,
}

type Events = EventMap<AgentsDialect, AgentsHook>;

/// The events wrapped in `hooks`.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = ".agents hooks file")]
pub(crate) struct Wrapped {
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
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
