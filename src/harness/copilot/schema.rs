//! Copilot's file type: `{"version": 1, "disableAllHooks", "hooks": {"preToolUse": [{"type":
//! "command", "bash" | "command" | "exec" + "args", "env", "matcher", "timeoutSec", "cwd"} |
//! {"type": "http", "url"}]}}`. A file with `disableAllHooks: true` runs nothing, and nothing
//! in its `hooks` is checked.

use crate::harness::schema::{
    dialect_marker, is_lenient, read_in, DialectMatcher, EventMap, FileSchema, Lenient, Must, NonBlank,
    OrderedStrings, Positive, When,
};
use crate::vocab::text::quote;
use crate::vocab::Dialect;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

dialect_marker!(CopilotDialect, Dialect::Copilot);

/// Fields every hook may carry.
#[derive(Deserialize, JsonSchema)]
pub(super) struct Common {
    pub matcher: Option<DialectMatcher<CopilotDialect>>,
    /// Seconds (`timeout` is an older spelling).
    #[serde(rename = "timeoutSec")]
    pub timeout_sec: Option<Lenient<Positive>>,
    pub timeout: Option<Lenient<Positive>>,
    pub cwd: Option<Lenient<String>>,
}

/// A command in exec form: a program and its arguments, no shell.
#[derive(Deserialize, JsonSchema)]
pub(super) struct ExecForm {
    pub exec: NonBlank,
    pub args: Option<Must<Vec<String>>>,
    pub env: Option<Lenient<OrderedStrings>>,
}

/// A shell command: `bash` or (on any platform) `command`; one of them must say something.
#[derive(Deserialize, JsonSchema)]
pub(super) struct ShellForm {
    pub env: Option<Lenient<OrderedStrings>>,
}

#[derive(Deserialize, JsonSchema)]
pub(super) struct HttpForm {
    pub url: NonBlank,
}

/// One hook of an event's list, by its `type`.
pub(super) struct CopilotHook {
    pub form: Form,
    pub common: Common,
}

/// What a hook runs.
pub(super) enum Form {
    Exec(ExecForm),
    /// The first of `bash` and `command` that says something.
    Shell(String, ShellForm),
    Http(HttpForm),
}

fn words(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

impl<'de> Deserialize<'de> for CopilotHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Map::<String, Value>::deserialize(d)?;
        let http = match v.get("type") {
            None | Some(Value::Null) => false,
            Some(Value::String(t)) if t == "command" || t == "http" => t == "http",
            Some(t) if is_lenient() => {
                let word = t.as_str().map_or_else(|| t.to_string(), str::to_owned);
                return Err(D::Error::custom(format!("unknown hook type {}", quote(&word))));
            }
            Some(t) => return Err(D::Error::custom(format!("unknown hook type {t} (command or http)"))),
        };
        let v = Value::Object(v);
        let form = match http {
            true => Form::Http(read_in::<_, D::Error>(&v)?),
            _ if v.get("exec").is_some() => Form::Exec(read_in::<_, D::Error>(&v)?),
            _ => match words(v.get("bash")).or_else(|| words(v.get("command"))) {
                Some(c) => Form::Shell(c.to_owned(), read_in::<_, D::Error>(&v)?),
                None => return Err(D::Error::custom("missing bash or command")),
            },
        };
        Ok(CopilotHook { form, common: read_in::<_, D::Error>(&v)? })
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
    // Checked and described; the loader walks the events itself (unknown ones are warned about).
    #[allow(dead_code)]
    hooks: EventMap<CopilotDialect, CopilotHook>,
}

/// A file with `disableAllHooks: true`: only its `hooks` object must be there.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct DisabledFile {
    #[allow(dead_code)]
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
