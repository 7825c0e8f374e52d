//! One folder per harness whose hook files hookrt reads: its files and discovery rows, event
//! names, file reader, the stdin its hooks get, how their answers and exit codes are read, the
//! tool names it uses. Each folder implements [`Harness`]; [`registry`] lists them, and the
//! runtime reaches a harness only through that trait (docs/architecture.md).

/// Declares each harness's folder, from the registration table (`vocab/harnesses.rs`).
macro_rules! harness_folders {
    ($($(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident,)*) => {
        $(pub(crate) mod $folder;)*
    };
}

crate::vocab::harnesses::harness_table!(harness_folders);

pub(crate) mod family;
pub(crate) mod registry;
pub(crate) mod reply;
pub(crate) mod schema;
pub(crate) mod stdin;
pub(crate) mod tools;
pub(crate) mod trust;

use crate::config::{Candidate, FileCtx, HomeDir, HomeVars, Hook, LoadSink, PluginDir, Roots};
use crate::vocab::{
    Answer, CanonicalEvent, Diagnostic, Dialect, EventSpec, MatcherStyle, RunOutcome, Shell, BLOCKED_BY_HOOK,
};
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
    /// ISO time of the dispatch.
    pub ts: &'a str,
    /// The same time in epoch milliseconds (Copilot's `timestamp`).
    pub ts_ms: i64,
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

/// What one harness means. The defaults are the Claude Code family's rules.
pub(crate) trait Harness: Sync {
    fn dialect(&self) -> Dialect;

    /// The event names its files use (and a host may dispatch).
    fn events(&self) -> &'static [EventSpec];

    /// How a matcher string is read.
    fn matcher_style(&self) -> MatcherStyle;

    fn discovery(&self) -> Discovery {
        Discovery::Own
    }

    /// Its own folder when a variable moves it (`$CODEX_HOME`): hookrt reads the variable once
    /// with the other options, and its files, trust records and install entries follow it.
    fn home_dir(&self) -> Option<HomeDir> {
        None
    }

    /// Its own names of tools, by Claude's name; `None` when it names them as Claude Code does.
    fn tool_names(&self) -> Option<&'static tools::ToolNames> {
        None
    }

    /// Its discovery rows, in reading order.
    fn files(&self, roots: Roots) -> Vec<Candidate>;

    /// Whether a file at this path is one of its files (for an explicitly named file).
    fn owns_path(&self, _path: &Path) -> bool {
        false
    }

    /// When its path rule also takes names other harnesses' files have (`settings*.json`,
    /// `config.toml`, `*.yaml`, the `.agents` folder Antigravity shares): the rank at which it
    /// is tried after every harness whose rule is its own folder or file name, lowest first.
    fn path_fallback(&self) -> Option<u8> {
        None
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

    /// Whether a file found where `read_as`'s files live is really this harness's, by its
    /// root's shape (Antigravity's named hooks in a `.agents/hooks.json`).
    fn takes_over(&self, _read_as: Dialect, _root: &Map<String, Value>) -> bool {
        false
    }

    /// Whether each of its files is itself a hook (an executable named after its event, Cline)
    /// rather than a configuration to parse; [`Harness::parse`] then gets an empty root.
    fn scripts(&self) -> bool {
        false
    }

    /// Whether the file is dedicated to hooks (a missing root member is then an error) rather
    /// than a general settings file that merely has no hooks.
    fn dedicated(&self, _path: &Path) -> bool {
        true
    }

    /// Whether its JSON files may carry comments and trailing commas.
    fn comments(&self) -> bool {
        false
    }

    /// The root member holding its events (named in diagnostics).
    fn member(&self, _root: &Map<String, Value>) -> &'static str {
        "hooks"
    }

    /// Reads a file's root; returns how many matcher groups (or hooks) it accepted.
    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize;

    /// The JSON object its hook reads on stdin.
    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value>;

    /// Whether the stdin JSON ends with a newline.
    fn stdin_newline(&self) -> bool {
        true
    }

    /// Whether the stdin JSON is indented (two spaces, as `JSON.stringify(v, null, 2)`).
    fn stdin_pretty(&self) -> bool {
        false
    }

    /// The part of a clean run's stdout that holds the answer.
    fn answer_text<'a>(&self, stdout: &'a str) -> &'a str {
        stdout
    }

    /// Reads a finished run its own way, exit code and output together; `false` leaves it to
    /// the common rules (exit 0 answers, exit 2 denies) and [`Harness::exit_rule`].
    fn read_run(
        &self,
        _code: Option<i32>,
        _event: CanonicalEvent,
        _stdout: &str,
        _stderr: &str,
        _out: &mut RunOutcome,
    ) -> bool {
        false
    }

    /// Reads a JSON answer object.
    fn read_answer(&self, answer: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        crate::harness::family::answer::read(answer, event, out);
    }

    /// A clean run's stdout that is not JSON.
    fn plain_stdout(&self, stdout: &str, out: &mut RunOutcome) {
        out.plain_stdout = Some(stdout.to_owned());
    }

    /// The reason of an exit-2 deny with an empty stderr.
    fn exit_two_reason(&self, _stdout: &str) -> String {
        BLOCKED_BY_HOOK.to_owned()
    }

    /// Its own exit-code rules, applied after the common ones.
    fn exit_rule(
        &self,
        _code: Option<i32>,
        _event: CanonicalEvent,
        _stdout: &str,
        _stderr: &str,
        _out: &mut RunOutcome,
    ) {
    }

    /// Whether its hooks answer only in JSON (plain stdout is a broken answer, which
    /// `failClosed` turns into a deny).
    fn json_only(&self) -> bool {
        false
    }

    /// How an input update a hook returned applies to the tool's arguments.
    fn update_input(&self, _original: Option<&Value>, update: Value) -> Value {
        update
    }

    /// Reads a decoded run again where the hook's own entry changes the rules (Copilot reads a
    /// camelCase `preToolUse` hook by its own fields only); runs before the next hook of a
    /// sequence looks at the answer.
    fn read_for_hook(&self, _hook: &Hook, _out: &mut RunOutcome) {}

    /// What the harness decides once a run is in, beyond reading its answer.
    fn settle(&self, _hook: &Hook, _out: &mut RunOutcome, _loop_count: u32) {}

    /// What the harness puts between the reasons of several hooks that decided alike
    /// (`hookAggregator.ts` in Gemini CLI and Qwen Code: a newline).
    fn reason_separator(&self) -> &'static str {
        "\n\n"
    }

    /// The key under which the harness runs a hook once per event fire, whatever matcher
    /// group or file it came from (Gemini's `hookPlanner.ts` `deduplicateHooks`); `None`: the
    /// load-time rule alone (identical handlers from different files run once).
    fn once_per_fire(&self, _hook: &Hook) -> Option<String> {
        None
    }

    /// Whether the harness shows only the first block's reason, in configured order, when
    /// several of its hooks block on `event` (Hermes everywhere, Claude Code and Codex on
    /// PreToolUse); by default every reason is joined.
    fn first_block_wins(&self, _event: CanonicalEvent) -> bool {
        false
    }

    /// Whether the harness merges its hooks' answers to `event` field by field, a later answer's
    /// field replacing an earlier one's (Gemini CLI's `BeforeModel`/`AfterModel`,
    /// `hookAggregator.ts` `mergeWithFieldReplacement`): a later allow then undoes an earlier
    /// deny, and only the last reason, message and context are said.
    fn replaces_fields(&self, _event: CanonicalEvent) -> bool {
        false
    }

    /// Variables it adds to a hook's environment (the hook's own `env` comes after and wins).
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        vec![("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned())]
    }

    /// Variables of the host's environment it keeps from its hooks; a trailing `*` is a prefix.
    fn env_removed(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether its hooks of SessionStart, Setup, CwdChanged and FileChanged get a
    /// `CLAUDE_ENV_FILE` to export variables through.
    fn env_file(&self) -> bool {
        false
    }

    /// The shell its hooks' command strings run in.
    fn shell(&self) -> Shell {
        Shell::Sh
    }

    /// The command string as it reaches the shell (Gemini substitutes its variables first).
    fn expand_command(&self, command: &str, _env: &[(String, String)]) -> String {
        command.to_owned()
    }

    /// Whether it names tools its own way (`run_shell_command`), so a dispatch's tool name is
    /// also tried under its spelling.
    fn names_tools(&self) -> bool {
        false
    }

    /// Whether a matcher entry that is exactly Claude's name of a tool (`Bash`) matches it too
    /// (Qwen Code's tool aliases).
    fn claude_aliases(&self) -> bool {
        false
    }

    /// Whether its matchers see a tool only under its own spelling, never under the name a host
    /// dispatched (Copilot, whose PascalCase mode names tools as Claude does, sees both).
    fn own_tool_names_only(&self) -> bool {
        false
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

    /// Installed extensions a file switches on or off (Claude's `enabledPlugins`), in order.
    fn enabled_extensions(&self, _root: &Map<String, Value>) -> Vec<(String, bool)> {
        Vec::new()
    }

    /// The file of an installed extension by id, when it is installed.
    fn extension_file(&self, _home: &Path, _id: &str) -> Option<Candidate> {
        None
    }

    /// Whether a file's `disableAllHooks` switches every file's hooks off (otherwise it speaks
    /// for its own file only).
    fn switches_all(&self) -> bool {
        true
    }

    fn consent(&self) -> Consent {
        Consent::Scoped
    }

    /// Whether it would run each of a file's hooks, by its own trust records (read-only); a
    /// harness without any runs them all, for [`Harness::why_ungated`].
    fn trust(&self, _ctx: &trust::TrustCtx, hooks: &[Hook]) -> Vec<trust::Verdict> {
        trust::each(hooks, trust::Verdict::not_gated(self.why_ungated()))
    }

    /// Whether it trusts the project folder for hooks, by its own record (read-only), when hookrt
    /// runs inside it or a host says it is this harness; `None` when it keeps no such record.
    fn project_trust(&self, _p: &trust::ProjectCtx) -> Option<trust::Verdict> {
        None
    }

    /// Why a harness without trust records runs a file's hooks (shown by `hookrt trust`).
    fn why_ungated(&self) -> String {
        format!("{} runs its hooks without a trust record", self.dialect().as_str())
    }

    /// Its own hook's answer when hookrt runs as one (`hookrt hook <harness>`).
    fn reply(&self, said: &reply::Said) -> reply::Reply {
        crate::harness::family::reply::reply(said)
    }

    /// Drops the project hooks (from `first` on) its own trust record does not hold.
    fn keep_trusted(&self, _hooks: &mut Vec<Hook>, _first: usize, _roots: Roots, _diags: &mut Vec<Diagnostic>) {}
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
