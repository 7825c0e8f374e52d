//! Codex's own hook-engine tests (openai/codex `codex-rs/hooks/src/events/pre_tool_use.rs`,
//! `engine/output_parser.rs`), ported: each upstream test by name, asserting what Codex 0.171.0
//! does with one PreToolUse hook's run through the Codex dialect's reader.

use hookrt::{decode, CanonicalEvent, Decision, Dialect, Raw, RunOutcome};
use serde_json::json;

fn run(code: i32, stdout: &str, stderr: &str) -> RunOutcome {
    let raw = Raw { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), truncated: false };
    decode(raw, CanonicalEvent::ToolBefore, Dialect::Codex)
}

/// The answer's effect as Codex's `PreToolUseHandlerData` holds it: block reason, contexts, rewrite.
fn effect(o: &RunOutcome) -> (Option<&str>, Vec<&str>, Option<&serde_json::Value>) {
    let blocked = (o.decision == Some(Decision::Deny)).then(|| o.reason.as_deref().unwrap_or(""));
    (blocked, o.contexts.iter().map(String::as_str).collect(), o.update_input.as_ref())
}

const NOTHING: (Option<&str>, Vec<&str>, Option<&serde_json::Value>) = (None, Vec::new(), None);

fn pre(fields: serde_json::Value) -> String {
    let mut hso = json!({"hookEventName": "PreToolUse"});
    hso.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": hso }).to_string()
}

#[test]
fn permission_decision_deny_blocks_processing() {
    let o = run(0, &pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "do not run that"})), "");
    assert_eq!(effect(&o), (Some("do not run that"), vec![], None));
}

#[test]
fn permission_decision_allow_can_update_input() {
    let o = run(0, &pre(json!({"permissionDecision": "allow", "updatedInput": {"command": "echo rewritten"}})), "");
    assert_eq!(effect(&o), (None, vec![], Some(&json!({"command": "echo rewritten"}))));
}

#[test]
fn permission_decision_allow_without_updated_input_fails_open() {
    let o = run(0, &pre(json!({"permissionDecision": "allow", "additionalContext": "dropped"})), "");
    assert_eq!(effect(&o), NOTHING);
}

#[test]
fn deprecated_block_decision_blocks_processing() {
    let o = run(0, r#"{"decision":"block","reason":"do not run that"}"#, "");
    assert_eq!(effect(&o), (Some("do not run that"), vec![], None));
}

#[test]
fn deprecated_block_decision_with_additional_context_blocks_processing() {
    let answer = json!({"decision": "block", "reason": "do not run that",
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "remember this"}});
    let o = run(0, &answer.to_string(), "");
    assert_eq!(effect(&o), (Some("do not run that"), vec!["remember this"], None));
}

#[test]
fn unsupported_permission_decision_fails_open() {
    let o = run(0, &pre(json!({"permissionDecision": "ask", "permissionDecisionReason": "please confirm"})), "");
    assert_eq!(effect(&o), NOTHING);
}

