//! Hermes Agent: the `hooks:` block of `$HERMES_HOME/config.yaml` (docs/harnesses/hermes.md), as
//! Hermes runs it: one flat entry per hook, the command split shell-style and run without a
//! shell, one hook after the other, first-use consent, matchers that must match the whole tool
//! name, answers read from stdout whatever the exit code — and only a few of them: a block on
//! `pre_tool_call`, a keep-going on `pre_verify`, context on `pre_llm_call`. From 0.20.1 it has
//! 37 events instead of 23, an exit 2 blocks `pre_tool_call`, and a `pre_tool_call` hook marked
//! `fail_closed` blocks when it fails ([`RELEASES`]; 0.19.0 is what the kit records).

mod install;
mod config;
mod input;
mod reply;
mod schema;
mod trust;
mod words;

use crate::config::{HomeDir, Candidate, FileCtx, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Planner, Reader, Replier, TrustGate};
use crate::harness::{Consent, Discovery, EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{
    CanonicalEvent, Change, Decision, Dialect, EventSpec, MatcherStyle, Releases, RunOutcome, Scope, ToolResult, Version,
};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Hermes;

const fn ev(name: &'static str, e: E) -> EventSpec {
    EventSpec::plain(name, e)
}

/// Hermes' `VALID_HOOKS` (`hermes_cli/plugins.py`): the 23 of 0.19.0–0.20.0, then the 14
/// [`ADDED_0_20_1`] (present at 0.20.2; 0.20.1 and 0.20.2 were released three days apart without
/// notes, so hookrt takes the earlier one).
pub(crate) static EVENTS: [EventSpec; 37] = [
    ev("on_session_start", E::SessionStart),
    ev("on_session_end", E::SessionEnd),
    ev("on_session_finalize", E::SessionFinalize),
    ev("on_session_reset", E::SessionReset),
    ev("pre_llm_call", E::PromptSubmit),
    ev("post_llm_call", E::AgentResponse),
    ev("pre_api_request", E::ModelBefore),
    ev("post_api_request", E::ModelAfter),
    ev("api_request_error", E::ModelError),
    EventSpec::tool("pre_tool_call", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("post_tool_call", E::ToolAfter, ToolResult::Either),
    ev("transform_terminal_output", E::TerminalOutput),
    ev("transform_tool_result", E::ToolResultReady),
    ev("transform_llm_output", E::ResponseTransform),
    ev("pre_verify", E::TurnStop),
    ev("subagent_start", E::SubagentStart),
    ev("subagent_stop", E::SubagentEnd),
    ev("pre_approval_request", E::PermissionRequest),
    ev("post_approval_response", E::ApprovalResponse),
    ev("pre_gateway_dispatch", E::GatewayDispatch),
    ev("kanban_task_claimed", E::TaskClaim),
    ev("kanban_task_completed", E::TaskComplete),
    ev("kanban_task_blocked", E::TaskBlock),
    ev("on_stream_start", E::StreamStart),
    ev("on_stream_delta", E::StreamDelta),
    ev("on_stream_end", E::StreamEnd),
    ev("on_interim_message", E::InterimMessage),
    ev("transform_api_error_classification", E::ErrorClassify),
    ev("on_skill_lifecycle", E::SkillLifecycle),
    ev("pre_transcription", E::Transcribe),
    ev("on_kanban_worker_spawned", E::TaskWorkerSpawn),
    ev("on_kanban_worker_exited", E::TaskWorkerExit),
    ev("on_kanban_worker_stale_claim", E::TaskStaleClaim),
    ev("on_kanban_task_updated", E::TaskUpdate),
    ev("on_kanban_dispatch_tick", E::TaskDispatchTick),
    ev("gateway_platform_event", E::GatewayEvent),
    ev("pre_command", E::CommandBefore),
];

/// The release whose rules changed: new events, exit 2 and `fail_closed` (hermes-agent PR
/// #80782, merged after 0.20.0 was tagged).
pub(crate) const V0_20_1: Version = Version::new(0, 20, 1);

/// The events Hermes has from 0.20.1 on.
pub(crate) const ADDED_0_20_1: &[&str] = &[
    "on_stream_start",
    "on_stream_delta",
    "on_stream_end",
    "on_interim_message",
    "transform_api_error_classification",
    "on_skill_lifecycle",
    "pre_transcription",
    "on_kanban_worker_spawned",
    "on_kanban_worker_exited",
    "on_kanban_worker_stale_claim",
    "on_kanban_task_updated",
    "on_kanban_dispatch_tick",
    "gateway_platform_event",
    "pre_command",
];

/// Hermes' releases as hookrt follows them (docs/harnesses/hermes.md "Changed in").
pub(crate) static RELEASES: Releases = Releases {
    newest: Version::new(0, 21, 0),
    recorded: Version::new(0, 19, 0),
    changes: &[
        Change {
            since: V0_20_1,
            what: "14 more events (37): on_stream_start/delta/end, on_interim_message, \
                   transform_api_error_classification (refused for shell hooks), on_skill_lifecycle, \
                   pre_transcription, on_kanban_worker_spawned/exited/stale_claim, on_kanban_task_updated, \
                   on_kanban_dispatch_tick, gateway_platform_event, pre_command",
        },
        Change {
            since: V0_20_1,
            what: "exit code 2 blocks pre_tool_call (message: a block in stdout, else stderr's first \
                   400 characters, else the default)",
        },
        Change {
            since: V0_20_1,
            what: "fail_closed (or failClosed) on a pre_tool_call hook: a hook that cannot start, \
                   times out or prints something other than a JSON object blocks",
        },
    ],
};

/// Whether a file or hook read by `version`'s rules (`None`: the newest) has 0.20.1's.
pub(crate) fn from_0_20_1(version: Option<Version>) -> bool {
    version.is_none_or(|v| v >= V0_20_1)
}

/// Hermes' message for a block without one.
const DEFAULT_BLOCK_MESSAGE: &str = "Blocked by shell hook.";

/// How much of stderr an exit-2 block quotes.
const STDERR_MESSAGE_LIMIT: usize = 400;

/// Hermes's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["terminal"]),
    ("Read", &["read_file"]),
    ("Write", &["write_file"]),
    ("Edit", &["patch"]),
    ("Grep", &["search_files"]),
    ("WebFetch", &["web_extract"]),
    ("WebSearch", &["web_search"]),
    ("TodoWrite", &["todo"]),
    ("Task", &["delegate_task"]),
    ("AskUserQuestion", &["clarify"]),
];

/// Hermes's folder: `$HERMES_HOME`, else `~/.hermes`.
pub(crate) const HOME: HomeDir = HomeDir { var: "HERMES_HOME", default: ".hermes" };

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    home_dir: Some(HOME),
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    path_fallback: Some(2),
    releases: Some(&RELEASES),
    ..Descriptor::new(Dialect::Hermes, &EVENTS, MatcherStyle::Full)
};

