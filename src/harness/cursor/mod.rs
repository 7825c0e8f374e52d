//! Cursor: `hooks.json` (system, user, project; docs/harnesses/cursor.md): camelCase events,
//! several of them for one class of tool (`beforeShellExecution`), stdin with
//! `conversation_id`/`generation_id`/`workspace_roots`, answers with `permission`,
//! `user_message`, `agent_message` and `followup_message`, and a `loop_limit` on follow-ups.

mod schema;

use crate::config::entry::{self, LoadSink};
use crate::harness::schema::given;
use schema::LoopLimit;
use crate::config::{Candidate, FileCtx, Hook, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Harness, NameClaim, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{
    Answer, Decision, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, ToolClass, ToolResult,
    BLOCKED_BY_HOOK,
};
use serde_json::{json, Map, Value};
use std::path::Path;

pub(crate) struct Cursor;

pub(crate) static EVENTS: [EventSpec; 18] = [
    EventSpec::class("beforeShellExecution", E::ToolBefore, ToolClass::Shell),
    EventSpec::class("afterShellExecution", E::ToolAfter, ToolClass::Shell),
    EventSpec::class("beforeMCPExecution", E::ToolBefore, ToolClass::Mcp),
    EventSpec::class("afterMCPExecution", E::ToolAfter, ToolClass::Mcp),
    EventSpec::class("beforeReadFile", E::ToolBefore, ToolClass::Read),
    EventSpec::class("afterFileEdit", E::ToolAfter, ToolClass::Write),
    EventSpec::plain("beforeSubmitPrompt", E::PromptSubmit),
    EventSpec::plain("stop", E::TurnStop),
    EventSpec::plain("sessionStart", E::SessionStart),
    EventSpec::plain("sessionEnd", E::SessionEnd),
    EventSpec::tool("preToolUse", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("postToolUse", E::ToolAfter, ToolResult::Success),
    EventSpec::tool("postToolUseFailure", E::ToolAfter, ToolResult::Failure),
    EventSpec::plain("subagentStart", E::SubagentStart),
    EventSpec::plain("subagentStop", E::SubagentEnd),
    EventSpec::plain("preCompact", E::CompactBefore),
    EventSpec::plain("afterAgentResponse", E::AgentResponse),
    EventSpec::plain("afterAgentThought", E::AgentThought),
];

/// Default `loop_limit` of a stop hook's follow-ups.
pub(crate) const DEFAULT_LOOP_LIMIT: u32 = 5;

/// Cursor's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["Shell"]),
    ("Read", &["Read"]),
    ("Write", &["Write"]),
    ("Edit", &["Edit"]),
    ("MultiEdit", &["MultiEdit"]),
    ("NotebookEdit", &["NotebookEdit"]),
    ("Grep", &["Grep"]),
    ("Glob", &["Glob"]),
    ("LS", &["LS"]),
    ("WebFetch", &["WebFetch"]),
    ("WebSearch", &["WebSearch"]),
    ("TodoWrite", &["TodoWrite"]),
    ("Task", &["Task"]),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    ..Descriptor::new(Dialect::Cursor, &EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Cursor {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<schema::CursorFile>();
        Some(&S)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.system.join("cursor/hooks.json"), Dialect::Cursor, Scope::System),
            Candidate::of(r.home.join(".cursor/hooks.json"), Dialect::Cursor, Scope::Global),
            Candidate::of(r.cwd.join(".cursor/hooks.json"), Dialect::Cursor, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path).1, ".cursor" | "cursor")
    }

    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| crate::harness::family::events::is_own_name(k, &EVENTS)).then_some(NameClaim::Own)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Cursor hooks.json"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input(ctx)
    }
}

impl Reader for Cursor {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.cursor/hooks.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse(ctx, root, sink)
    }
}

impl Planner for Cursor {
    fn names_tools(&self) -> bool {
        true
    }
}

