//! The Claude Code family's file type (`{hooks: {Event: [{matcher, hooks: [handler]}]}}`), for
//! Claude Code, Codex, Qwen Code, Droid, opencode and native files: the JSON Schema `hookrt
//! schema` writes, the check `hookrt validate` runs (crate::harness::schema), and the values the
//! loader (groups.rs, handlers.rs) makes hooks from. Each family member says which handler types
//! it takes, how it reads a matcher and a timeout, and which events it has. The loaders' words
//! (shared with the JavaScript implementation) come from the field types.

use crate::config::if_rule::Rule;
use crate::harness::schema::{
    called, checked_scalar, is_lenient, loader_says, ok_if, read_in, DialectMatcher, Entries, Expected, Lenient, Must,
    NonBlank, OfDialect, OrderedStrings, Positive,
};
use crate::vocab::text::quote;
use crate::vocab::{HandlerKind, OnError};
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
    /// Claude's handler rules (`http` with an `http(s)://` URL and `allowedEnvVars`, `"worker":
    /// true`, `$ARGUMENTS` appended to prompts): Claude and Codex.
    const FULL_HANDLERS: bool;
    /// Per-hook `enabled: false` (Claude, Codex, native).
    const ENABLED_FLAG: bool = false;
    /// A `timeout` at or above this is milliseconds, below it seconds (Qwen Code keeps the
    /// millisecond timeouts its files had before it switched to seconds); `None`: always seconds.
    const MILLIS_FROM: Option<f64> = None;
    /// The dialect whose matcher rule applies.
    type Of: OfDialect;
}

/// Declares a hook type: its own fields, then those every hook may carry (`timeout`, `onError`,
/// `if`) read in place (a `#[serde(flatten)]` struct would be read without its keys, which a
/// loader's words name).
macro_rules! hook_type {
    ($(#[$attr:meta])* struct $name:ident { $($(#[$fattr:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$attr])*
        #[derive(Deserialize, JsonSchema)]
        pub(crate) struct $name {
            $($(#[$fattr])* pub $field: $ty,)*
            /// Seconds.
            pub timeout: Option<Lenient<Positive>>,
            #[serde(rename = "onError")]
            pub on_error: Option<Lenient<OnErrorWord>>,
            /// A permission rule (`Bash(git push:*)`): the hook runs only for calls it matches.
            #[serde(rename = "if")]
            pub if_rule: Option<IfRule>,
        }

        impl $name {
            fn common(&self) -> Common<'_> {
                Common { timeout: &self.timeout, on_error: &self.on_error, if_rule: &self.if_rule }
            }
        }
    };
}

/// The fields every hook may carry, as read.
pub(crate) struct Common<'a> {
    pub timeout: &'a Option<Lenient<Positive>>,
    pub on_error: &'a Option<Lenient<OnErrorWord>>,
    pub if_rule: &'a Option<IfRule>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OnErrorWord {
    Ignore,
    Warn,
    Block,
}

impl OnErrorWord {
    pub(crate) fn policy(self) -> OnError {
        match self {
            OnErrorWord::Ignore => OnError::Ignore,
            OnErrorWord::Warn => OnError::Warn,
            OnErrorWord::Block => OnError::Block,
        }
    }
}

impl Expected for OnErrorWord {
    const EXPECTED: &'static str = "one of ignore/warn/block";
}

/// A Claude permission rule. `hookrt validate` refuses one that does not parse; a loader keeps
/// the hook (it then runs on every matching call) and reports why, in the loader's words.
pub(crate) struct IfRule {
    /// The rule as written, when it is a string.
    pub text: Option<String>,
    pub parsed: Result<Rule, String>,
}

impl<'de> Deserialize<'de> for IfRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const EVERY_CALL: &str = "the hook runs on every matching tool call";
        let text = match String::deserialize(d) {
            Ok(t) => t,
            Err(_) if is_lenient() => {
                let parsed = Err(format!("if must be a permission rule string; {EVERY_CALL}"));
                return Ok(IfRule { text: None, parsed });
            }
            Err(e) => return Err(e),
        };
        match Rule::parse(&text) {
            Ok(rule) => Ok(IfRule { text: Some(text), parsed: Ok(rule) }),
            Err(e) if is_lenient() => Ok(IfRule { text: Some(text), parsed: Err(format!("{e}; {EVERY_CALL}")) }),
            Err(e) => Err(D::Error::custom(e)),
        }
    }
}

