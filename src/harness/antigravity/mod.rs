//! Google Antigravity (`agy`): `hooks.json` in a customization root — `.agents/`, `.agent/`,
//! `_agents/` or `_agent/` — holding *named* hooks, each `{enabled, <Event>: […]}`
//! (docs/harnesses/antigravity.md). `.agents/hooks.json` is also the `.agents` dialect's file
//! (react-agent-mini's shape): the file's shape says whose it is. Built from documentation only
//! (Antigravity cannot be installed here): skillsaw's `antigravity-hooks-valid` rule (measured
//! against `agy` 1.1.25) for the file, and integrators' notes for stdin and answers.

mod input;
mod parse;
mod schema;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, CanonicalEvent, Decision, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, ToolResult};
use serde_json::{Map, Value};
use std::path::Path;


pub(crate) struct Antigravity;

/// The six events `agy` dispatches (matched case-insensitively in files).
pub(crate) static EVENTS: [EventSpec; 6] = [
    EventSpec::tool("PreToolUse", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Either),
    EventSpec::plain("PreInvocation", E::PromptSubmit),
    EventSpec::plain("PostInvocation", E::AgentResponse),
    EventSpec::plain("Stop", E::TurnStop),
    EventSpec::plain("SessionStart", E::SessionStart),
];

/// The event of a key, matched case-insensitively.
pub(super) fn event_of(key: &str) -> Option<EventSpec> {
    EVENTS.iter().find(|e| e.name.eq_ignore_ascii_case(key)).copied()
}

/// The global customization file under the home folder (`agy` 1.2.x; its hooks page lists
/// `~/.gemini/config/` beside the workspace's `.agents/`).
const GLOBAL_FILE: &str = ".gemini/config/hooks.json";

/// The customization roots besides `.agents/` (whose file the `.agents` dialect lists).
const ROOTS: [&str; 3] = [".agent", "_agents", "_agent"];

/// Antigravity's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["run_command"]),
    ("Read", &["view_file"]),
    ("Write", &["write_to_file"]),
    ("Edit", &["replace_file_content"]),
];

/// What it is, as data. Matchers: a regular expression on Antigravity's tool names; `""` and `*`
/// match every tool.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    ..Descriptor::new(Dialect::Antigravity, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Antigravity {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    /// The user's `~/.gemini/config/hooks.json` (Antigravity's global customization root, in the
    /// same named-hook shape), then the project's roots besides `.agents/`.
    fn files(&self, r: Roots) -> Vec<Candidate> {
        let global = Candidate::of(r.home.join(GLOBAL_FILE), Dialect::Antigravity, Scope::Global);
        let project = ROOTS
            .iter()
            .map(|d| Candidate::of(r.cwd.join(d).join("hooks.json"), Dialect::Antigravity, Scope::Project));
        std::iter::once(global).chain(project).collect()
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (base, parent, grandparent) = crate::config::candidate::path_parts(path);
        base == "hooks.json" && (ROOTS.contains(&parent) || (parent == "config" && grandparent == ".gemini"))
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Antigravity hooks.json"
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema =
            crate::harness::schema::FileSchema::of::<schema::AntigravityFile>();
        Some(&S)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }
}

impl Reader for Antigravity {
    fn event_names_any_case(&self) -> bool {
        true
    }

    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.agent/hooks.json"]
    }

    /// Named hooks (`{"guard": {"PreToolUse": …}}`) in a `.agents/hooks.json` are Antigravity's,
    /// not the `.agents` dialect's event lists.
    fn takes_over(&self, read_as: Dialect, root: &Map<String, Value>) -> bool {
        read_as == Dialect::Agents && parse::is_named_hooks(root)
    }

    fn member(&self, _root: &Map<String, Value>) -> &'static str {
        ""
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse::parse(ctx, root, sink)
    }
}

impl Planner for Antigravity {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }
}

impl AnswerReader for Antigravity {
    /// `{"decision": "allow" | "deny" | "ask", "reason"}`; on Stop `"continue"` keeps the agent
    /// going; `injectSteps` messages reach the model. Claude's fields are read too.
    fn read_answer(&self, a: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        read(a.top, event, out);
    }
}

impl Aggregator for Antigravity {}

impl Replier for Antigravity {}

impl Installer for Antigravity {}

impl TrustGate for Antigravity {}

fn read(top: &Map<String, Value>, event: CanonicalEvent, out: &mut RunOutcome) {
    let decision = match top.get("decision").and_then(Value::as_str) {
        Some("continue") if event == E::TurnStop => Some(Decision::Deny),
        Some("block") => Some(Decision::Deny),
        Some(w) => Decision::from_word(w),
        None => None,
    };
    if let Some(d) = decision {
        out.decision = Some(d);
        if let Some(r) = top.get("reason").and_then(Value::as_str) {
            out.reason = Some(r.to_owned());
        }
    }
    let steps = top.get("injectSteps").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for step in steps {
        let text = step
            .get("ephemeralMessage")
            .or_else(|| step.get("userMessage"))
            .or_else(|| step.get("content"))
            .and_then(Value::as_str);
        if let Some(t) = text.filter(|t| !t.is_empty()) {
            out.contexts.push(t.to_owned());
        }
    }
}
