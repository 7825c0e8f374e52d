//! Hermes Agent's file type: the `hooks:` block of `config.yaml`, one flat entry per hook
//! (`command`, `matcher`, `timeout` in seconds) under each event, and `outbound` webhook
//! targets. An entry without a command is skipped (a warning), so nothing else in it is checked.
//! The loader (config.rs) reads each entry through [`HermesHook`].

use crate::harness::schema::{dialect_marker, read_in, DialectMatcher, Lenient, NonBlank, Positive};
use crate::vocab::Dialect;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

dialect_marker!(HermesDialect, Dialect::Hermes);

fn is_event(key: &str) -> bool {
    super::EVENTS.iter().any(|e| e.name == key)
}

/// One entry of an event's list: a shell hook, or `None` for an entry without a command (which
/// Hermes skips with a warning, reading nothing else in it).
pub(super) struct HermesHook(pub Option<ShellHook>);

/// A shell hook.
pub(super) struct ShellHook {
    /// As written, trimmed; it splits into words shell-style.
    pub command: String,
    pub matcher: Option<DialectMatcher<HermesDialect>>,
    /// Seconds (60 when left out, at most 300).
    pub timeout: Option<Lenient<Positive>>,
}

#[derive(Deserialize)]
struct ShellFields {
    matcher: Option<DialectMatcher<HermesDialect>>,
    timeout: Option<Lenient<Positive>>,
}

impl<'de> Deserialize<'de> for HermesHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let o = Map::<String, Value>::deserialize(d)?;
        let Some(command) = o.get("command").and_then(Value::as_str).map(str::trim).filter(|c| !c.is_empty()) else {
            return Ok(HermesHook(None));
        };
        if super::words::split(command).is_none_or(|w| w.is_empty()) {
            return Err(D::Error::custom("command cannot be split into words (unbalanced quotes?)"));
        }
        let command = command.to_owned();
        let f: ShellFields = read_in::<_, D::Error>(&Value::Object(o))?;
        Ok(HermesHook(Some(ShellHook { command, matcher: f.matcher, timeout: f.timeout })))
    }
}

impl JsonSchema for HermesHook {
    fn schema_name() -> Cow<'static, str> {
        "HermesHook".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "if": {"properties": {"command": {"type": "string", "pattern": "\\S"}}, "required": ["command"]},
            "then": {
                "properties": {
                    "matcher": {"type": ["string", "null"], "description": "A regular expression matching the whole tool name"},
                    "timeout": {
                        "anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}],
                        "description": "Seconds (60 when left out, at most 300)",
                    },
                },
            },
        })
    }
}

/// A webhook told about events.
#[derive(Deserialize, JsonSchema)]
pub(super) struct Outbound {
    pub url: NonBlank,
    /// Event names (Hermes warns about, and skips, anything else).
    pub events: Option<Value>,
    /// The variable holding the signing secret.
    pub secret_env: Option<Value>,
}

/// The `hooks:` mapping: event names and `outbound`.
struct HermesHooks;

impl<'de> Deserialize<'de> for HermesHooks {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HermesHooks;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of event names")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HermesHooks, A::Error> {
                while let Some(key) = map.next_key::<String>()? {
                    if key == "outbound" {
                        map.next_value::<Vec<Outbound>>()?;
                    } else if is_event(&key) {
                        map.next_value::<Vec<HermesHook>>()?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(HermesHooks)
            }
        }
        d.deserialize_map(V)
    }
}

impl JsonSchema for HermesHooks {
    fn schema_name() -> Cow<'static, str> {
        "HermesHooks".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let hook = g.subschema_for::<HermesHook>().to_value();
        let mut properties: Map<String, Value> = super::EVENTS
            .iter()
            .map(|e| (e.name.to_owned(), serde_json::json!({"type": "array", "items": hook})))
            .collect();
        let outbound = g.subschema_for::<Outbound>().to_value();
        properties.insert("outbound".into(), serde_json::json!({"type": "array", "items": outbound}));
        json_schema!({"type": "object", "properties": properties})
    }
}

/// A Hermes `config.yaml`: `hooks` beside the rest of Hermes' settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Hermes config.yaml (hooks)")]
pub(crate) struct HermesConfig {
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
    hooks: Option<HermesHooks>,
}