impl Harness for Hermes {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<schema::HermesConfig>();
        Some(&S)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![Candidate::of(r.dir(HOME).join("config.yaml"), Dialect::Hermes, Scope::Global)]
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (name, parent, _) = crate::config::candidate::path_parts(path);
        parent == ".hermes" || name.ends_with(".yaml") || name.ends_with(".yml")
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Hermes config.yaml"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    /// Hermes runs hooks with its own environment: the session, and where its files are.
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        let home = e.homes.resolve(e.home, HOME);
        vec![("HERMES_HOME".into(), home.display().to_string()), ("HERMES_SESSION_ID".into(), e.session_id.to_owned())]
    }
}

impl Reader for Hermes {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/h/.hermes/config.yaml"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        config::parse(ctx, root, sink)
    }
}

impl Planner for Hermes {
    fn names_tools(&self) -> bool {
        true
    }
}

impl AnswerReader for Hermes {
    fn read_run(
        &self,
        _code: Option<i32>,
        event: CanonicalEvent,
        stdout: &str,
        _stderr: &str,
        out: &mut RunOutcome,
    ) -> bool {
        read_run(event, stdout, out);
        true
    }

    /// From 0.20.1 an exit 2 blocks `pre_tool_call`: with the block stdout gave, else stderr's
    /// first 400 characters, else the default message (`_evaluate_result`).
    fn read_for_hook(&self, hook: &crate::config::Hook, out: &mut RunOutcome) {
        if hook.canonical != E::ToolBefore || !from_0_20_1(hook.harness.version) || out.exit_code != Some(Some(2)) {
            return;
        }
        if out.decision != Some(Decision::Deny) {
            let stderr: String = out.stderr.trim().chars().take(STDERR_MESSAGE_LIMIT).collect();
            out.decision = Some(Decision::Deny);
            out.reason = Some(if stderr.is_empty() { DEFAULT_BLOCK_MESSAGE.to_owned() } else { stderr });
        }
    }

