//! One folder per harness whose hook files hookrt reads: its files and discovery rows, event
//! names, file reader, the stdin its hooks get, how their answers and exit codes are read, the
//! tool names it uses. Each folder implements [`Harness`]; [`registry`] lists them, and the
//! runtime reaches a harness only through that trait (docs/architecture.md).

/// Declares each harness's folder, from the registration table (`vocab/harnesses.rs`).
macro_rules! harness_folders {
    ($($(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident $($inside:ident)?,)*) => {
        $(pub(crate) mod $folder;)*
    };
}

crate::vocab::harnesses::harness_table!(harness_folders);

pub(crate) mod descriptor;
pub(crate) mod family;
pub(crate) mod install;
pub(crate) mod parts;
pub(crate) mod registry;
pub(crate) mod reply;
pub(crate) mod schema;
pub(crate) mod stdin;
pub(crate) mod tools;
pub(crate) mod trust;

use crate::config::{Candidate, HomeDir, HomeVars, PluginDir, Roots};
use crate::vocab::text::Stamp;
use crate::vocab::{Answer, CanonicalEvent, Dialect, EventSpec, MatcherStyle, Shell};
pub(crate) use descriptor::Descriptor;
use parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use serde_json::{Map, Value};
use std::path::Path;

pub use registry::{all_dispatch_names, event_names};
pub(crate) use registry::{of, recognise, resolve_any_name, resolve_dispatch_name, HARNESSES};

/// Everything the hooks of one dispatch share, for shaping one hook's stdin.
#[derive(Debug, Clone)]
pub(crate) struct PayloadCtx<'a> {
    /// The host's payload (Claude Code's shape is the canonical one).
    pub host: &'a Map<String, Value>,
    pub canonical: CanonicalEvent,
    /// The event as the hook's own file spells it.
    pub spelling: &'a str,
    pub cwd: &'a str,
    pub model: Option<&'a str>,
    pub turn_id: Option<&'a str>,
    /// The time of the dispatch.
    pub ts: &'a Stamp,
    /// Consecutive blocked Stops of this session so far (Cursor's `loop_count`).
    pub loop_count: u32,
    /// What earlier dispatches of this session said that later payloads repeat.
    pub session: &'a SessionFacts,
}

/// What a harness repeats on later events of a session: the prompt of the current turn (Gemini's
/// `AfterAgent` has it) and its id (Claude Code's `prompt_id`, on every event after
/// `UserPromptSubmit`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SessionFacts {
    pub prompt: Option<String>,
    pub prompt_id: Option<String>,
    /// The session most recently dispatched with an id, for moments whose payload has none
    /// (Hermes keeps `HERMES_SESSION_ID` for the whole process).
    pub last_session: Option<String>,
}

/// What a harness's environment variables for one hook are made of.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EnvCtx<'a> {
    /// The project directory (`CLAUDE_PROJECT_DIR`).
    pub project_dir: &'a str,
    /// The dispatch's working directory (the payload's `cwd`).
    pub cwd: &'a str,
    pub session_id: &'a str,
    pub home: &'a Path,
    /// The harnesses' folders' variables as the runtime read them.
    pub homes: &'a HomeVars,
    /// The file the hook was declared in.
    pub file: &'a Path,
    /// The hook's stdin (Droid exports its scalar fields as variables).
    pub input: &'a Map<String, Value>,
}

/// How discovery orders a harness's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Discovery {
    /// The JavaScript implementation's family (Claude, Codex, opencode, Hermes, `.agents`,
    /// native): every global file first, then every project file, then local ones.
    Family,
    /// The rows in the harness's own order, after the family's (Gemini, Cursor, Copilot,
    /// Windsurf).
    Own,
}

/// Why a harness takes a file's event names as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum NameClaim {
    /// A name only this harness uses (`BeforeTool`, `beforeShellExecution`): tried first.
    Own,
    /// Names of its shape (opencode's dotted, hookrt's colon names): tried after every `Own`.
    Shape,
}

/// How a harness's hooks are approved before they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Consent {
    /// Hooks of the gated scopes need `hookrt trust approve` (every dialect but the two below).
    Scoped,
    /// Every hook, whatever its scope, is listed; it is skipped while unapproved once any
    /// approval is required, and runs with a warning otherwise (Hermes' first-use consent).
    EveryHook,
    /// The harness keeps its own record (Gemini's `trusted_hooks.json`).
    Own,
}

