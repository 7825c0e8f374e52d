//! The Claude Code family's file type (`{hooks: {Event: [{matcher, hooks: [handler]}]}}`), for
//! Claude Code, Codex and Qwen Code: the JSON Schema `hookrt schema` writes and the check
//! `hookrt validate` runs (crate::harness::schema). Each family member says which handler types
//! it takes, how it reads a matcher and which events it has.

// The fields exist to be checked and described, never read back.
#![allow(dead_code)]

use crate::config::if_rule::Rule;
use crate::harness::schema::{
    check_as, checked_scalar, ok_if, DialectMatcher, NonBlank, OfDialect, Positive, StringMap,
};
use crate::vocab::HandlerKind;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::marker::PhantomData;

/// What one family member allows.
pub(crate) trait Family: 'static {
    const NAME: &'static str;
    /// The `type` words it accepts (`command` when missing).
    const KINDS: &'static [&'static str];
    /// Claude's `http` rules (an `http(s)://` URL, `allowedEnvVars`).
    const FULL_HANDLERS: bool;
    /// The dialect whose matcher rule applies.
    type Of: OfDialect;
}

/// Fields every handler may carry.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Common {
    /// Seconds.
    timeout: Option<Positive>,
    #[serde(rename = "onError")]
    on_error: Option<OnErrorWord>,
    /// A permission rule (`Bash(git push:*)`): the hook runs only for calls it matches.
    #[serde(rename = "if")]
    if_rule: Option<IfRule>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum OnErrorWord {
    Ignore,
    Warn,
    Block,
}

checked_scalar! {
    /// A Claude permission rule.
    struct IfRule: String as "PermissionRule",
    |s| Rule::parse(&s).map(|_| ()).map_err(|e| e.to_string()),
    // The rule's shape: a tool word, then optionally a non-empty pattern in parentheses (what
    // the pattern may hold for each tool is checked by hookrt, not expressible here).
    {
        "type": "string",
        "pattern": "^\\s*[A-Za-z0-9_*-]+(\\(.*\\S.*\\))?\\s*$",
        "description": "A permission rule such as Bash(git push:*)",
    }
}

/// `type: "command"` (or no type): a shell command, or exec form with `args`.
#[derive(Deserialize, JsonSchema)]
struct CommandHook {
    command: NonBlank,
    args: Option<Vec<String>>,
    env: Option<StringMap>,
    #[serde(flatten)]
    common: Common,
}

/// A worker (`type: "worker"`, or a command with `"worker": true` where Claude's handler rules
/// apply): a command plus the worker's settings.
#[derive(Deserialize, JsonSchema)]
struct WorkerHook {
    command: NonBlank,
    args: Option<Vec<String>>,
    env: Option<StringMap>,
    #[serde(rename = "maxInFlight")]
    max_in_flight: Option<InFlight>,
    /// Seconds.
    #[serde(rename = "idleTimeout")]
    idle_timeout: Option<Positive>,
    #[serde(flatten)]
    common: Common,
}

checked_scalar! {
    /// How many requests a worker takes at once: a whole number from 1 to 10000.
    struct InFlight: u64 as "MaxInFlight",
    |n| ok_if((1..=10_000).contains(&n), "maxInFlight must be a whole number from 1 to 10000"),
    {"type": "integer", "minimum": 1, "maximum": 10000}
}

/// `type: "http"` with Claude's rules.
#[derive(Deserialize, JsonSchema)]
struct HttpHook {
    url: HttpUrl,
    headers: Option<StringMap>,
    #[serde(rename = "allowedEnvVars")]
    allowed_env_vars: Option<Vec<String>>,
    #[serde(flatten)]
    common: Common,
}

/// `type: "http"` elsewhere: any URL.
#[derive(Deserialize, JsonSchema)]
struct WebhookHook {
    url: NonBlank,
    headers: Option<StringMap>,
    #[serde(flatten)]
    common: Common,
}

#[derive(Deserialize, JsonSchema)]
struct McpToolHook {
    server: NonBlank,
    tool: NonBlank,
    input: Option<Map<String, Value>>,
    #[serde(flatten)]
    common: Common,
}

/// `type: "prompt"`: an LLM check.
#[derive(Deserialize, JsonSchema)]
struct PromptHook {
    prompt: NonBlank,
    #[serde(flatten)]
    common: Common,
}

/// `type: "agent"`: a subagent runner, optionally through a command of its own.
#[derive(Deserialize, JsonSchema)]
struct AgentHook {
    prompt: NonBlank,
    command: Option<NonBlank>,
    env: Option<StringMap>,
    #[serde(flatten)]
    common: Common,
}

checked_scalar! {
    /// An `http://` or `https://` URL.
    struct HttpUrl: String as "HttpUrl",
    |s| {
        let t = s.trim();
        ok_if(t.starts_with("http://") || t.starts_with("https://"), "must be an http:// or https:// URL")
    },
    {"type": "string", "pattern": "^\\s*https?://"}
}

/// One hook entry, by its `type`.
pub(crate) struct Handler<F>(PhantomData<F>);

/// Which entry type a `type` word (with Claude's `"worker": true`) asks for.
#[derive(Clone, Copy)]
enum Shape {
    Command,
    Worker,
    FullHttp,
    Webhook,
    McpTool,
    Prompt,
    Agent,
}

