//! Gemini CLI: `settings.json` (system, user, project) and extensions' `hooks/hooks.json`
//! (docs/harnesses/gemini.md). PascalCase events of its own, tool names such as
//! `run_shell_command`, timeouts in milliseconds, `decision` allow/deny/block answers,
//! `hookSpecificOutput.tool_input` that merges into the tool's arguments, `sequential` groups,
//! and `trusted_hooks.json` for project hooks.

mod install;
mod config;
mod input;
mod reply;
mod run;
mod schema;
mod trust;

use crate::config::candidate::sorted_dir;
use crate::config::{Candidate, FileCtx, Hook, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Planner, Reader, Replier, TrustGate};
use crate::harness::{Consent, EnvCtx, Harness, NameClaim, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{
    Answer, CanonicalEvent, Decision, Diagnostic, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, Shell,
    ToolResult,
};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Gemini;

pub(crate) static EVENTS: [EventSpec; 11] = [
    EventSpec::tool("BeforeTool", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("AfterTool", E::ToolAfter, ToolResult::Either),
    EventSpec::plain("BeforeAgent", E::PromptSubmit),
    EventSpec::plain("AfterAgent", E::TurnStop),
    EventSpec::plain("BeforeModel", E::ModelBefore),
    EventSpec::plain("AfterModel", E::ModelAfter),
    EventSpec::plain("BeforeToolSelection", E::ToolSelect),
    EventSpec::plain("SessionStart", E::SessionStart),
    EventSpec::plain("SessionEnd", E::SessionEnd),
    EventSpec::plain("Notification", E::Notice),
    EventSpec::plain("PreCompress", E::CompactBefore),
];

/// Default timeout of a Gemini hook, in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: f64 = 60_000.0;

/// Gemini's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["run_shell_command"]),
    ("Read", &["read_file", "read_many_files"]),
    ("Write", &["write_file"]),
    ("Edit", &["replace"]),
    ("Grep", &["search_file_content", "grep_search"]),
    ("Glob", &["glob"]),
    ("LS", &["list_directory"]),
    ("WebFetch", &["web_fetch"]),
    ("WebSearch", &["google_web_search"]),
    ("TodoWrite", &["write_todos"]),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    shell: Shell::Bash,
    ..Descriptor::new(Dialect::Gemini, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Gemini {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        Some(&schema::SCHEMA)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        let mut v = vec![
            Candidate::of(r.system.join("gemini-cli/settings.json"), Dialect::Gemini, Scope::System),
            Candidate::of(r.home.join(".gemini/settings.json"), Dialect::Gemini, Scope::Global),
            Candidate::of(r.cwd.join(".gemini/settings.json"), Dialect::Gemini, Scope::Project),
        ];
        v.extend(sorted_dir(&r.home.join(".gemini/extensions")).into_iter().map(|dir| Candidate {
            vars: vec![("extensionPath".into(), dir.display().to_string())],
            ..Candidate::of(dir.join("hooks/hooks.json"), Dialect::Gemini, Scope::Global)
        }));
        v
    }

    fn owns_path(&self, path: &Path) -> bool {
        crate::config::candidate::path_parts(path).1 == ".gemini"
    }

    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| crate::harness::family::events::is_own_name(k, &EVENTS)).then_some(NameClaim::Own)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Gemini CLI settings"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        run::env(e)
    }

    fn expand_command(&self, command: &str, env: &[(String, String)]) -> String {
        run::expand(command, env)
    }
}

impl Reader for Gemini {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.gemini/settings.json"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        config::parse(ctx, root, sink)
    }
}

impl Planner for Gemini {
    /// `hookEventHandler.ts` `firePreCompressEvent` plans with `{trigger}`, matched exactly.
    fn own_subject(&self, event: CanonicalEvent) -> Option<&'static [&'static str]> {
        (event == E::CompactBefore).then_some(&["trigger"])
    }

    /// `getHookKey`: the hook's `name` and command.
    fn once_per_fire(&self, hook: &Hook) -> Option<String> {
        let command = hook.command_text().unwrap_or_default();
        Some(format!("{}:{command}", hook.harness.name.as_deref().unwrap_or("")))
    }

    /// `tool_input` answers merge with and override the arguments they were given.
    fn update_input(&self, original: Option<&Value>, update: Value) -> Value {
        merge_input(original, update)
    }

    fn names_tools(&self) -> bool {
        true
    }
}

impl AnswerReader for Gemini {
    fn read_run(
        &self,
        code: Option<i32>,
        event: CanonicalEvent,
        stdout: &str,
        stderr: &str,
        out: &mut RunOutcome,
    ) -> bool {
        run::read_run(self, code, event, stdout, stderr, out)
    }

    /// Beyond Claude's fields: `decision` allow/deny/ask and `hookSpecificOutput.tool_input`.
    fn read_answer(&self, a: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        if let Some(d) = a.top.get("decision").and_then(Value::as_str).and_then(Decision::from_word) {
            out.decision = Some(d);
        }
        let tool_input = a.top.get("hookSpecificOutput").and_then(|h| h.get("tool_input"));
        if let Some(u) = tool_input.filter(|u| u.is_object()) {
            out.update_input = Some(u.clone());
        }
    }
}

impl Aggregator for Gemini {
    fn reason_separator(&self) -> &'static str {
        "\n"
    }

    /// `BeforeModel`/`AfterModel` answers merge field by field, a later one's replacing an
    /// earlier one's: a later allow undoes an earlier deny, only the last reason is said.
    fn aggregate(&self, event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        if matches!(event, E::ModelBefore | E::ModelAfter) {
            crate::harness::family::aggregate::replace_fields(runs);
        }
    }
}

impl Replier for Gemini {
    fn reply(&self, said: &crate::harness::reply::Said) -> crate::harness::reply::Reply {
        reply::reply(said)
    }
}

impl TrustGate for Gemini {
    fn trust_vars(&self) -> &'static [&'static str] {
        &[trust::TRUST_WORKSPACE]
    }

    fn trust(&self, ctx: &crate::harness::trust::TrustCtx, hooks: &[Hook]) -> Vec<crate::harness::trust::Verdict> {
        trust::verdicts(ctx, hooks)
    }

    fn consent(&self) -> Consent {
        Consent::Own
    }

    fn project_trust(&self, p: &crate::harness::trust::ProjectCtx) -> Option<crate::harness::trust::Verdict> {
        Some(trust::folder(p))
    }

    fn keep_trusted(&self, hooks: &mut Vec<Hook>, first: usize, roots: Roots, diags: &mut Vec<Diagnostic>) {
        trust::keep_trusted(hooks, first, roots, diags);
    }
}

/// `tool_input` answers merge with and override the arguments they were given.
pub(crate) fn merge_input(original: Option<&Value>, update: Value) -> Value {
    match (original, update) {
        (Some(Value::Object(o)), Value::Object(u)) => {
            let mut m = o.clone();
            m.extend(u);
            Value::Object(m)
        }
        (_, u) => u,
    }
}