    /// `fail_closed` (0.20.1 on, `pre_tool_call` only): a hook that could not start or timed
    /// out blocks, and so does one whose stdout is neither empty nor a JSON object, whatever its
    /// exit code; a hook killed by a signal with nothing on stdout does not.
    fn failed_closed(&self, hook: &crate::config::Hook, out: &RunOutcome, error: Option<&str>) -> Option<String> {
        if out.decision == Some(Decision::Deny) {
            return None;
        }
        let stdout = out.stdout.trim();
        let why = match error {
            Some(e) => e.to_owned(),
            None if !stdout.is_empty()
                && !matches!(serde_json::from_str::<Value>(stdout), Ok(Value::Object(_))) =>
            {
                "unparseable stdout (expected a JSON object)".to_owned()
            }
            None => return None,
        };
        let command = hook.harness.written.as_deref().unwrap_or_default();
        Some(format!("hook {command} failed closed: {why}"))
    }
}

impl Aggregator for Hermes {
    /// The first block's reason alone, on every event; every hook still runs.
    fn aggregate(&self, _event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        crate::harness::family::aggregate::first_block_only(runs);
    }
}

impl Replier for Hermes {
    fn reply(&self, said: &crate::harness::reply::Said) -> crate::harness::reply::Reply {
        reply::reply(said)
    }
}

impl TrustGate for Hermes {
    fn trust_vars(&self) -> &'static [&'static str] {
        &[trust::ACCEPT_HOOKS]
    }

    fn accepts_every_hook(&self, env: &crate::harness::trust::TrustEnv) -> bool {
        trust::accepts_all(env)
    }

    fn trust(
        &self,
        ctx: &crate::harness::trust::TrustCtx,
        hooks: &[crate::config::Hook],
    ) -> Vec<crate::harness::trust::Verdict> {
        trust::verdicts(ctx, hooks)
    }

    fn consent(&self) -> Consent {
        Consent::EveryHook
    }
}

/// Hermes' `_parse_response`: stdout is read on every exit code (a non-zero exit or a timeout
/// only logs); a JSON object may block `pre_tool_call` (`{"action":"block","message"}` or
/// `{"decision":"block","reason"}`), keep a turn going on `pre_verify` (`continue` or `block`
/// with a message), or add context on `pre_llm_call` (`{"context"}`). Anything else is ignored.
fn read_run(event: CanonicalEvent, stdout: &str, out: &mut RunOutcome) {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(stdout) else {
        if !stdout.is_empty() {
            tracing::warn!("hermes hook stdout is not a JSON object; ignored");
        }
        return;
    };
    out.answered = true;
    let text = |k: &str| o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    match event {
        E::ToolBefore => {
            let message = if text("action") == Some("block") {
                Some(text("message").or(text("reason")))
            } else if text("decision") == Some("block") {
                Some(text("reason").or(text("message")))
            } else {
                None
            };
            if let Some(m) = message {
                out.decision = Some(Decision::Deny);
                out.reason = Some(m.unwrap_or(DEFAULT_BLOCK_MESSAGE).to_owned());
            }
        }
        E::TurnStop => {
            let action = text("action").or(text("decision")).unwrap_or("").trim().to_lowercase();
            let message = text("message").or(text("reason")).map(str::trim).filter(|m| !m.is_empty());
            if let (true, Some(m)) = (matches!(action.as_str(), "continue" | "block"), message) {
                out.decision = Some(Decision::Deny);
                out.reason = Some(m.to_owned());
            }
        }
        E::PromptSubmit => {
            if let Some(c) = o.get("context").and_then(Value::as_str).filter(|c| !c.trim().is_empty()) {
                out.contexts.push(c.to_owned());
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(event: CanonicalEvent, stdout: &str) -> RunOutcome {
        let mut out = RunOutcome::default();
        read_run(event, stdout, &mut out);
        out
    }

    #[test]
    fn only_the_answers_hermes_reads_count() {
        let o = read(E::ToolBefore, r#"{"action":"block","message":"no"}"#);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no")));
        let o = read(E::ToolBefore, r#"{"decision":"block"}"#);
        assert_eq!(o.reason.as_deref(), Some(DEFAULT_BLOCK_MESSAGE));
        let o = read(E::ToolBefore, r#"{"hookSpecificOutput":{"permissionDecision":"deny"},"continue":false}"#);
        assert_eq!((o.decision, o.stop), (None, false));
        assert_eq!(read(E::ToolAfter, r#"{"decision":"block","reason":"x"}"#).decision, None);
        assert!(read(E::ToolAfter, r#"{"context":"c"}"#).contexts.is_empty());
        assert_eq!(read(E::PromptSubmit, r#"{"context":"c"}"#).contexts, ["c"]);
        let o = read(E::TurnStop, r#"{"action":"continue","message":" run the tests "}"#);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("run the tests")));
        assert_eq!(read(E::TurnStop, r#"{"decision":"block"}"#).decision, None);
        assert_eq!(read(E::ToolBefore, "blocked").decision, None);
    }
}