impl Shape {
    fn of<F: Family>(ty: &str) -> Shape {
        match HandlerKind::from_type(ty) {
            Some(HandlerKind::Worker) => Shape::Worker,
            Some(HandlerKind::Webhook) if F::FULL_HANDLERS && ty == "http" => Shape::FullHttp,
            Some(HandlerKind::Webhook) => Shape::Webhook,
            Some(HandlerKind::McpTool) => Shape::McpTool,
            Some(HandlerKind::Oracle) => Shape::Prompt,
            Some(HandlerKind::Proxy) => Shape::Agent,
            Some(HandlerKind::Shell | HandlerKind::Callback) | None => Shape::Command,
        }
    }

    fn check<E: serde::de::Error>(self, v: &Value) -> Result<(), E> {
        match self {
            Shape::Command => check_as::<CommandHook, _>(v),
            Shape::Worker => check_as::<WorkerHook, _>(v),
            Shape::FullHttp => check_as::<HttpHook, _>(v),
            Shape::Webhook => check_as::<WebhookHook, _>(v),
            Shape::McpTool => check_as::<McpToolHook, _>(v),
            Shape::Prompt => check_as::<PromptHook, _>(v),
            Shape::Agent => check_as::<AgentHook, _>(v),
        }
    }

    fn schema(self, g: &mut SchemaGenerator) -> Schema {
        match self {
            Shape::Command => g.subschema_for::<CommandHook>(),
            Shape::Worker => g.subschema_for::<WorkerHook>(),
            Shape::FullHttp => g.subschema_for::<HttpHook>(),
            Shape::Webhook => g.subschema_for::<WebhookHook>(),
            Shape::McpTool => g.subschema_for::<McpToolHook>(),
            Shape::Prompt => g.subschema_for::<PromptHook>(),
            Shape::Agent => g.subschema_for::<AgentHook>(),
        }
    }

    /// A command's schema, which (where Claude's rules apply) is a worker's with `"worker": true`.
    fn command_schema<F: Family>(self, g: &mut SchemaGenerator) -> Schema {
        let plain = self.schema(g);
        if !matches!(self, Shape::Command) || !F::FULL_HANDLERS {
            return plain;
        }
        let worker = Shape::Worker.schema(g);
        json_schema!({
            "if": {"properties": {"worker": {"const": true}}, "required": ["worker"]},
            "then": worker,
            "else": plain,
        })
    }
}

impl<'de, F: Family> Deserialize<'de> for Handler<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let Some(o) = v.as_object() else { return Err(D::Error::custom("a hook must be an object")) };
        let ty = match o.get("type") {
            None | Some(Value::Null) => "command",
            Some(Value::String(t)) if F::KINDS.contains(&t.as_str()) => t.as_str(),
            Some(t) => return Err(D::Error::custom(format!("unknown hook type {t} (one of {})", F::KINDS.join(", ")))),
        };
        let shape = match Shape::of::<F>(ty) {
            Shape::Command if F::FULL_HANDLERS && o.get("worker") == Some(&Value::Bool(true)) => Shape::Worker,
            s => s,
        };
        shape.check(&v)?;
        Ok(Handler(PhantomData))
    }
}

impl<F: Family> JsonSchema for Handler<F> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Hook", F::NAME).into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let mut kinds: Vec<Value> = F::KINDS.iter().map(|k| Value::from(*k)).collect();
        kinds.push(Value::Null);
        // No `type` (or `null`) is a command.
        let mut cases = vec![json_schema!({
            "if": {"anyOf": [{"not": {"required": ["type"]}}, {"properties": {"type": {"type": "null"}}}]},
            "then": Shape::Command.command_schema::<F>(g),
        })];
        for k in F::KINDS {
            let then = Shape::of::<F>(k).command_schema::<F>(g);
            cases
                .push(json_schema!({"if": {"properties": {"type": {"const": k}}, "required": ["type"]}, "then": then}));
        }
        json_schema!({
            "type": "object",
            "properties": {"type": {"enum": kinds}},
            "allOf": cases,
        })
    }
}

/// One matcher group: `hooks` must hold at least one entry.
pub(crate) struct Group<F>(PhantomData<F>);

#[derive(Deserialize)]
#[serde(bound = "")]
struct GroupFields<F: Family> {
    matcher: Option<DialectMatcher<F::Of>>,
    hooks: Vec<Handler<F>>,
}

impl<'de, F: Family> Deserialize<'de> for Group<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let g = GroupFields::<F>::deserialize(d)?;
        if g.hooks.is_empty() {
            return Err(D::Error::custom("hooks must not be empty"));
        }
        let _ = g.matcher;
        Ok(Group(PhantomData))
    }
}

impl<F: Family> JsonSchema for Group<F> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}MatcherGroup", F::NAME).into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {
                "matcher": {"anyOf": [g.subschema_for::<DialectMatcher<F::Of>>(), {"type": "null"}]},
                "hooks": {"type": "array", "items": g.subschema_for::<Handler<F>>(), "minItems": 1},
            },
            "required": ["hooks"],
        })
    }
}

/// Declares a family member's events object: each known event an array of groups, any other
/// key left alone (the loader warns about it and reads the rest).
macro_rules! events_object {
    ($name:ident, $family:ty, [$($event:ident),* $(,)?] $(, $field:ident: $ty:ty)*) => {
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        #[allow(non_snake_case, dead_code)]
        pub(crate) struct $name {
            $(
                #[serde(default)]
                $event: Vec<crate::harness::family::schema::Group<$family>>,
            )*
            $($field: $ty,)*
            #[serde(flatten)]
            other: serde_json::Map<String, serde_json::Value>,
        }

        impl $name {
            /// The event names the type knows (a test holds them to the harness's list).
            #[cfg(test)]
            pub(crate) const NAMES: &'static [&'static str] = &[$(stringify!($event)),*];
        }
    };
}
pub(crate) use events_object;
