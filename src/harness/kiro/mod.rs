//! Kiro CLI 3.x: standalone hook files `.kiro/hooks/<name>.json` (and `~/.kiro/hooks/`),
//! `{"version": "v1", "hooks": [{name, trigger, matcher, action: {type, command | prompt},
//! timeout, enabled}]}` (docs/harnesses/kiro.md). Built from Kiro's documentation only
//! (kiro.dev/docs/cli/v3/hooks, /docs/cli/hooks): it does not run here. Command actions run
//! through the shell; exit 2 blocks the moments that can block with stderr for the model, stdout
//! of SessionStart and UserPromptSubmit hooks is context, everything else fails open.

mod parse;
mod schema;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::stdin::{tool_output_text, Stdin};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{CanonicalEvent, Decision, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, ToolResult};
use serde_json::{json, Map, Value};
use std::path::Path;

pub(crate) struct Kiro;

/// The v3 triggers hookrt has a moment for (the spec-task, file and manual triggers are read
/// and reported: Kiro's IDE and spec workflow fire them).
pub(crate) static EVENTS: [EventSpec; 5] = [
    EventSpec::plain("SessionStart", E::SessionStart),
    EventSpec::plain("UserPromptSubmit", E::PromptSubmit),
    EventSpec::tool("PreToolUse", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Either),
    EventSpec::plain("Stop", E::TurnStop),
];

/// Kiro's default hook timeout.
pub(crate) const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// Kiro's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["execute_bash"]),
    ("Read", &["fs_read"]),
    ("Write", &["fs_write"]),
    ("Edit", &["fs_write"]),
];

/// What it is, as data. Matchers: a regular expression on Kiro's tool names, unanchored.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    ..Descriptor::new(Dialect::Kiro, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Kiro {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        let json_files = |d: std::path::PathBuf| {
            crate::config::candidate::sorted_dir(&d).into_iter().filter(|p| p.extension().is_some_and(|e| e == "json"))
        };
        let mut v: Vec<Candidate> =
            json_files(r.home.join(".kiro/hooks")).map(|p| Candidate::of(p, Dialect::Kiro, Scope::Global)).collect();
        v.extend(json_files(r.cwd.join(".kiro/hooks")).map(|p| Candidate::of(p, Dialect::Kiro, Scope::Project)));
        v
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path), (_, "hooks", ".kiro"))
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Kiro hooks file"
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        Some(&schema::SCHEMA)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input(ctx)
    }

    /// `USER_PROMPT` on UserPromptSubmit (Kiro's hook-types page).
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        match e.input.get("prompt").and_then(Value::as_str) {
            Some(p) => vec![("USER_PROMPT".to_owned(), p.to_owned())],
            None => Vec::new(),
        }
    }
}

impl Reader for Kiro {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.kiro/hooks/a.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse::parse(ctx, root, sink)
    }
}

impl Planner for Kiro {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }
}

impl AnswerReader for Kiro {
    fn read_run(
        &self,
        code: Option<i32>,
        event: CanonicalEvent,
        stdout: &str,
        stderr: &str,
        out: &mut RunOutcome,
    ) -> bool {
        read(code, event, stdout, stderr, out);
        true
    }
}

impl Aggregator for Kiro {}

impl Replier for Kiro {}

impl Installer for Kiro {}

impl TrustGate for Kiro {}

/// Kiro's hook event: `hook_event_name`, `cwd`, then `tool_name`, `tool_input`, `tool_response`
/// (after the tool, its text) or the `prompt`.
fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.copy_or("cwd", &["cwd"], json!(ctx.cwd));
    if matches!(ctx.canonical, E::ToolBefore | E::ToolAfter) {
        m.copy_or("tool_name", &["tool_name"], json!(""));
        m.copy_or("tool_input", &["tool_input"], json!({}));
        if let Some(v) = m.take(&["tool_response"]) {
            let text = if v.is_string() { v } else { Value::String(tool_output_text(&v)) };
            m.put("tool_response", text);
        }
    }
    if ctx.canonical == E::PromptSubmit {
        m.copy_or("prompt", &["prompt"], json!(""));
    }
    let mut out = m.finish();
    crate::harness::tools::rename_in(&mut out, Dialect::Kiro, "tool_name");
    out
}

/// Exit 0: stdout is context on SessionStart and UserPromptSubmit; exit 2 blocks PreToolUse and
/// UserPromptSubmit with stderr as the reason; anything else is a warning to the user.
fn read(code: Option<i32>, event: CanonicalEvent, stdout: &str, stderr: &str, out: &mut RunOutcome) {
    match code {
        Some(0) if matches!(event, E::SessionStart | E::PromptSubmit) && !stdout.trim().is_empty() => {
            out.answered = true;
            out.contexts.push(stdout.trim().to_owned());
        }
        Some(2) if matches!(event, E::ToolBefore | E::PromptSubmit) => {
            out.decision = Some(Decision::Deny);
            let r = stderr.trim();
            out.reason = Some(if r.is_empty() { crate::vocab::BLOCKED_BY_HOOK.to_owned() } else { r.to_owned() });
        }
        _ => {}
    }
}
