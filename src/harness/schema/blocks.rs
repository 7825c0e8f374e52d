//! Small field types the dialects' file types share: each checks what the loader checks and
//! says the same in JSON Schema.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

/// A string with something in it besides whitespace.
#[derive(Debug, Clone)]
pub(crate) struct NonBlank;

impl<'de> Deserialize<'de> for NonBlank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.trim().is_empty() {
            return Err(D::Error::custom("must not be empty"));
        }
        Ok(NonBlank)
    }
}

impl JsonSchema for NonBlank {
    fn schema_name() -> Cow<'static, str> {
        "NonBlank".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "pattern": "\\S"})
    }
}

/// A positive number (a timeout, a duration).
#[derive(Debug, Clone)]
pub(crate) struct Positive;

impl<'de> Deserialize<'de> for Positive {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = f64::deserialize(d)?;
        if !(n > 0.0 && n.is_finite()) {
            return Err(D::Error::custom("must be a positive number"));
        }
        Ok(Positive)
    }
}

impl JsonSchema for Positive {
    fn schema_name() -> Cow<'static, str> {
        "Positive".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "exclusiveMinimum": 0})
    }
}

/// An object of strings (`env`, `headers`).
pub(crate) type StringMap = std::collections::BTreeMap<String, String>;

/// Anything but an object (Droid's `hooks.json` must not wrap its events in `"hooks"`).
#[derive(Debug, Clone)]
pub(crate) struct NotAnObject;

impl<'de> Deserialize<'de> for NotAnObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(_) => {
                Err(D::Error::custom("events under a \"hooks\" key are never run: move them to the root"))
            }
            _ => Ok(NotAnObject),
        }
    }
}

impl JsonSchema for NotAnObject {
    fn schema_name() -> Cow<'static, str> {
        "NotAnObject".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"not": {"type": "object"}})
    }
}

/// A string of at least one character.
#[derive(Debug, Clone)]
pub(crate) struct NonEmpty;

impl<'de> Deserialize<'de> for NonEmpty {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if String::deserialize(d)?.is_empty() {
            return Err(D::Error::custom("must not be empty"));
        }
        Ok(NonEmpty)
    }
}

impl JsonSchema for NonEmpty {
    fn schema_name() -> Cow<'static, str> {
        "NonEmptyString".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "minLength": 1})
    }
}

/// Renders a path inside a value the way the loader names places (`[1].hooks[0].type`).
pub(crate) fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut s = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => s.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => s.push_str(&format!(".{key}")),
            Segment::Unknown => {}
        }
    }
    s
}

/// Reads a value as `T` inside another type's check, naming the field in the message (for
/// entries whose shape depends on a field, such as `type`).
pub(crate) fn check_as<T: serde::de::DeserializeOwned, E: serde::de::Error>(v: &Value) -> Result<(), E> {
    crate::harness::schema::read_as::<T>(v).map(|_| ()).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            E::custom(e.inner())
        } else {
            E::custom(format!("{path}: {}", e.inner()))
        }
    })
}

/// A `type` that may be left out but, when given, must say `command` (`null` is not allowed).
#[derive(Debug, Clone, Default)]
pub(crate) struct CommandOnly;

impl<'de> Deserialize<'de> for CommandOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "command" => Ok(CommandOnly),
            other => Err(D::Error::custom(format!("only type \"command\" hooks are run, not {other}"))),
        }
    }
}

impl JsonSchema for CommandOnly {
    fn schema_name() -> Cow<'static, str> {
        "CommandType".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"const": "command"})
    }
}