impl AnswerReader for Cursor {
    fn read_answer(&self, a: &Answer, event: E, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        read(a.top, event, out);
    }

    fn json_only(&self) -> bool {
        true
    }

    /// A `followup_message` beyond the hook's `loop_limit` continues nothing.
    fn settle(&self, hook: &Hook, out: &mut RunOutcome, loop_count: u32) {
        if matches!(hook.canonical, E::TurnStop | E::SubagentEnd)
            && out.decision == Some(Decision::Deny)
            && hook.harness.loop_limit.is_some_and(|n| loop_count >= n)
        {
            tracing::warn!(hook = %hook.id, "followup_message after {loop_count} follow-ups (loop_limit); the agent stops");
            out.decision = None;
            out.reason = None;
        }
    }
}

impl Aggregator for Cursor {}

impl Replier for Cursor {}

impl Installer for Cursor {}

impl TrustGate for Cursor {}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Cursor's stdin: its own id fields, then the fields of the event's tool class taken from
/// `tool_input`, then whatever the host sent (a Cursor host's own fields win).
pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let (host, spelling, cwd) = (ctx.host, ctx.spelling, ctx.cwd);
    let mut m = Map::new();
    let get = |k: &str| host.get(k).cloned();
    m.insert("conversation_id".into(), get("session_id").unwrap_or_else(|| s("")));
    m.insert("generation_id".into(), ctx.turn_id.map(s).unwrap_or_else(|| s("")));
    m.insert("hook_event_name".into(), s(spelling));
    m.insert("workspace_roots".into(), json!([cwd]));
    m.insert("cwd".into(), s(cwd));
    if let Some(model) = ctx.model {
        m.insert("model".into(), s(model));
    }
    let input = host.get("tool_input").and_then(Value::as_object);
    let field = |k: &str| input.and_then(|i| i.get(k)).cloned();
    match EVENTS.iter().find(|e| e.name == spelling).and_then(|e| e.class) {
        Some(ToolClass::Shell) => {
            m.insert("command".into(), field("command").unwrap_or_else(|| s("")));
            if let Some(o) = host.get("tool_response") {
                m.insert("output".into(), o.clone());
            }
        }
        Some(ToolClass::Read) | Some(ToolClass::Write) => {
            m.insert("file_path".into(), field("file_path").unwrap_or_else(|| s("")));
            if let (Some(old), Some(new)) = (field("old_string"), field("new_string")) {
                m.insert("edits".into(), json!([{"old_string": old, "new_string": new}]));
            }
        }
        Some(ToolClass::Mcp) | None => {}
    }
    if spelling == "beforeSubmitPrompt" {
        m.insert("prompt".into(), get("prompt").unwrap_or_else(|| s("")));
    }
    m.extend(
        host.iter().filter(|(k, _)| *k != "session_id" && *k != "hook_event_name").map(|(k, v)| (k.clone(), v.clone())),
    );
    crate::harness::tools::rename_in(&mut m, Dialect::Cursor, "tool_name");
    if matches!(ctx.canonical, E::TurnStop | E::SubagentEnd) {
        m.entry("loop_count").or_insert(Value::from(ctx.loop_count));
    }
    m
}

/// Cursor's answer fields.
fn read(obj: &Map<String, Value>, event: E, out: &mut RunOutcome) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_owned);
    if let Some(d) = obj.get("permission").and_then(Value::as_str).and_then(Decision::from_word) {
        out.decision = Some(d);
    }
    if let Some(m) = text("user_message") {
        out.messages.push(m);
    }
    if let Some(a) = text("agent_message").or_else(|| text("user_message")) {
        if out.decision == Some(Decision::Deny) && out.reason.is_none() {
            out.reason = Some(a);
        }
    }
    if let Some(u) = obj.get("updated_input").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
    if let Some(c) = text("additional_context") {
        out.contexts.push(c);
    }
    // beforeSubmitPrompt: `continue: false` keeps the prompt from being sent.
    if event == E::PromptSubmit && obj.get("continue") == Some(&Value::Bool(false)) {
        out.stop = false;
        out.stop_reason = None;
        out.decision = Some(Decision::Deny);
        out.reason = text("user_message").or_else(|| Some(BLOCKED_BY_HOOK.to_owned()));
    }
    // stop / subagentStop: a follow-up message continues the agent, like a blocked Stop.
    if matches!(event, E::TurnStop | E::SubagentEnd) {
        if let Some(f) = text("followup_message") {
            out.decision = Some(Decision::Deny);
            out.reason = Some(f);
        }
    }
}

