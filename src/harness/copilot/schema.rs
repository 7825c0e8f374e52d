//! Copilot's file type: `{"version": 1, "disableAllHooks", "hooks": {"preToolUse": [{"type":
//! "command", "bash" | "command" | "exec" + "args", "env", "matcher", "timeoutSec", "cwd"} |
//! {"type": "http", "url"}]}}`. A file with `disableAllHooks: true` runs nothing, and nothing
//! in its `hooks` is checked.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::harness::schema::{
    check_as, dialect_marker, DialectMatcher, EventMap, FileSchema, NonBlank, Positive, StringMap, When,
};
use crate::vocab::Dialect;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

dialect_marker!(CopilotDialect, Dialect::Copilot);

/// Fields every hook may carry.
#[derive(Deserialize, JsonSchema)]
struct Common {
    matcher: Option<DialectMatcher<CopilotDialect>>,
    /// Seconds (`timeout` is an older spelling).
    #[serde(rename = "timeoutSec")]
    timeout_sec: Option<Positive>,
    timeout: Option<Positive>,
    cwd: Option<String>,
}

/// A command in exec form: a program and its arguments, no shell.
#[derive(Deserialize, JsonSchema)]
struct ExecForm {
    exec: NonBlank,
    args: Option<Vec<String>>,
    env: Option<StringMap>,
}

/// A shell command: `bash` or (on any platform) `command`; one of them must say something.
#[derive(Deserialize, JsonSchema)]
struct ShellForm {
    env: Option<StringMap>,
}

#[derive(Deserialize, JsonSchema)]
struct HttpForm {
    url: NonBlank,
}

/// One hook of an event's list, by its `type`.
struct CopilotHook;

fn has_words(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty())
}

impl<'de> Deserialize<'de> for CopilotHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Map::<String, Value>::deserialize(d)?;
        let http = match v.get("type") {
            None | Some(Value::Null) => false,
            Some(Value::String(t)) if t == "command" || t == "http" => t == "http",
            Some(t) => return Err(D::Error::custom(format!("unknown hook type {t} (command or http)"))),
        };
        let v = Value::Object(v);
        match http {
            true => check_as::<HttpForm, _>(&v)?,
            _ if v.get("exec").is_some() => check_as::<ExecForm, _>(&v)?,
            _ if has_words(v.get("bash")) || has_words(v.get("command")) => check_as::<ShellForm, _>(&v)?,
            _ => return Err(D::Error::custom("missing bash or command")),
        }
        check_as::<Common, _>(&v).map(|()| CopilotHook)
    }
}

impl JsonSchema for CopilotHook {
    fn schema_name() -> Cow<'static, str> {
        "CopilotHook".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let words = json_schema!({"type": "string", "pattern": "\\S"});
        let shell = json_schema!({
            "allOf": [
                g.subschema_for::<ShellForm>(),
                {"anyOf": [
                    {"properties": {"bash": words}, "required": ["bash"]},
                    {"properties": {"command": words}, "required": ["command"]},
                ]},
            ],
        });
        json_schema!({
            "type": "object",
            "properties": {"type": {"enum": ["command", "http", null]}},
            "allOf": [
                g.subschema_for::<Common>(),
                {
                    "if": {"properties": {"type": {"const": "http"}}, "required": ["type"]},
                    "then": g.subschema_for::<HttpForm>(),
                    "else": {"if": {"required": ["exec"]}, "then": g.subschema_for::<ExecForm>(), "else": shell},
                },
            ],
        })
    }
}

/// A Copilot hooks file whose hooks run.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Copilot hooks file")]
pub(crate) struct CopilotFile {
    hooks: EventMap<CopilotDialect, CopilotHook>,
}

/// A file with `disableAllHooks: true`: only its `hooks` object must be there.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct DisabledFile {
    hooks: Map<String, Value>,
}

/// `disableAllHooks: true`.
pub(crate) struct Disabled;

impl When for Disabled {
    fn holds(root: &Value) -> bool {
        root.get("disableAllHooks") == Some(&Value::Bool(true))
    }
    fn schema() -> Value {
        serde_json::json!({"properties": {"disableAllHooks": {"const": true}}, "required": ["disableAllHooks"]})
    }
}

pub(crate) static SCHEMA: FileSchema = FileSchema::either::<Disabled, DisabledFile, CopilotFile>();