impl JsonSchema for IfRule {
    fn schema_name() -> Cow<'static, str> {
        "PermissionRule".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // The rule's shape: a tool word, then optionally a non-empty pattern in parentheses (what
        // the pattern may hold for each tool is checked by hookrt, not expressible here).
        json_schema!({
            "type": "string",
            "pattern": "^\\s*[A-Za-z0-9_*-]+(\\(.*\\S.*\\))?\\s*$",
            "description": "A permission rule such as Bash(git push:*)",
        })
    }
}

called! {
    /// An `env` or `headers` object of strings, in the file's order.
    pub(crate) struct EnvOrHeaders(OrderedStrings), expected "a string map"
}

called! {
    /// `allowedEnvVars`: the variables an `http` hook's headers may name.
    pub(crate) struct VarNames(Vec<String>), expected "an array of variable names"
}

impl Expected for Map<String, Value> {
    const EXPECTED: &'static str = "an object";
}

hook_type! {
    /// `type: "command"` (or no type): a shell command, or exec form with `args`.
    struct CommandHook {
        command: NonBlank,
        args: Option<Must<Vec<String>>>,
        env: Option<Lenient<EnvOrHeaders>>,
    }
}

hook_type! {
    /// A worker (`type: "worker"`, or a command with `"worker": true` where Claude's handler rules
    /// apply): a command plus the worker's settings.
    struct WorkerHook {
        command: NonBlank,
        args: Option<Must<Vec<String>>>,
        env: Option<Lenient<EnvOrHeaders>>,
        #[serde(rename = "maxInFlight")]
        max_in_flight: Option<Lenient<InFlight>>,
        /// Seconds.
        #[serde(rename = "idleTimeout")]
        idle_timeout: Option<Lenient<Positive>>,
    }
}

checked_scalar! {
    /// How many requests a worker takes at once: a whole number from 1 to 10000.
    pub(crate) struct InFlight: u64 as "MaxInFlight",
    |n| ok_if((1..=10_000).contains(&n), "maxInFlight must be a whole number from 1 to 10000"),
    {"type": "integer", "minimum": 1, "maximum": 10000}
}

impl Expected for InFlight {
    const EXPECTED: &'static str = "a whole number from 1 to 10000";
}

hook_type! {
    /// `type: "http"` with Claude's rules.
    struct HttpHook {
        url: HttpUrl,
        headers: Option<Lenient<EnvOrHeaders>>,
        #[serde(rename = "allowedEnvVars")]
        allowed_env_vars: Option<Lenient<VarNames>>,
    }
}

hook_type! {
    /// `type: "http"` elsewhere: any URL.
    struct WebhookHook {
        url: NonBlank,
        headers: Option<Lenient<EnvOrHeaders>>,
    }
}

hook_type! {
    /// `type: "mcp_tool"`: a tool of an MCP server the harness is connected to.
    struct McpToolHook {
        server: McpName,
        tool: McpName,
        input: Option<Must<Map<String, Value>>>,
    }
}

/// What a loader says when an mcp_tool hook's `server` or `tool` is wrong or left out.
const MCP_NEEDS: &str = "mcp_tool hooks need server and tool";

called! {
    /// An mcp_tool hook's `server` or `tool`.
    pub(crate) struct McpName(NonBlank), says MCP_NEEDS
}

hook_type! {
    /// `type: "prompt"`: an LLM check.
    struct PromptHook {
        prompt: NonBlank,
    }
}

hook_type! {
    /// `type: "agent"`: a subagent runner, optionally through a command of its own.
    struct AgentHook {
        prompt: NonBlank,
        command: Option<AgentCommand>,
        env: Option<Lenient<EnvOrHeaders>>,
    }
}

called! {
    /// An agent hook's own runner command: when given, not blank.
    pub(crate) struct AgentCommand(NonBlank), says "command must not be empty"
}

/// An `http://` or `https://` URL (trimmed).
pub(crate) struct HttpUrl(pub String);

