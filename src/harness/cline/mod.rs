//! Cline (CLI 3.x, `@cline/core`): no configuration file — each hook is an executable named
//! after its event (`PreToolUse`, `TaskStart.py`), found in `~/Documents/Cline/Hooks/`,
//! `~/.cline/hooks/`, `<project>/.clinerules/hooks/` and `<project>/.cline/hooks/`
//! (docs/harnesses/cline.md). Cline's own stdin (`taskId`, `hookName`, `preToolUse`), run by
//! interpreter (shebang, else extension, else `bash`), answers `{"cancel", "contextModification",
//! "errorMessage"}` (all of stdout, or its last `HOOK_CONTROL<tab>` line); exit codes mean nothing. Read from `@cline/core`'s source and recorded
//! from the real CLI 3.0.65 (e2e/harnesses/cline).

mod input;
mod script;

use crate::config::entry;
use crate::config::{Candidate, FileCtx, HandlerSpec, Hook, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{CanonicalEvent, Decision, Dialect, EventSpec, MatcherStyle, Order, RunOutcome, ToolResult};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Cline;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

/// The file names Cline runs (`HookConfigFileName`). `PreCompact` is listed by Cline but mapped
/// to no runtime event: a file of that name never runs, and hookrt warns about it.
pub(crate) static EVENTS: [EventSpec; 9] = [
    n("TaskStart", E::SessionStart),
    n("TaskResume", E::SessionStart),
    n("TaskCancel", E::TurnInterrupt),
    n("TaskComplete", E::TurnStop),
    n("TaskError", E::TurnFail),
    n("PreToolUse", E::ToolBefore),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Either),
    n("UserPromptSubmit", E::PromptSubmit),
    n("SessionShutdown", E::SessionEnd),
];

/// How long Cline waits for a PreToolUse or PostToolUse hook (`toolCallTimeoutMs` default).
const TOOL_TIMEOUT_SECS: f64 = 120.0;

/// Cline's internal name of an event, its stdin's `hookName`.
pub(crate) fn hook_name(spelling: &str) -> &'static str {
    match spelling {
        "TaskStart" => "agent_start",
        "TaskResume" => "agent_resume",
        "TaskCancel" => "agent_abort",
        "TaskComplete" => "agent_end",
        "TaskError" => "agent_error",
        "PreToolUse" => "tool_call",
        "PostToolUse" => "tool_result",
        "UserPromptSubmit" => "prompt_submit",
        _ => "session_shutdown",
    }
}

/// Whether Cline waits for hooks of this event and acts on their answers; the others run
/// detached, their output ignored.
fn blocking(spelling: &str) -> bool {
    !matches!(spelling, "TaskStart" | "TaskResume" | "UserPromptSubmit")
}

