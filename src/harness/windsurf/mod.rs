//! Windsurf Cascade: `hooks.json` (system, user, project; docs/harnesses/windsurf.md):
//! snake_case events, each for one kind of action, stdin `{agent_action_name, trajectory_id,
//! execution_id, timestamp, tool_info}`, exit code 2 to block a pre-hook, no matchers and no
//! timeouts.

mod schema;

use crate::config::entry::{self, LoadSink};
use crate::config::{Candidate, FileCtx, Roots};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Harness, NameClaim, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Scope, Severity, ToolClass};
use serde_json::{json, Map, Value};
use std::path::Path;

pub(crate) struct Windsurf;

pub(crate) static EVENTS: [EventSpec; 10] = [
    EventSpec::class("pre_read_code", E::ToolBefore, ToolClass::Read),
    EventSpec::class("post_read_code", E::ToolAfter, ToolClass::Read),
    EventSpec::class("pre_write_code", E::ToolBefore, ToolClass::Write),
    EventSpec::class("post_write_code", E::ToolAfter, ToolClass::Write),
    EventSpec::class("pre_run_command", E::ToolBefore, ToolClass::Shell),
    EventSpec::class("post_run_command", E::ToolAfter, ToolClass::Shell),
    EventSpec::class("pre_mcp_tool_use", E::ToolBefore, ToolClass::Mcp),
    EventSpec::class("post_mcp_tool_use", E::ToolAfter, ToolClass::Mcp),
    EventSpec::plain("pre_user_prompt", E::PromptSubmit),
    EventSpec::plain("post_cascade_response", E::AgentResponse),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor::new(Dialect::Windsurf, &EVENTS, MatcherStyle::Regex);

impl Harness for Windsurf {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<schema::WindsurfFile>();
        Some(&S)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.system.join("windsurf/hooks.json"), Dialect::Windsurf, Scope::System),
            Candidate::of(r.home.join(".codeium/windsurf/hooks.json"), Dialect::Windsurf, Scope::Global),
            Candidate::of(r.cwd.join(".windsurf/hooks.json"), Dialect::Windsurf, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path).1, ".windsurf" | "windsurf")
    }

    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| crate::harness::family::events::is_own_name(k, &EVENTS)).then_some(NameClaim::Own)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Windsurf hooks.json"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input(ctx)
    }
}

impl Reader for Windsurf {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.windsurf/hooks.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse(ctx, root, sink)
    }
}

impl Planner for Windsurf {
    fn names_tools(&self) -> bool {
        true
    }
}

impl AnswerReader for Windsurf {}

impl Aggregator for Windsurf {}

impl Replier for Windsurf {}

impl Installer for Windsurf {}

impl TrustGate for Windsurf {}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Windsurf's stdin; `tool_info` from the host's own `tool_info`, else built from
/// `tool_input` for the event's kind of action.
pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let (host, spelling, cwd, turn, ts) = (ctx.host, ctx.spelling, ctx.cwd, ctx.turn_id, ctx.ts.iso());
    let mut m = Map::new();
    m.insert("agent_action_name".into(), s(spelling));
    m.insert("trajectory_id".into(), host.get("session_id").cloned().unwrap_or_else(|| s("")));
    m.insert("execution_id".into(), turn.map(s).or_else(|| host.get("execution_id").cloned()).unwrap_or_else(|| s("")));
    m.insert("timestamp".into(), s(ts));
    let tool_info = match host.get("tool_info") {
        Some(t) => t.clone(),
        None => tool_info(host, spelling, cwd),
    };
    m.insert("tool_info".into(), tool_info);
    m
}

fn tool_info(host: &Map<String, Value>, spelling: &str, cwd: &str) -> Value {
    let input = host.get("tool_input").and_then(Value::as_object);
    let field = |k: &str| input.and_then(|i| i.get(k)).cloned().unwrap_or_else(|| s(""));
    match EVENTS.iter().find(|e| e.name == spelling).and_then(|e| e.class) {
        Some(ToolClass::Shell) => json!({"command_line": field("command"), "cwd": cwd}),
        Some(ToolClass::Read) => json!({"file_path": field("file_path")}),
        Some(ToolClass::Write) => {
            let edits = match (input.and_then(|i| i.get("old_string")), input.and_then(|i| i.get("new_string"))) {
                (Some(o), Some(n)) => json!([{"old_string": o, "new_string": n}]),
                _ => json!([{"old_string": "", "new_string": field("content")}]),
            };
            json!({"file_path": field("file_path"), "edits": edits})
        }
        Some(ToolClass::Mcp) => {
            let name = host.get("tool_name").and_then(Value::as_str).unwrap_or("");
            let mut parts = name.trim_start_matches("mcp__").splitn(2, "__");
            let server = parts.next().unwrap_or("");
            let tool = parts.next().unwrap_or("");
            json!({"mcp_server_name": server, "mcp_tool_name": tool, "mcp_tool_arguments": host.get("tool_input").cloned().unwrap_or(Value::Null)})
        }
        None if spelling == "pre_user_prompt" => {
            json!({"user_prompt": host.get("prompt").cloned().unwrap_or_else(|| s(""))})
        }
        None => {
            json!({"response": host.get("response").or_else(|| host.get("last_assistant_message")).cloned().unwrap_or_else(|| s(""))})
        }
    }
}

/// Parses a Windsurf file, each entry through its file type; returns the number of hooks accepted.
fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(map) = entry::hooks_object(ctx, root, sink) else { return 0 };
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        let Some(read) = crate::harness::schema::entry::<schema::WindsurfHook>(e, sink) else { return false };
        let command = ctx.subst.apply(&read.command.0);
        if e.obj.contains_key("matcher") {
            e.diag(sink, Severity::Warning, "Windsurf hooks have no matcher; ignored");
        }
        let mut h =
            entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), entry::shell(command, Vec::new()));
        h.harness.class = spec.class;
        h.harness.cwd = crate::harness::schema::given(&read.working_directory).cloned();
        sink.hooks.push(h);
        true
    })
}
