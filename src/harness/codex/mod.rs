//! OpenAI Codex CLI: `hooks.json` and `config.toml` `[hooks]` tables, user and project
//! (docs/harnesses/codex.md). Claude's file shape and answers; stdin without a trailing newline,
//! `transcript_path: null` when unknown, `model` and `turn_id`. Codex has no failure event: its
//! `PostToolUse` groups run for every outcome.

mod install;
mod answer;
pub(crate) mod trust;

use crate::config::{HomeDir, Candidate, FileCtx, Hook, LoadSink, Roots};
use crate::harness::stdin::{tool_output_text, Stdin, CANONICAL_ONLY};
use crate::harness::trust::{TrustCtx, Verdict};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Planner, Reader, Replier, TrustGate};
use crate::harness::{Discovery, EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, CanonicalEvent, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, Shell};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Codex;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

pub(crate) static EVENTS: [EventSpec; 14] = [
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("UserPromptSubmit", E::PromptSubmit),
    n("PreToolUse", E::ToolBefore),
    n("PostToolUse", E::ToolAfter),
    n("Stop", E::TurnStop),
    n("SubagentStart", E::SubagentStart),
    n("SubagentStop", E::SubagentEnd),
    n("Notification", E::Notice),
    n("PreCompact", E::CompactBefore),
    n("PermissionRequest", E::PermissionRequest),
    n("Interrupt", E::TurnInterrupt),
    n("PostCompact", E::CompactAfter),
    n("PreModelRequest", E::ModelBefore),
];

/// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
pub(crate) const HOME: HomeDir = HomeDir { var: "CODEX_HOME", default: ".codex" };

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    home_dir: Some(HOME),
    stdin_newline: false,
    shell: Shell::Bash,
    path_fallback: Some(0),
    ..Descriptor::new(Dialect::Codex, &EVENTS, MatcherStyle::ExactOrRegex)
};

impl Harness for Codex {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    /// The published schema is `hooks.json`'s, which must have its `hooks`.
    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<CodexHooksFile>();
        Some(&S)
    }

    /// `config.toml` may have no `[hooks]` table.
    fn file_schema_at(&self, path: &Path) -> Option<&'static crate::harness::schema::FileSchema> {
        static TOML: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<CodexConfig>();
        if is_toml(path) {
            Some(&TOML)
        } else {
            self.file_schema()
        }
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.dir(HOME).join("hooks.json"), Dialect::Codex, Scope::Global),
            Candidate::of(r.dir(HOME).join("config.toml"), Dialect::Codex, Scope::Global),
            Candidate::of(r.cwd.join(".codex/hooks.json"), Dialect::Codex, Scope::Project),
            Candidate::of(r.cwd.join(".codex/config.toml"), Dialect::Codex, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (name, parent, _) = crate::config::candidate::path_parts(path);
        parent == ".codex" || name == "config.toml"
    }

    fn file_kind(&self, path: &Path) -> &'static str {
        if is_toml(path) {
            "Codex config.toml"
        } else {
            "Codex hooks.json"
        }
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        if ctx.canonical == E::ModelBefore {
            model_request(ctx)
        } else {
            input(ctx)
        }
    }

    /// Codex adds nothing to a hook's environment.
    fn env(&self, _e: &EnvCtx) -> Vec<(String, String)> {
        Vec::new()
    }
}

impl Reader for Codex {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.codex/hooks.json", "/p/.codex/config.toml"]
    }

    fn dedicated(&self, path: &Path) -> bool {
        !is_toml(path)
    }

    /// `[hooks.state]` of a `config.toml` is Codex's trust and enablement record, not an event.
    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        let state = root.get("hooks").and_then(Value::as_object).is_some_and(|h| h.contains_key("state"));
        let mut root = std::borrow::Cow::Borrowed(root);
        if is_toml(ctx.path) && state {
            if let Some(Value::Object(h)) = root.to_mut().get_mut("hooks") {
                h.remove("state");
            }
        }
        crate::harness::family::parse_member::<CodexFamily>(ctx, &root, self.dedicated(ctx.path), sink)
    }
}

impl Planner for Codex {}

impl AnswerReader for Codex {
    fn read_run(
        &self,
        code: Option<i32>,
        event: CanonicalEvent,
        stdout: &str,
        stderr: &str,
        out: &mut RunOutcome,
    ) -> bool {
        answer::read_run(code, event, stdout, stderr, out)
    }

    fn read_answer(&self, a: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        answer::read(a, event, out);
    }

    fn exit_rule(&self, code: Option<i32>, event: CanonicalEvent, _stdout: &str, _stderr: &str, out: &mut RunOutcome) {
        answer::exit_rule(code, event, out);
    }
}

