//! Kimi Code CLI: `[[hooks]]` tables in `~/.kimi-code/config.toml` (`$KIMI_CODE_HOME`), each
//! exactly `event`, `matcher`, `command`, `timeout` (docs/harnesses/kimi.md), as Kimi Code 2.1.0
//! runs them (recorded by the kit in e2e/harnesses/kimi). Claude's event names and tool names,
//! `sh -c`, every hook of a moment in parallel with identical commands run once, answers read only
//! on PreToolUse, UserPromptSubmit and Stop, a deny only by exit 2 or `permissionDecision:
//! "deny"`, and everything else failing open.

mod parse;
mod schema;

use crate::config::{Candidate, FileCtx, HomeDir, LoadSink, Roots};
use crate::harness::stdin::{tool_output_text, Stdin, CANONICAL_ONLY};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{CanonicalEvent, Decision, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, ToolResult};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Kimi;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

/// The 13 events of Kimi Code's documentation; any other name makes Kimi reject the whole file.
pub(crate) static EVENTS: [EventSpec; 13] = [
    n("PreToolUse", E::ToolBefore),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Success),
    EventSpec::tool("PostToolUseFailure", E::ToolAfter, ToolResult::Failure),
    n("UserPromptSubmit", E::PromptSubmit),
    n("Stop", E::TurnStop),
    n("StopFailure", E::TurnFail),
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("SubagentStart", E::SubagentStart),
    n("SubagentStop", E::SubagentEnd),
    n("PreCompact", E::CompactBefore),
    n("PostCompact", E::CompactAfter),
    n("Notification", E::Notice),
];

/// Kimi's default hook timeout.
pub(crate) const DEFAULT_TIMEOUT_SECS: f64 = 30.0;

/// What it is, as data. Matchers: a JavaScript regular expression, unanchored; empty matches
/// everything.
/// Kimi's folder: `$KIMI_CODE_HOME`, else `~/.kimi-code`.
const HOME: HomeDir = HomeDir { var: "KIMI_CODE_HOME", default: ".kimi-code" };

static DESCRIPTOR: Descriptor = Descriptor {
    stdin_newline: false,
    home_dir: Some(HOME),
    ..Descriptor::new(Dialect::Kimi, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Kimi {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![Candidate::of(r.dir(HOME).join("config.toml"), Dialect::Kimi, Scope::Global)]
    }

    fn owns_path(&self, path: &Path) -> bool {
        crate::config::candidate::path_parts(path).1 == ".kimi-code"
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Kimi Code config.toml"
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<schema::KimiConfig>();
        Some(&S)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input(ctx)
    }

    /// Kimi adds nothing to a hook's environment.
    fn env(&self, _e: &EnvCtx) -> Vec<(String, String)> {
        Vec::new()
    }
}

impl Reader for Kimi {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/h/.kimi-code/config.toml"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse::parse(ctx, root, sink)
    }
}

impl Planner for Kimi {}

impl AnswerReader for Kimi {
    /// Exit 2 denies with stderr; exit 0 denies only with `permissionDecision: "deny"`, its
    /// `message` (or plain stdout) is context; any other exit, a timeout or a crash lets the
    /// operation go on. `updatedInput` and `additionalContext` are not read.
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

impl Aggregator for Kimi {
    /// `engine.ts` `blockDecision`: the first block in configured order gives the reason.
    fn aggregate(&self, _event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        crate::harness::family::aggregate::first_block_only(runs);
    }
}

impl Replier for Kimi {}

impl Installer for Kimi {}

impl TrustGate for Kimi {
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Kimi Code reads hooks from the user's own config only".into()
    }
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Kimi's stdin: `hook_event_name`, `session_id`, `cwd`, then the event's fields in snake_case
/// (`tool_call_id` for Claude's `tool_use_id`, `tool_output` for `tool_response`).
/// What Kimi Code 2.1.0 tells every hook it is (`client_type`), and the agent profile a session
/// starts in unless told otherwise (SessionStart's `profile`).
const CLIENT_TYPE: &str = "kimi_code_cli";
const DEFAULT_PROFILE: &str = "agent";

/// Kimi Code 2.1.0's stdin, as recorded (docs/harnesses/kimi.md): `client_type` after `cwd`, the
/// prompt as content parts with `is_steer`, SessionStart's `model` and `profile`.
fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.copy_or("client_type", &["client_type"], s(CLIENT_TYPE));
    m.copy("tool_name", &["tool_name"]);
    m.copy("tool_input", &["tool_input"]);
    m.copy("tool_call_id", &["tool_call_id", "tool_use_id"]);
    if let Some(v) = m.take(&["tool_output", "tool_response"]) {
        let text = if v.is_string() { v } else { s(&tool_output_text(&v)) };
        let key = if ctx.spelling == "PostToolUseFailure" { "error" } else { "tool_output" };
        m.put(key, text);
    }
    if let Some(p) = m.take(&["prompt"]) {
        // Kimi sends the prompt as its content parts; a host's text is one text part
        let parts = if let Value::String(text) = p { serde_json::json!([{"type": "text", "text": text}]) } else { p };
        m.put("prompt", parts);
        m.copy_or("is_steer", &["is_steer"], Value::Bool(false));
    }
    for k in ["stop_hook_active", "source", "reason", "trigger", "agent_name", "response"] {
        m.copy(k, &[k]);
    }
    if ctx.spelling == "SessionStart" {
        m.copy("model", &["model"]);
        m.copy_or("profile", &["profile"], s(DEFAULT_PROFILE));
    }
    m.rest(CANONICAL_ONLY);
    m.finish()
}

