//! The JSON Schema of a dialect's hook file, and the check `hookrt validate` runs with it. Both
//! come from one Rust type per file shape (in each harness folder): `schemars` writes the
//! schema (draft 2020-12) and `serde` reads a file with the same type, so an editor validating
//! with the schema and hookrt validating with the type say the same thing. Loaders read their
//! entries through the same type (leniently, reading.rs) and make their hooks from what it read;
//! a property test (tests/it/schema.rs) still holds the two to each other on generated files.

mod blocks;
mod event_map;
mod member;
mod reading;
mod strict;

pub(crate) use blocks::*;
pub(crate) use event_map::{dialect_marker, DialectMatcher, Either, EventMap, OfDialect, When};
pub(crate) use member::{Dedicated, HooksKey, MemberName};
pub(crate) use reading::{
    complaint, entry, env_of, given, is_lenient, leniently, loader_says, refused, Entries, Expected, Lenient, Must,
};

use crate::vocab::{Dialect, EventSpec};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde::de::DeserializeOwned;
use serde_json::Value;

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

    /// A file read as `A` when `W` holds for its root, else as `B` (a switch that turns every
    /// hook off, a member that moves the events).
    pub(crate) const fn either<W: When, A, B>() -> Self
    where
        A: JsonSchema + DeserializeOwned,
        B: JsonSchema + DeserializeOwned,
    {
        FileSchema { generate: generate::<Either<W, A, B>>, check: Either::<W, A, B>::check }
    }
}

fn generate<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<T>()
}

fn check<T: DeserializeOwned>(v: &Value) -> Result<(), serde_path_to_error::Error<serde_json::Error>> {
    read_as::<T>(v).map(|_| ())
}

/// Reads a value as a file type, keeping the path of the first problem; structs come from
/// objects only (strict.rs).
pub(crate) fn read_as<'v, T: serde::Deserialize<'v>>(
    v: &'v Value,
) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize(strict::Strict(v))
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
    /// The event whose hooks hold the problem, as diagnostics carry it (`None`: the file's).
    pub event: Option<String>,
    /// Where, in the loader's words; empty for the file as a whole.
    pub at: String,
    /// What the type found wrong there.
    pub message: String,
}

/// Checks a file's root against its dialect's (published) schema.
pub fn check_root(d: Dialect, root: &Value) -> Option<SchemaProblem> {
    problem_of(d, crate::harness::of(d).file_schema()?, root)
}

/// Checks a file's root against the schema of the file at `path` (Codex's `config.toml` and
/// Droid's `settings.json` hold their hooks differently from the `hooks.json` the published
/// schemas describe); `None` when no schema describes the file.
pub fn check_file(d: Dialect, path: &std::path::Path, root: &Value) -> Option<Option<SchemaProblem>> {
    let fs = crate::harness::of(d).file_schema_at(path)?;
    Some(problem_of(d, fs, root))
}

fn problem_of(d: Dialect, fs: &FileSchema, root: &Value) -> Option<SchemaProblem> {
    let h = crate::harness::of(d);
    let e = (fs.check)(root).err()?;
    Some(problem(h.events(), h.event_names_any_case(), &e))
}

fn problem(events: &[EventSpec], any_case: bool, e: &serde_path_to_error::Error<serde_json::Error>) -> SchemaProblem {
    use serde_path_to_error::Segment;
    let (mut at, mut event) = (String::new(), None);
    let mut under_member = false;
    for (depth, seg) in e.path().iter().enumerate() {
        // A key right inside a root member is named in brackets (`hooks[outbound][0]`).
        let bracket = depth == 1 && std::mem::take(&mut under_member);
        match seg {
            Segment::Seq { index } => at.push_str(&format!("[{index}]")),
            Segment::Map { key }
                if event.is_none()
                    && events.iter().any(|s| s.name == key || (any_case && s.name.eq_ignore_ascii_case(key))) =>
            {
                at.push_str(&format!("[{key}]"));
                event = Some(key.clone());
            }
            Segment::Map { key } if bracket => at.push_str(&format!("[{key}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                under_member = depth == 0;
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