impl<'de> Deserialize<'de> for HttpUrl {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let url = String::deserialize(d).map_err(|e| loader_says(e, Some(|key| format!("missing {key}"))))?;
        let t = url.trim();
        if t.starts_with("http://") || t.starts_with("https://") {
            return Ok(HttpUrl(t.to_owned()));
        }
        Err(D::Error::custom(match is_lenient() {
            true if t.is_empty() => "missing url".to_owned(),
            true => format!("url must be http:// or https://: {}", quote(t)),
            false => "must be an http:// or https:// URL".to_owned(),
        }))
    }
}

impl JsonSchema for HttpUrl {
    fn schema_name() -> Cow<'static, str> {
        "HttpUrl".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "pattern": "^\\s*https?://"})
    }
}

/// One hook entry, read by its `type`.
pub(crate) struct Handler<F> {
    pub read: Read,
    family: PhantomData<F>,
}

/// A hook entry as read, by the shape its `type` asks for.
pub(crate) enum Read {
    Command(CommandHook),
    Worker(WorkerHook),
    FullHttp(HttpHook),
    Webhook(WebhookHook),
    McpTool(McpToolHook),
    Prompt(PromptHook),
    Agent(AgentHook),
}

impl Read {
    pub(crate) fn common(&self) -> Common<'_> {
        match self {
            Read::Command(h) => h.common(),
            Read::Worker(h) => h.common(),
            Read::FullHttp(h) => h.common(),
            Read::Webhook(h) => h.common(),
            Read::McpTool(h) => h.common(),
            Read::Prompt(h) => h.common(),
            Read::Agent(h) => h.common(),
        }
    }
}

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

    fn read<E: serde::de::Error>(self, v: &Value) -> Result<Read, E> {
        Ok(match self {
            Shape::Command => Read::Command(read_in(v)?),
            Shape::Worker => Read::Worker(read_in(v)?),
            Shape::FullHttp => Read::FullHttp(read_in(v)?),
            Shape::Webhook => Read::Webhook(read_in(v)?),
            // A loader says the same whether `server` or `tool` is wrong or left out.
            Shape::McpTool => Read::McpTool(read_in(v).map_err(|e: E| match is_lenient() {
                true if ["missing server", "missing tool"].contains(&e.to_string().as_str()) => E::custom(MCP_NEEDS),
                _ => e,
            })?),
            Shape::Prompt => Read::Prompt(read_in(v)?),
            Shape::Agent => Read::Agent(read_in(v)?),
        })
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
            Some(t) if is_lenient() => {
                let word = t.as_str().map_or_else(|| t.to_string(), str::to_owned);
                return Err(D::Error::custom(format!("unknown hook type {}", quote(&word))));
            }
            Some(t) => return Err(D::Error::custom(format!("unknown hook type {t} (one of {})", F::KINDS.join(", ")))),
        };
        let shape = match Shape::of::<F>(ty) {
            Shape::Command if F::FULL_HANDLERS && o.get("worker") == Some(&Value::Bool(true)) => Shape::Worker,
            s => s,
        };
        Ok(Handler { read: shape.read(&v)?, family: PhantomData })
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

/// One matcher group: `hooks` must hold at least one entry. A loader reads the entries one by
/// one (one wrong entry drops that entry); `hookrt validate` reads them all.
pub(crate) struct Group<F: Family> {
    pub matcher: Option<String>,
    pub hooks: Entries<Handler<F>>,
}

#[derive(Deserialize)]
#[serde(bound = "")]
struct GroupFields<F: Family> {
    matcher: Option<DialectMatcher<F::Of>>,
    // Left out, it is refused below in the loaders' words ("hooks must be an array").
    #[serde(default)]
    hooks: Option<Must<Entries<Handler<F>>>>,
}

impl<'de, F: Family> Deserialize<'de> for Group<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let g = GroupFields::<F>::deserialize(d)?;
        let hooks = match g.hooks {
            Some(h) => h.0,
            None if is_lenient() => return Err(D::Error::custom("hooks must be an array")),
            None => return Err(D::Error::missing_field("hooks")),
        };
        if hooks.is_empty() {
            return Err(D::Error::custom("hooks must not be empty"));
        }
        Ok(Group { matcher: g.matcher.map(|m| m.0), hooks })
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