/// Cline's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["run_commands"]),
    ("Read", &["read_files"]),
    ("Write", &["editor"]),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    ..Descriptor::new(Dialect::Cline, &EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Cline {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    /// Every hook file of the four folders, in path order (Cline sorts them together).
    fn files(&self, r: Roots) -> Vec<Candidate> {
        script::files(r)
    }

    fn owns_path(&self, path: &Path) -> bool {
        script::event_of(path).is_some() && script::in_hooks_dir(path)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Cline hook file"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    /// Cline passes its own environment on unchanged.
    fn env(&self, _e: &EnvCtx) -> Vec<(String, String)> {
        Vec::new()
    }
}

impl Reader for Cline {
    fn scripts(&self) -> bool {
        true
    }

    /// One hook per file: its event from the file's name, its interpreter from its shebang or
    /// extension. Run without a shell, one after the other.
    fn parse(&self, ctx: &FileCtx, _root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        let Some(spelling) = script::event_of(ctx.path) else { return 0 };
        let Some(spec) = EVENTS.iter().find(|e| e.name == spelling) else {
            let m = format!("Cline never runs a {spelling} hook file (it maps that name to no event)");
            sink.file_diag(ctx, crate::vocab::Severity::Warning, Some(spelling), m);
            return 0;
        };
        let (command, args) = script::command(ctx.path);
        let handler = HandlerSpec::Shell { command, args: Some(args), env: Vec::new() };
        let mut h: Hook = entry::hook(ctx, spec.name, (spec.canonical, spec.result), "0", handler);
        // Two folders may hold a file of the same name: the id names the folder too.
        let (name, parent, grand) = crate::config::candidate::path_parts(ctx.path);
        h.id = format!("cline:{grand}/{parent}/{name}:{}:0", spec.name);
        if spec.name == "TaskResume" {
            // A resumed task is a SessionStart whose source is `resume`.
            h.matcher_text = Some("resume".into());
            h.matcher = crate::config::matcher::Matcher::Literal(vec!["resume".into()]);
        }
        h.harness.order = Order::Sequential;
        if blocking(spec.name) {
            if matches!(spec.canonical, E::ToolBefore | E::ToolAfter) {
                h.timeout = Some(TOOL_TIMEOUT_SECS);
            }
        } else {
            h.family.is_async = true;
        }
        sink.hooks.push(h);
        1
    }
}

impl Planner for Cline {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }
}

impl AnswerReader for Cline {
    /// `{"cancel": true}` stops the tool and the whole run with `errorMessage` (else the
    /// context) as the reason; `contextModification` / `context` (or a lone `errorMessage`) is context;
    /// `overrideInput` replaces a PreToolUse tool's input. Exit codes and non-JSON output are
    /// ignored.
    fn read_run(&self, _code: Option<i32>, event: CanonicalEvent, stdout: &str, _: &str, out: &mut RunOutcome) -> bool {
        read(event, stdout, out);
        true
    }
}

impl Aggregator for Cline {
    /// `hook-file-hooks.ts` `mergeHookControls` over every file of the event (each runs, one
    /// after the other, even after a cancel): a cancel anywhere stops the run with every
    /// cancelling hook's reason joined by a newline, and then no hook's context is injected
    /// (`stopOrContextResultFromControl`); otherwise the contexts are joined by a newline.
    fn aggregate(&self, _event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        if !runs.iter().any(|r| r.stop) {
            return;
        }
        let reasons: Vec<String> = runs.iter().filter(|r| r.stop).filter_map(|r| r.stop_reason.clone()).collect();
        let joined = (!reasons.is_empty()).then(|| reasons.join("\n"));
        let mut first = true;
        for r in runs.iter_mut() {
            r.contexts.clear();
            if r.stop {
                r.stop_reason = if first { joined.clone() } else { None };
                r.reason = r.stop_reason.clone();
                first = false;
            }
        }
    }

    fn reason_separator(&self) -> &'static str {
        "\n"
    }
}

impl Replier for Cline {}

impl Installer for Cline {}

impl TrustGate for Cline {
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Cline runs every hook file it finds".into()
    }
}

/// The text Cline parses as the answer (`subprocess-runner.ts` `parseStdout`): the last line
/// that starts `HOOK_CONTROL<tab>` (after trimming), without that prefix; else all of stdout.
fn control_text(stdout: &str) -> &str {
    let trimmed = stdout.trim();
    trimmed.lines().map(str::trim).filter_map(|l| l.strip_prefix(CONTROL_PREFIX)).next_back().unwrap_or(trimmed)
}

/// What a hook puts before its answer on a line of its own, so it may log on other lines.
const CONTROL_PREFIX: &str = "HOOK_CONTROL\t";

/// Longest context Cline passes on (`subprocess.ts` `truncateHookContext`), in characters.
const CONTEXT_LIMIT: usize = 50_000;

/// A context past [`CONTEXT_LIMIT`] cut there, saying so as Cline does.
fn truncated(c: String) -> String {
    match c.char_indices().nth(CONTEXT_LIMIT) {
        Some((at, _)) => format!("{}\n[hook context truncated: exceeded {CONTEXT_LIMIT} characters]", &c[..at]),
        None => c,
    }
}

fn read(event: CanonicalEvent, stdout: &str, out: &mut RunOutcome) {
    let trimmed = control_text(stdout);
    if trimmed.is_empty() {
        return;
    }
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(trimmed) else {
        tracing::warn!("cline hook stdout is not a JSON object; ignored");
        return;
    };
    out.answered = true;
    // Only the tool hooks' answers are acted on (`beforeTool` / `afterTool`); the others are
    // run for their side effects (a cancel on TaskComplete changes nothing, recorded in S7).
    if !matches!(event, E::ToolBefore | E::ToolAfter) {
        return;
    }
    let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_owned);
    let context = text("context").or_else(|| text("contextModification"));
    let error = text("errorMessage").filter(|m| !m.trim().is_empty());
    if o.get("cancel") == Some(&Value::Bool(true)) {
        // A cancel stops the whole run, not just the tool (recorded in S3: the task ends).
        let reason = error.or(context).filter(|r| !r.trim().is_empty());
        out.decision = Some(Decision::Deny);
        out.reason = reason.clone();
        out.stop = true;
        out.stop_reason = reason;
        return;
    }
    if let Some(c) = context.or(error).filter(|c| !c.trim().is_empty()) {
        out.contexts.push(truncated(c));
    }
    if event == E::ToolBefore {
        if let Some(i) = o.get("overrideInput") {
            out.update_input = Some(i.clone());
        }
    }
}