/// What one harness is: its descriptor (name, events, files, stdin, environment, shell); its
/// engine's parts are the supertraits ([`parts`]). The defaults are the Claude Code family's.
pub(crate) trait Harness:
    Sync + Reader + Planner + AnswerReader + Aggregator + Replier + TrustGate + Installer
{
    /// What it is, as data (its folder's `DESCRIPTOR`).
    fn descriptor(&self) -> &'static Descriptor;

    fn dialect(&self) -> Dialect {
        self.descriptor().dialect
    }

    fn events(&self) -> &'static [EventSpec] {
        self.descriptor().events
    }

    fn matcher_style(&self) -> MatcherStyle {
        self.descriptor().matcher_style
    }

    fn discovery(&self) -> Discovery {
        self.descriptor().discovery
    }

    fn home_dir(&self) -> Option<HomeDir> {
        self.descriptor().home_dir
    }

    fn tool_names(&self) -> Option<&'static tools::ToolNames> {
        self.descriptor().tool_names
    }

    fn path_fallback(&self) -> Option<u8> {
        self.descriptor().path_fallback
    }

    fn stdin_newline(&self) -> bool {
        self.descriptor().stdin_newline
    }

    fn stdin_pretty(&self) -> bool {
        self.descriptor().stdin_pretty
    }

    fn env_removed(&self) -> &'static [&'static str] {
        self.descriptor().env_removed
    }

    fn env_file(&self) -> bool {
        self.descriptor().env_file
    }

    fn shell(&self) -> Shell {
        self.descriptor().shell
    }

    /// Its discovery rows, in reading order.
    fn files(&self, roots: Roots) -> Vec<Candidate>;

    /// Whether a file at this path is one of its files (for an explicitly named file).
    fn owns_path(&self, _path: &Path) -> bool {
        false
    }

    /// Whether these event names under `hooks` are its own (for an explicitly named file).
    fn owns_event_names(&self, _keys: &[&str]) -> Option<NameClaim> {
        None
    }

    /// How diagnostics name one of its files.
    fn file_kind(&self, path: &Path) -> &'static str;

    /// The type of its hook file, for `hookrt schema` and `hookrt validate`; `None` while it has
    /// none (or its hooks are not a file of settings, as Cline's).
    fn file_schema(&self) -> Option<&'static schema::FileSchema> {
        None
    }

    /// The schema describing the file at `path`: the published one, unless the dialect's files
    /// differ in shape (Codex's `config.toml`, Droid's `settings.json`).
    fn file_schema_at(&self, _path: &Path) -> Option<&'static schema::FileSchema> {
        self.file_schema()
    }

    /// The JSON object its hook reads on stdin.
    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value>;

    /// [`Harness::input`] as compact JSON, written without building the map (a callback's
    /// input, on every dispatch it matches); `None` where only the map is built.
    fn input_text(&self, _ctx: &PayloadCtx) -> Option<String> {
        None
    }

    /// Variables it adds to a hook's environment (the hook's own `env` comes after and wins).
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        vec![("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned())]
    }

    /// The command string as it reaches the shell (Gemini substitutes its variables first).
    fn expand_command(&self, command: &str, _env: &[(String, String)]) -> String {
        command.to_owned()
    }

    /// Policy files read before everything else (Claude Code's managed settings); `at: None` is
    /// the harness's own location.
    fn policy_files(&self, _at: Option<&Path>) -> Vec<Candidate> {
        Vec::new()
    }

    /// The files of the plugins a host names (Claude Code plugin directories).
    fn plugin_files(&self, _plugins: &[PluginDir], _home: &Path) -> Vec<Candidate> {
        Vec::new()
    }
}

/// A hook's output as an answer object: a JSON object, or a JSON string holding one (Gemini CLI's
/// and Qwen Code's `hookRunner.ts` parse a string result a second time).
pub(crate) fn object_answer(text: &str) -> Option<Map<String, Value>> {
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(Value::String(inner)) => serde_json::from_str::<Value>(&inner).ok(),
        other => other.ok(),
    };
    match parsed {
        Some(Value::Object(obj)) => Some(obj),
        _ => None,
    }
}

/// An answer object with its `hookSpecificOutput` when that names the dispatched event in any
/// harness's spelling (or names none); one naming another event is discarded as a whole.
pub(crate) fn answer_for(obj: &Map<String, Value>, event: CanonicalEvent) -> Answer<'_> {
    let hso = obj.get("hookSpecificOutput").and_then(Value::as_object).filter(|hso| {
        match hso.get("hookEventName").and_then(Value::as_str) {
            None => true,
            Some(name) => resolve_any_name(name) == Some(event),
        }
    });
    Answer { top: obj, hso }
}

/// A payload's session id under any harness's name (`""` when it has none).
pub(crate) fn session_of(payload: &Map<String, Value>) -> &str {
    let f = |k| crate::vocab::field(payload, k);
    f("session_id").or_else(|| f("sessionId")).and_then(Value::as_str).unwrap_or("")
}
