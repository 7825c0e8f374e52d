//! The type of an Antigravity `hooks.json` (named hooks, each `{enabled, <Event>: […]}`, event
//! names matched case-insensitively), with skillsaw's load-time rules: the JSON Schema
//! `hookrt schema` writes, held to the loader's file check (parse.rs) by a property test.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// Reads an object key by key with `each`.
fn object<'de, D, F>(d: D, what: &'static str, each: F) -> Result<(), D::Error>
where
    D: Deserializer<'de>,
    F: FnMut(&str, &mut dyn FnMut(Kind) -> Result<(), String>) -> Result<(), String>,
{
    struct V<F>(F, &'static str);
    impl<'de, F> Visitor<'de> for V<F>
    where
        F: FnMut(&str, &mut dyn FnMut(Kind) -> Result<(), String>) -> Result<(), String>,
    {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.1)
        }
        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                let mut outcome: Result<(), A::Error> = Ok(());
                let mut read = |k: Kind| -> Result<(), String> {
                    outcome = match k {
                        Kind::Hook => map.next_value::<NamedHook>().map(drop),
                        Kind::Groups => map.next_value::<Vec<ToolGroup>>().map(drop),
                        Kind::Handlers => map.next_value::<Vec<Handler>>().map(drop),
                        Kind::Bool => map.next_value::<bool>().map(drop),
                        Kind::Any => map.next_value::<IgnoredAny>().map(drop),
                        Kind::Refused => map.next_value::<TopLevelEnabled>().map(drop),
                    };
                    Ok(())
                };
                (self.0)(&key, &mut read).map_err(A::Error::custom)?;
                outcome?;
            }
            Ok(())
        }
    }
    d.deserialize_map(V(each, what))
}

/// What a key's value must be.
enum Kind {
    Hook,
    Groups,
    Handlers,
    Bool,
    Any,
    /// `enabled` at the top level: refused with its value as the place.
    Refused,
}

struct TopLevelEnabled;

impl<'de> Deserialize<'de> for TopLevelEnabled {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d)?;
        Err(D::Error::custom("\"enabled\" at the top level: every top-level key is a hook name"))
    }
}

/// The whole file: every key a hook name (`enabled` is not one).
pub(crate) struct AntigravityFile;

impl<'de> Deserialize<'de> for AntigravityFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        object(d, "an object of named hooks", |key, read| {
            read(if key == "enabled" { Kind::Refused } else { Kind::Hook })
        })
        .map(|()| AntigravityFile)
    }
}

/// One named hook.
struct NamedHook;

impl<'de> Deserialize<'de> for NamedHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        object(d, "a named hook (an object of events)", |key, read| match super::parse::event_of(key) {
            _ if key == "enabled" => read(Kind::Bool),
            Some(spec) if spec.matcher => read(Kind::Groups),
            Some(_) => read(Kind::Handlers),
            None => read(Kind::Any),
        })
        .map(|()| NamedHook)
    }
}

/// A PreToolUse / PostToolUse group: `{matcher?: string, hooks?: [handler]}`.
struct ToolGroup;

impl<'de> Deserialize<'de> for ToolGroup {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct Fields {
            #[serde(default, deserialize_with = "present")]
            matcher: Option<String>,
            #[serde(default, deserialize_with = "present")]
            hooks: Option<Vec<Handler>>,
        }
        Fields::deserialize(d).map(|_| ToolGroup)
    }
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// One handler: `{type?: "command" | "prompt", command, prompt, model, timeout}`.
struct Handler;

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
        if let Some(t) = o.get("timeout") {
            if t.as_i64().is_none_or(|n| i32::try_from(n).is_err()) {
                return Err(D::Error::custom(format!("timeout must be a whole number of seconds (32-bit), not {t}")));
            }
        }
        Ok(Handler)
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
