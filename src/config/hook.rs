//! The hook model: one runnable hook as every dialect's file reader produces it ([`Hook`]),
//! what it runs ([`HandlerSpec`]) and the part of it reported on the wire ([`HookRef`]).

use crate::config::if_rule::Rule;
use crate::config::matcher::Matcher;
use crate::vocab::{
    CanonicalEvent, Dialect, HandlerKind, OnError, Order, Origin, ToolClass, ToolResult, WorkerSettings,
};
use serde::Serialize;
use std::path::PathBuf;

/// What a hook does when it runs; one variant per [`HandlerKind`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum HandlerSpec {
    Shell {
        command: String,
        /// Exec form: run `command` with these arguments, without a shell.
        #[serde(skip_serializing_if = "Option::is_none")]
        args: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        env: Vec<(String, String)>,
    },
    Webhook {
        url: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        headers: Vec<(String, String)>,
    },
    /// Claude and Codex `http` hooks, with Claude's rules: headers expand only the variables
    /// in `allowed_env_vars`, a 2xx body that is not a JSON object decides nothing.
    Http {
        url: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        headers: Vec<(String, String)>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        allowed_env_vars: Vec<String>,
    },
    /// Claude's `mcp_tool`: `server`, `tool` and `input` (string values may hold
    /// `${tool_input.x}` placeholders), called through the host's `mcpCall`.
    #[serde(rename = "mcp_tool")]
    McpTool { server: String, tool: String, input: serde_json::Value },
    /// A persistent worker: started once, answers requests over JSON lines (native `worker`,
    /// or a claude/codex command hook with `"worker": true`).
    Worker {
        command: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        args: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        env: Vec<(String, String)>,
        #[serde(flatten)]
        settings: WorkerSettings,
    },
    Oracle {
        prompt: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    Proxy {
        prompt: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        env: Vec<(String, String)>,
    },
    /// A host function (`createRuntime({hooks})`), reached through the host's
    /// [`crate::handler::callback::CallbackHost`]; `name` is the function's, for `runs` and history.
    Callback {
        name: String,
        #[serde(skip)]
        id: u64,
    },
}

impl HandlerSpec {
    pub fn kind(&self) -> HandlerKind {
        match self {
            HandlerSpec::Shell { .. } => HandlerKind::Shell,
            HandlerSpec::Worker { .. } => HandlerKind::Worker,
            HandlerSpec::Webhook { .. } | HandlerSpec::Http { .. } => HandlerKind::Webhook,
            HandlerSpec::McpTool { .. } => HandlerKind::McpTool,
            HandlerSpec::Oracle { .. } => HandlerKind::Oracle,
            HandlerSpec::Proxy { .. } => HandlerKind::Proxy,
            HandlerSpec::Callback { .. } => HandlerKind::Callback,
        }
    }
}

/// One runnable hook, resolved from a config entry.
#[derive(Debug, Clone)]
pub struct Hook {
    /// `<dialect>:<file base name>:<event>:<group index>:<hook index>`.
    pub id: String,
    pub dialect: Dialect,
    /// The event as spelled in the file (the hook's own `hook_event_name`).
    pub event: String,
    pub canonical: CanonicalEvent,
    /// For after-tool groups: which tool outcomes they are for.
    pub tool_result: ToolResult,
    /// The matcher text as written, reported on the wire (absent when dropped or missing).
    pub matcher_text: Option<String>,
    pub matcher: Matcher,
    pub handler: HandlerSpec,
    /// Per-hook timeout in seconds.
    pub timeout: Option<f64>,
    pub on_error: Option<OnError>,
    /// `.agents` `denyOnFailure`: a failed run (non-zero exit, timeout) denies.
    pub deny_on_failure: bool,
    pub file: PathBuf,
    /// `enabled: false`: loaded and listed, never run.
    pub enabled: bool,
    /// `failClosed: true`: a run without an answer (spawn failure, timeout, signal) denies.
    pub fail_closed: bool,
    /// Claude's per-hook fields: `if`, `async`, `asyncRewake`, `once`, `statusMessage`.
    pub family: FamilyFields,
    /// Variables exported to the hook (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`).
    pub env: Vec<(String, String)>,
    /// Where the hook came from beyond its file (a plugin, managed settings); hooks of
    /// different origins are never de-duplicated against each other, as in Claude.
    pub origin: Origin,
    /// What the other harnesses' files add: tool classes, run order, names, loop limits.
    pub harness: HarnessFields,
    /// Its `runs[i].hook` JSON, written once ([`Hook::wire_json`]).
    pub wire_json: WireJson,
}

/// A hook's `runs[i].hook` JSON, written the first time a run of it is reported: every
/// dispatch that runs the hook reports it, and writing it (escaping its id and command) was
/// the larger part of writing a run. A copy starts empty: it may still be changed.
#[derive(Default)]
pub struct WireJson(std::sync::OnceLock<Option<Box<serde_json::value::RawValue>>>);

impl Clone for WireJson {
    fn clone(&self) -> Self {
        WireJson::default()
    }
}

impl std::fmt::Debug for WireJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WireJson")
    }
}

/// Per-hook settings of Gemini, Cursor, Copilot and Windsurf files.
#[derive(Debug, Clone, Default)]
pub struct HarnessFields {
    /// The hook is for one class of tools (`beforeShellExecution`, `pre_write_code`).
    pub class: Option<ToolClass>,
    pub order: Order,
    /// Gemini's `name` (what `hooksConfig.disabled` and trust fingerprints refer to).
    pub name: Option<String>,
    /// Cursor's `loop_limit` for `followup_message` (`None`: unlimited).
    pub loop_limit: Option<u32>,
    /// Copilot's per-hook `cwd` (relative to the project directory).
    pub cwd: Option<String>,
    /// The command exactly as the file wrote it, where the dialect splits it into words itself
    /// (Hermes): approvals are keyed on it.
    pub written: Option<String>,
    /// The release of the harness whose rules read this hook's answers, where they changed
    /// between releases (Hermes).
    pub version: Option<crate::vocab::Version>,
}

