//! hookrt's own file type: `{"version": 1, "events": {…}}` (or `hooks` in place of `events`) with
//! canonical event names and every handler type and alias, Claude's group shape.

use crate::harness::family::schema::{Family, Group};
use crate::harness::schema::{dialect_marker, Dedicated, EventMap, FileSchema, HooksKey, MemberName, When};
use crate::vocab::Dialect;
use serde_json::Value;

pub(crate) struct NativeFamily;

impl Family for NativeFamily {
    const NAME: &'static str = "Native";
    const KINDS: &'static [&'static str] = &[
        "command", "shell", "http", "webhook", "prompt", "oracle", "agent", "subagent", "proxy", "mcp_tool", "worker",
    ];
    const FULL_HANDLERS: bool = false;
    const ENABLED_FLAG: bool = true;
    type Of = NativeDialect;
}

dialect_marker!(NativeDialect, Dialect::Native);

type Events = EventMap<NativeDialect, Group<NativeFamily>>;

/// `events`, where hookrt's own files keep their events.
pub(crate) struct EventsKey;

impl MemberName for EventsKey {
    const NAME: &'static str = "events";
}

type HooksMember = Dedicated<HooksKey, Events>;
type EventsMember = Dedicated<EventsKey, Events>;

/// A file with a `hooks` key is read from it, otherwise from `events`.
pub(crate) struct HasHooks;

impl When for HasHooks {
    fn holds(root: &Value) -> bool {
        root.get("hooks").is_some()
    }
    fn schema() -> Value {
        serde_json::json!({"required": ["hooks"]})
    }
}

pub(crate) static SCHEMA: FileSchema = FileSchema::either::<HasHooks, HooksMember, EventsMember>();
