//! hookrt's own file type: `{"version": 1, "events": {…}}` (or `hooks` in place of `events`) with
//! canonical event names and every handler type and alias, Claude's group shape.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::claude::schema::{Family, Group};
use crate::harness::schema::{dialect_marker, EventMap, FileSchema, When};
use crate::vocab::{Dialect, MatcherStyle};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

pub(crate) struct NativeFamily;

impl Family for NativeFamily {
    const NAME: &'static str = "Native";
    const KINDS: &'static [&'static str] = &[
        "command", "shell", "http", "webhook", "prompt", "oracle", "agent", "subagent", "proxy", "mcp_tool", "worker",
    ];
    const CLAUDE_HTTP: bool = false;
    const STYLE: MatcherStyle = MatcherStyle::LiteralOrRegex;
}

dialect_marker!(NativeDialect, Dialect::Native);

type Events = EventMap<NativeDialect, Group<NativeFamily>>;

/// The file's member (`events` or `hooks`) holding the events; a file without one must say
/// `disableAllHooks`.
macro_rules! member_file {
    ($name:ident, $member:literal) => {
        pub(crate) struct $name;

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(Deserialize)]
                struct Fields {
                    #[serde(rename = $member)]
                    events: Option<Events>,
                    #[serde(rename = "disableAllHooks")]
                    disable_all: Option<Value>,
                }
                let f = Fields::deserialize(d)?;
                if f.events.is_none() && !matches!(f.disable_all, Some(Value::Bool(_))) {
                    return Err(D::Error::custom(concat!("config has no \"", $member, "\" object")));
                }
                Ok($name)
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(g: &mut SchemaGenerator) -> Schema {
                let events = g.subschema_for::<Events>();
                json_schema!({
                    "type": "object",
                    "anyOf": [
                        {"properties": {$member: events}, "required": [$member]},
                        {
                            "properties": {$member: {"type": "null"}, "disableAllHooks": {"type": "boolean"}},
                            "required": ["disableAllHooks"],
                        },
                    ],
                })
            }
        }
    };
}

member_file!(HooksMember, "hooks");
member_file!(EventsMember, "events");

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