/// Parses a Cursor file, each entry through its file type; returns the number of hooks accepted.
fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(map) = entry::hooks_object(ctx, root, sink) else { return 0 };
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        let Some(read) = crate::harness::schema::entry::<schema::CursorHook>(e, sink) else { return false };
        let text = read.matcher.map(|m| m.0);
        let Some((matcher_text, matcher)) = e.compile_matcher(sink, spec.canonical, text, None) else { return false };
        let command = ctx.subst.apply(&read.command.0);
        let mut h =
            entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), entry::shell(command, Vec::new()));
        h.matcher_text = matcher_text;
        h.matcher = matcher;
        h.timeout = given(&read.timeout).map(|t| t.0);
        h.fail_closed = given(&read.fail_closed).copied().unwrap_or(false);
        h.harness.class = spec.class;
        h.harness.loop_limit = match read.loop_limit {
            LoopLimit::Default => Some(DEFAULT_LOOP_LIMIT),
            LoopLimit::Unlimited => None,
            LoopLimit::Limit(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
        };
        sink.hooks.push(h);
        true
    })
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    /// One file type read two ways: the loader keeps an entry whose optional fields have the
    /// wrong shape (each reported, read as left out) and drops one without a command, where
    /// `hookrt validate` refuses the file.
    #[test]
    fn the_loader_reads_through_the_file_type_leniently_and_validate_strictly() {
        let text = r#"{"version":1,"hooks":{
          "stop":[{"command":"a.sh","timeout":"soon","failClosed":"yes","loop_limit":-1},{"timeout":5}],
          "preToolUse":[{"command":"  ","matcher":"Shell"},{"type":"prompt","command":"b.sh"}]}}"#;
        let path = Path::new("/p/.cursor/hooks.json");
        let (hooks, diags) = crate::load::parse_text(path, Some(Dialect::Cursor), text);
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        for m in [
            "hooks[stop][0]: timeout must be a positive number of seconds",
            "hooks[stop][0]: failClosed must be true or false",
            "hooks[stop][0]: loop_limit must be a whole number or null",
            "hooks[stop][1]: missing command",
            "hooks[preToolUse][0]: missing command",
            "hooks[preToolUse][1]: only type \"command\" hooks are run by hookrt",
        ] {
            assert!(msgs.contains(&m), "{m:?} not in {msgs:#?}");
        }
        assert_eq!(msgs.len(), 6, "{msgs:#?}");
        assert_eq!(hooks.len(), 1);
        let h = &hooks[0];
        assert_eq!((h.timeout, h.fail_closed, h.harness.loop_limit), (None, false, Some(super::DEFAULT_LOOP_LIMIT)));

        let root: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        let problem = crate::harness::schema::check_root(Dialect::Cursor, &root);
        assert_eq!(problem.map(|p| p.at), Some("hooks[stop][0].timeout".to_owned()));

        let fine = r#"{"hooks":{"stop":[{"command":"a.sh","timeout":2.5,"failClosed":true,"loop_limit":null}]}}"#;
        let (hooks, diags) = crate::load::parse_text(path, Some(Dialect::Cursor), fine);
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!((hooks[0].timeout, hooks[0].fail_closed, hooks[0].harness.loop_limit), (Some(2.5), true, None));
    }
}