impl Aggregator for Codex {
    /// `pre_tool_use.rs` and `user_prompt_submit.rs` keep the first blocking reason in configured
    /// order (`find_map`); `stop.rs` joins every block's reason with a blank line, as the
    /// default fold does, unless some hook stopped the turn.
    fn aggregate(&self, event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        use crate::harness::family::aggregate::{first_block_only, stop_cancels_blocks};
        match event {
            E::ToolBefore | E::PromptSubmit => first_block_only(runs),
            E::TurnStop | E::SubagentEnd => stop_cancels_blocks(runs),
            _ => {}
        }
    }
}

impl Replier for Codex {}

impl TrustGate for Codex {
    fn trust(&self, ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
        trust::verdicts(ctx, hooks)
    }

    fn project_trust(&self, p: &crate::harness::trust::ProjectCtx) -> Option<Verdict> {
        Some(trust::project(p))
    }
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Claude's fields Codex 0.171.0 does not send.
const NOT_SENT: &[&str] = &["prompt_id", "background_tasks", "session_crons", "duration_ms", "permission_suggestions"];

/// Codex's stdin (docs/harnesses/codex.md "Stdin"): `session_id`, `turn_id` (not on SessionStart and
/// SessionEnd), `transcript_path` (`null` when unknown), `cwd`, `hook_event_name`, `model` and
/// `permission_mode` (not on SessionEnd), then the event's fields; a tool's output is its text.
fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    if !matches!(ctx.canonical, E::SessionStart | E::SessionEnd) {
        turn_id(&mut m, ctx);
    }
    m.used(&["turn_id"]);
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], Value::Null);
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name", "model", "permission_mode"]);
    if ctx.canonical != E::SessionEnd {
        model(&mut m, ctx);
        m.copy_or("permission_mode", &["permission_mode"], s("default"));
    }
    m.rest(NOT_SENT);
    m.map_field("tool_response", |v| if v.is_string() { v.clone() } else { Value::String(tool_output_text(v)) });
    m.finish()
}

fn turn_id(m: &mut Stdin, ctx: &PayloadCtx) {
    if !m.copy("turn_id", &["turn_id", "turnId"]) {
        if let Some(t) = ctx.turn_id {
            m.put_str("turn_id", t);
        }
    }
}

fn model(m: &mut Stdin, ctx: &PayloadCtx) {
    if !m.copy("model", &["model"]) {
        if let Some(model) = ctx.model {
            m.put_str("model", model);
        }
    }
}

/// `PreModelRequest`: the request's own fields first, then the turn's.
fn model_request(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("kind", &["kind"], s("sampling"));
    m.copy("request_id", &["request_id"]);
    m.copy_or("attempt_number", &["attempt_number"], Value::from(1));
    let session = m.take(&["session_id", "sessionId"]).unwrap_or_else(|| s(""));
    m.put("session_id", session.clone());
    m.copy_or("thread_id", &["thread_id"], session);
    turn_id(&mut m, ctx);
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], Value::Null);
    model(&mut m, ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name", "llm_request"]);
    m.rest(CANONICAL_ONLY);
    m.finish()
}

fn is_toml(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".toml"))
}

/// Codex hooks use Claude's handlers and matchers.
struct CodexFamily;

impl crate::harness::family::schema::Family for CodexFamily {
    const NAME: &'static str = "Codex";
    const KINDS: &'static [&'static str] = &["command", "http", "prompt", "agent", "mcp_tool"];
    const FULL_HANDLERS: bool = true;
    const ENABLED_FLAG: bool = true;
    type Of = CodexDialect;
}

crate::harness::schema::dialect_marker!(CodexDialect, Dialect::Codex);

crate::harness::family::schema::events_object!(
    CodexEvents,
    CodexFamily,
    [
        SessionStart,
        SessionEnd,
        UserPromptSubmit,
        PreToolUse,
        PostToolUse,
        Stop,
        SubagentStart,
        SubagentStop,
        Notification,
        PreCompact,
        PermissionRequest,
        Interrupt,
        PostCompact,
        PreModelRequest
    ]
);

/// A Codex `hooks.json`.
type CodexHooksFile = crate::harness::schema::Dedicated<crate::harness::schema::HooksKey, CodexEvents>;

/// A Codex `config.toml`, whose `[hooks]` table is optional.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CodexConfig {
    #[allow(dead_code)]
    hooks: Option<CodexEvents>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_schema_knows_every_event_the_loader_reads() {
        assert_eq!(super::CodexEvents::NAMES, crate::harness::event_names(crate::vocab::Dialect::Codex));
    }
}
