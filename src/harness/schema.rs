//! The JSON Schema of a dialect's hook file, and the check `hookrt validate` runs with it. Both
//! come from one Rust type per file shape (in each harness folder): `schemars` writes the
//! schema (draft 2020-12) and `serde` reads a file with the same type, so an editor validating
//! with the schema and hookrt validating with the type say the same thing; a property test
//! (tests/schema.rs) holds both against the loader.

use crate::vocab::{Dialect, EventSpec};
use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

/// Where the published schemas live (`$id`s are `<BASE><dialect>.schema.json`).
pub const SCHEMA_BASE: &str = "https://hookrt.dev/schemas/";

/// A dialect's file type, as the two things it is used for.
pub(crate) struct FileSchema {
    pub generate: fn() -> Schema,
    pub check: fn(&Value) -> Result<(), serde_path_to_error::Error<serde_json::Error>>,
}

impl FileSchema {
    pub(crate) const fn of<T: JsonSchema + DeserializeOwned>() -> Self {
        FileSchema { generate: generate::<T>, check: check::<T> }
    }
}

fn generate<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<T>()
}

fn check<T: DeserializeOwned>(v: &Value) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize::<_, T>(v).map(|_| ())
}

/// A dialect's schema with its `$id` and title, or `None` when its files are not JSON-like
/// (Cline's hooks are executables).
pub fn schema_of(d: Dialect) -> Option<Value> {
    let fs = crate::harness::of(d).file_schema()?;
    let mut s = (fs.generate)();
    s.insert("$id".into(), Value::String(format!("{SCHEMA_BASE}{}.schema.json", d.as_str())));
    let kind = crate::harness::of(d).file_kind(std::path::Path::new("hooks.json"));
    s.insert("title".into(), Value::String(format!("{kind} (hookrt dialect {})", d.as_str())));
    Some(s.to_value())
}

/// One place a file breaks its dialect's schema, named as the loader names places
/// (`hooks[PreToolUse][0].hooks[1]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    pub event: Option<String>,
    pub at: String,
    pub message: String,
}

/// Checks a file's root against its dialect's schema.
pub fn check_root(d: Dialect, root: &Value) -> Option<SchemaProblem> {
    let h = crate::harness::of(d);
    let fs = h.file_schema()?;
    let e = (fs.check)(root).err()?;
    // Antigravity reads event names in any case.
    Some(problem(h.events(), d == Dialect::Antigravity, &e))
}

fn problem(events: &[EventSpec], any_case: bool, e: &serde_path_to_error::Error<serde_json::Error>) -> SchemaProblem {
    use serde_path_to_error::Segment;
    let (mut at, mut event) = (String::new(), None);
    for seg in e.path().iter() {
        match seg {
            Segment::Seq { index } => at.push_str(&format!("[{index}]")),
            Segment::Map { key }
                if event.is_none()
                    && events.iter().any(|s| s.name == key || (any_case && s.name.eq_ignore_ascii_case(key))) =>
            {
                at.push_str(&format!("[{key}]"));
                event = Some(key.clone());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !at.is_empty() {
                    at.push('.');
                }
                at.push_str(key);
            }
            Segment::Unknown => at.push_str(".?"),
        }
    }
    SchemaProblem { event, at, message: e.inner().to_string() }
}

// ---- Building blocks shared by the file types ----

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
