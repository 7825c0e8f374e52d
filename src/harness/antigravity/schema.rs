//! The type of an Antigravity `hooks.json` (named hooks, each `{enabled, <Event>: […]}`, event
//! names matched case-insensitively), with skillsaw's load-time rules: the JSON Schema
//! `hookrt schema` writes, and the values the loader (parse.rs) makes its hooks from.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use crate::vocab::EventSpec;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

struct TopLevelEnabled;

impl<'de> Deserialize<'de> for TopLevelEnabled {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d)?;
        Err(D::Error::custom("\"enabled\" at the top level: every top-level key is a hook name"))
    }
}

/// The whole file: every key a hook name (`enabled` is not one).
pub(crate) struct AntigravityFile {
    pub hooks: Vec<(String, NamedHook)>,
}

impl<'de> Deserialize<'de> for AntigravityFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AntigravityFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of named hooks")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AntigravityFile, A::Error> {
                let mut hooks = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "enabled" {
                        map.next_value::<TopLevelEnabled>()?;
                    } else {
                        let hook = map.next_value::<NamedHook>()?;
                        hooks.push((key, hook));
                    }
                }
                Ok(AntigravityFile { hooks })
            }
        }
        d.deserialize_map(V)
    }
}

/// One named hook.
#[derive(Default)]
pub(crate) struct NamedHook {
    pub enabled: Option<bool>,
    /// Each event key the hook has (any case), in the file's order, with its items.
    pub events: Vec<(EventSpec, Vec<Item>)>,
}

/// One item of an event's list: a tool event's group, or another event's single handler.
pub(crate) struct Item {
    pub matcher: Option<String>,
    pub handlers: Vec<Handler>,
}

impl<'de> Deserialize<'de> for NamedHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NamedHook;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a named hook (an object of events)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NamedHook, A::Error> {
                let mut hook = NamedHook::default();
                while let Some(key) = map.next_key::<String>()? {
                    match super::event_of(&key) {
                        _ if key == "enabled" => hook.enabled = Some(map.next_value()?),
                        Some(spec) if spec.matcher => {
                            let groups: Vec<ToolGroup> = map.next_value()?;
                            let items = groups.into_iter().map(|g| Item { matcher: g.matcher, handlers: g.hooks.unwrap_or_default() });
                            hook.events.push((spec, items.collect()));
                        }
                        Some(spec) => {
                            let handlers: Vec<Handler> = map.next_value()?;
                            let items = handlers.into_iter().map(|h| Item { matcher: None, handlers: vec![h] });
                            hook.events.push((spec, items.collect()));
                        }
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(hook)
            }
        }
        d.deserialize_map(V)
    }
}

/// A PreToolUse / PostToolUse group: `{matcher?: string, hooks?: [handler]}`.
#[derive(Deserialize)]
pub(crate) struct ToolGroup {
    #[serde(default, deserialize_with = "present")]
    matcher: Option<String>,
    #[serde(default, deserialize_with = "present")]
    hooks: Option<Vec<Handler>>,
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// One handler: `{type?: "command" | "prompt", command, prompt, model, timeout}`.
pub(crate) struct Handler {
    /// A prompt hook (Antigravity's own model runs it).
    pub prompt: bool,
    pub command: Option<String>,
    /// Seconds.
    pub timeout: Option<i64>,
}

impl<'de> Deserialize<'de> for Handler {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let Some(o) = v.as_object() else { return Err(D::Error::custom("a hook must be an object")) };
        let ty = match o.get("type") {
            None => "command",
            Some(Value::String(t)) if t == "command" || t == "prompt" => t.as_str(),
            Some(t) => return Err(D::Error::custom(format!("type must be \"command\" or \"prompt\", not {t}"))),
        };
        let wrong: &[&str] = if ty == "command" { &["prompt", "model"] } else { &["command"] };
        if let Some(k) = wrong.iter().find(|k| o.contains_key(**k)) {
            return Err(D::Error::custom(format!("a {ty} hook cannot carry \"{k}\"")));
        }
        // Go's encoding/json: a string field takes a string or null, nothing else.
        if let Some(k) =
            ["command", "prompt", "model"].iter().find(|k| o.get(**k).is_some_and(|v| !v.is_string() && !v.is_null()))
        {
            return Err(D::Error::custom(format!("\"{k}\" must be a string")));
        }
        let timeout = match o.get("timeout") {
            None => None,
            Some(t) => match t.as_i64().filter(|n| i32::try_from(*n).is_ok()) {
                Some(n) => Some(n),
                None => {
                    return Err(D::Error::custom(format!("timeout must be a whole number of seconds (32-bit), not {t}")))
                }
            },
        };
        let command = o.get("command").and_then(Value::as_str).map(str::to_owned);
        Ok(Handler { prompt: ty == "prompt", command, timeout })
    }
}

/// `^[Pp][Rr][Ee]…$`: a name in any case (JSON Schema patterns have no case-insensitive flag).
fn any_case(name: &str) -> String {
    let letters: String =
        name.chars().map(|c| format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())).collect();
    format!("^{letters}$")
}

fn handler_schema() -> Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "type": {"enum": ["command", "prompt"]},
            "command": {"type": ["string", "null"]},
            "prompt": {"type": ["string", "null"]},
            "model": {"type": ["string", "null"]},
            "timeout": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX, "description": "Seconds"},
        },
        "allOf": [
            {"if": {"properties": {"type": {"const": "prompt"}}, "required": ["type"]},
             "then": {"not": {"required": ["command"]}},
             "else": {"not": {"anyOf": [{"required": ["prompt"]}, {"required": ["model"]}]}}},
        ],
    })
}

impl JsonSchema for AntigravityFile {
    fn schema_name() -> Cow<'static, str> {
        "AntigravityHooks".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let handlers = serde_json::json!({"type": "array", "items": {"$ref": "#/$defs/Handler"}});
        let groups = serde_json::json!({"type": "array", "items": {
            "type": "object",
            "properties": {"matcher": {"type": "string"}, "hooks": handlers.clone()},
        }});
        let mut events = serde_json::Map::new();
        for e in &super::EVENTS {
            events.insert(any_case(e.name), if e.matcher { groups.clone() } else { handlers.clone() });
        }
        json_schema!({
            "type": "object",
            "description": "Named hooks: each top-level key is a hook's name.",
            "properties": {"enabled": false},
            "additionalProperties": {
                "type": "object",
                "properties": {"enabled": {"type": "boolean"}},
                "patternProperties": events,
            },
            "$defs": {"Handler": handler_schema()},
        })
    }
}