#[test]
fn deprecated_approve_decision_fails_open() {
    assert_eq!(effect(&run(0, r#"{"decision":"approve"}"#, "")), NOTHING);
}

#[test]
fn additional_context_is_recorded() {
    let o = run(
        0,
        &pre(
            json!({"permissionDecision": "deny", "permissionDecisionReason": "do not run that", "additionalContext": "nope"}),
        ),
        "",
    );
    assert_eq!(effect(&o), (Some("do not run that"), vec!["nope"], None));
}

#[test]
fn plain_stdout_is_ignored() {
    assert_eq!(effect(&run(0, "hook ran successfully\n", "")), NOTHING);
}

#[test]
fn invalid_json_like_stdout_fails_instead_of_becoming_noop() {
    assert_eq!(effect(&run(0, "{\"decision\":\n", "")), NOTHING);
}

#[test]
fn exit_code_two_blocks_processing() {
    assert_eq!(effect(&run(2, "", "blocked by policy\n")), (Some("blocked by policy"), vec![], None));
}

/// "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr": the run
/// failed and the tool runs (recorded in the kit's X12 too).
#[test]
fn exit_code_two_without_stderr_does_not_block() {
    assert_eq!(effect(&run(2, "some stdout", "")), NOTHING);
}

/// The output parser's other refusals of a whole PreToolUse answer.
#[test]
fn unsupported_answers_change_nothing() {
    for answer in [
        json!({"continue": false, "stopReason": "halt"}),
        json!({"stopReason": "halt", "decision": "block", "reason": "r"}),
        json!({"suppressOutput": true, "decision": "block", "reason": "r"}),
        json!({"decision": "block"}),
        json!({"decision": "block", "reason": "  "}),
        json!({"reason": "reason without decision"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecisionReason": "no decision"}}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "r", "updatedInput": {"command": "x"}}}),
    ] {
        assert_eq!(effect(&run(0, &answer.to_string(), "")), NOTHING, "{answer}");
    }
}

/// Codex parses `hookEventName` as any of its events without comparing it with the one that
/// fired (recorded in the kit's X11: a deny naming PostToolUse blocks the tool).
#[test]
fn a_deny_naming_another_event_still_blocks() {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "json deny"}});
    assert_eq!(effect(&run(0, &answer.to_string(), "")), (Some("json deny"), vec![], None));
}

/// `decision: "block"` without a non-empty reason blocks nothing on the events that take it.
#[test]
fn a_block_without_a_reason_blocks_nothing() {
    for event in [CanonicalEvent::PromptSubmit, CanonicalEvent::TurnStop, CanonicalEvent::ToolAfter] {
        let raw = Raw {
            exit_code: Some(0),
            stdout: r#"{"decision":"block"}"#.into(),
            stderr: String::new(),
            truncated: false,
        };
        assert_eq!(decode(raw, event, Dialect::Codex).decision, None, "{event:?}");
        let raw = Raw { exit_code: Some(2), stdout: String::new(), stderr: String::new(), truncated: false };
        assert_eq!(decode(raw, event, Dialect::Codex).decision, None, "exit 2 on {event:?}");
    }
}

/// A project `.codex/hooks.json` with these hooks, dispatched once.
async fn codex_dispatch(hooks: serde_json::Value, event: &str, payload: serde_json::Value) -> serde_json::Value {
    let p = crate::common::Project::new();
    p.write("proj/.codex/hooks.json", &json!({ "hooks": hooks }).to_string());
    crate::common::to_json(&crate::common::dispatch(&p.runtime(), event, payload).await)
}

/// `events/common.rs` `unsupported_events_ignore_matchers`: `matcher_pattern_for_event` gives
/// no matcher on UserPromptSubmit and Stop, so their hooks run whatever the matcher says.
#[tokio::test]
async fn unsupported_events_ignore_matchers() {
    for (event, matcher, payload) in [
        ("UserPromptSubmit", "^hello", json!({"prompt": "bye"})),
        ("Stop", "^done$", json!({"stop_hook_active": false})),
    ] {
        let hooks = json!({ event: [{"matcher": matcher, "hooks": [{"type": "command", "command": "true"}]}] });
        let r = codex_dispatch(hooks, event, payload).await;
        assert_eq!(r["runs"].as_array().map(Vec::len), Some(1), "{event}: {r}");
    }
}

/// `events/common.rs` `supported_events_keep_matchers`: SessionStart's matcher still selects.
#[tokio::test]
async fn supported_events_keep_matchers() {
    let hooks =
        json!({"SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "true"}]}]});
    let r = codex_dispatch(hooks.clone(), "SessionStart", json!({"source": "clear"})).await;
    assert_eq!(r["runs"].as_array().map(Vec::len).unwrap_or(0), 0, "{r}");
    let r = codex_dispatch(hooks, "SessionStart", json!({"source": "resume"})).await;
    assert_eq!(r["runs"].as_array().map(Vec::len), Some(1), "{r}");
}

/// `events/pre_tool_use.rs` `run`: `block_reason = results.iter().find_map(..)` — of several
/// blocking hooks, the first in configured order gives the reason.
#[tokio::test]
async fn pre_tool_use_takes_the_first_blocking_reason_in_configured_order() {
    let deny = |why: &str| json!({"type": "command", "command": format!("sleep 0.{}; echo {why} >&2; exit 2", if why == "first" { 3 } else { 0 })});
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [deny("first"), deny("second")]}]});
    let r = codex_dispatch(hooks, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await;
    assert_eq!(r["outcome"]["decision"], "deny", "{r}");
    assert_eq!(r["outcome"]["reason"], "first", "{r}");
}

/// `events/stop.rs` `aggregate_results`: a Stop's block reasons are all kept, joined by a
/// blank line (`common::join_text_chunks`).
#[tokio::test]
async fn stop_joins_every_block_reason() {
    let block = |why: &str| json!({"type": "command", "command": format!("echo {why} >&2; exit 2")});
    let hooks = json!({"Stop": [{"hooks": [block("one"), block("two")]}]});
    let r = codex_dispatch(hooks, "Stop", json!({"stop_hook_active": false})).await;
    assert_eq!(r["outcome"]["reason"], "one\n\ntwo", "{r}");
}