/// Claude Code's per-hook fields beyond the handler (all dialects that tolerate extra keys).
#[derive(Debug, Clone, Default)]
pub struct FamilyFields {
    /// `if`: one permission rule; the hook runs only for tool calls it matches, never on other
    /// events. `None` with `if_text` set: the rule did not parse, the hook runs on every call.
    pub if_rule: Option<Rule>,
    pub if_text: Option<String>,
    /// `async: true` (command hooks): the dispatch does not wait.
    pub is_async: bool,
    /// `asyncRewake: true`: an async hook that exits 2 wakes the session.
    pub async_rewake: bool,
    /// `once: true`: at most once per `session_id` for the runtime's lifetime.
    pub once: bool,
    pub status_message: Option<String>,
}

/// The part of a hook reported in `runs[i].hook`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct HookRef<'a> {
    pub id: &'a str,
    pub dialect: Dialect,
    pub event: &'a str,
    pub kind: HandlerKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<&'a str>,
    #[serde(rename = "statusMessage", skip_serializing_if = "Option::is_none")]
    pub status_message: Option<&'a str>,
    /// What the hook runs, as its file says it: the command, the URL, the MCP tool. Harnesses
    /// name it in their messages (`PreToolUse:Bash hook error: [<command>]: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<std::borrow::Cow<'a, str>>,
}

impl Hook {
    /// [`Hook::wire`] as JSON, written on first use; `None` if it cannot be written.
    pub fn wire_json(&self) -> Option<&serde_json::value::RawValue> {
        self.wire_json.0.get_or_init(|| serde_json::value::to_raw_value(&self.wire()).ok()).as_deref()
    }

    pub fn wire(&self) -> HookRef<'_> {
        HookRef {
            id: &self.id,
            dialect: self.dialect,
            event: &self.event,
            kind: self.handler.kind(),
            matcher: self.matcher_text.as_deref(),
            status_message: self.family.status_message.as_deref(),
            command: self.command_text(),
        }
    }

    /// The command (exec form joined shell-style), URL or MCP tool the hook runs.
    pub fn command_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        if let Some(w) = &self.harness.written {
            return Some(Cow::Borrowed(w));
        }
        match &self.handler {
            HandlerSpec::Shell { command, args: None, .. } | HandlerSpec::Worker { command, args: None, .. } => {
                Some(Cow::Borrowed(command))
            }
            HandlerSpec::Shell { command, args: Some(a), .. } | HandlerSpec::Worker { command, args: Some(a), .. } => {
                let words = std::iter::once(command.as_str()).chain(a.iter().map(String::as_str));
                Some(Cow::Owned(shlex::try_join(words).unwrap_or_else(|_| command.clone())))
            }
            HandlerSpec::Webhook { url, .. } | HandlerSpec::Http { url, .. } => Some(Cow::Borrowed(url)),
            HandlerSpec::McpTool { server, tool, .. } => Some(Cow::Owned(format!("{server}/{tool}"))),
            HandlerSpec::Proxy { command: Some(c), .. } => Some(Cow::Borrowed(c)),
            HandlerSpec::Callback { name, .. } => Some(Cow::Borrowed(name)),
            HandlerSpec::Oracle { .. } | HandlerSpec::Proxy { command: None, .. } => None,
        }
    }

    /// Whether this is an entry `hookrt install` wrote (`hookrt hook <harness> --event …`, or
    /// the http endpoint of `hookrt serve`): it only means "run hookrt here", so hookrt never
    /// runs it as one of its own hooks.
    pub fn is_hookrt_entry(&self) -> bool {
        match &self.handler {
            HandlerSpec::Shell { .. } => self.command_text().is_some_and(|c| crate::vocab::hookrt_entry(&c).is_some()),
            HandlerSpec::Http { url, .. } | HandlerSpec::Webhook { url, .. } => crate::vocab::hookrt_url(url).is_some(),
            _ => false,
        }
    }

    /// Identity for de-duplication across files: the same event, reach, matcher, handler,
    /// timeout and name (Gemini keys its hooks on `name:command`) from two files run once
    /// (docs/configuration.md).
    pub fn identity(&self) -> String {
        let t = self.timeout.map(|t| t.to_string()).unwrap_or_default();
        let h = serde_json::to_string(&self.handler).unwrap_or_default();
        format!(
            "{:?}\u{0}{}\u{0}{:?}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
            self.origin,
            self.canonical.as_str(),
            self.tool_result,
            self.matcher_text.as_deref().unwrap_or("*"),
            h,
            t,
            self.harness.name.as_deref().unwrap_or("")
        )
    }
}

/// A notify-only outbound webhook (Hermes `hooks.outbound`): told about the events it wants,
/// never on the decision path.
#[derive(Debug, Clone, Serialize)]
pub struct OutboundTarget {
    /// The dialect of the file that declared it (its body's payload is shaped for it).
    pub dialect: Dialect,
    pub url: String,
    /// The events it wants, canonical and as its file spells them.
    pub events: Vec<(CanonicalEvent, String)>,
    /// Environment variable holding the HMAC secret.
    pub secret_env: Option<String>,
}