/// What Kimi says when a block gives no reason (`engine.ts` `blockDecision`).
fn blocked_by(event: CanonicalEvent) -> String {
    let name = EVENTS.iter().find(|s| s.canonical == event).map_or("PreToolUse", |s| s.name);
    format!("Blocked by {name} hook")
}

/// The events whose hooks' answers Kimi Code 2.1.0 reads (`AgentExternalHooksService`): the
/// others are fired without waiting (`fireAndForget`: PostToolUse, PostToolUseFailure,
/// Notification, StopFailure, PostCompact, SubagentStop) or awaited with the result dropped
/// (SessionStart, SessionEnd, SubagentStart, PreCompact).
const ANSWERED: [CanonicalEvent; 3] = [E::ToolBefore, E::PromptSubmit, E::TurnStop];

/// `runner.ts` `resultFromExitCode`: exit 2 blocks with stderr; exit 0 reads stdout; any other
/// exit lets the operation go on and its output is not read.
fn read(code: Option<i32>, event: CanonicalEvent, stdout: &str, stderr: &str, out: &mut RunOutcome) {
    if !ANSWERED.contains(&event) {
        return;
    }
    match code {
        Some(2) if event.blockable() => {
            out.answered = true;
            out.decision = Some(Decision::Deny);
            let reason = stderr.trim();
            out.reason = Some(if reason.is_empty() { blocked_by(event) } else { reason.to_owned() });
        }
        Some(0) => read_stdout(event, stdout, out),
        _ => {}
    }
}

/// `runner.ts` `structuredOutput`: a JSON object's `message` (else `hookSpecificOutput.message`);
/// a deny only by `hookSpecificOutput.permissionDecision: "deny"`, its reason
/// `hookSpecificOutput.permissionDecisionReason`. On `UserPromptSubmit` the message shown (and
/// passed to the model) is that `message`, else all of stdout (`user-prompt.ts`
/// `userPromptHookMessage`), and a block says its `message` before its reason.
fn read_stdout(event: CanonicalEvent, stdout: &str, out: &mut RunOutcome) {
    let text = stdout.trim();
    if text.is_empty() {
        return;
    }
    out.answered = true;
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => Some(o),
        _ => None,
    };
    let o = parsed.as_ref();
    let hso = o.and_then(|o| o.get("hookSpecificOutput")).and_then(Value::as_object);
    let scalar = |v: Option<&Value>| match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(n @ (Value::Number(_) | Value::Bool(_))) => Some(n.to_string()),
        _ => None,
    };
    let message = scalar(o.and_then(|o| o.get("message"))).or_else(|| scalar(hso.and_then(|h| h.get("message"))));
    let message = message.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    if hso.and_then(|h| h.get("permissionDecision")).and_then(Value::as_str) == Some("deny") {
        let reason = scalar(hso.and_then(|h| h.get("permissionDecisionReason")))
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        let said = if event == E::PromptSubmit { message.or(reason) } else { reason };
        out.decision = Some(Decision::Deny);
        out.reason = Some(said.unwrap_or_else(|| blocked_by(event)));
        return;
    }
    let shown = match event {
        E::PromptSubmit => message.or_else(|| Some(text.to_owned())),
        _ if o.is_none() => Some(text.to_owned()),
        _ => message,
    };
    out.contexts.extend(shown);
}
