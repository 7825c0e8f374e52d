//! Augment's Auggie hook engine, as the JavaScript bundled in `@augmentcode/auggie` 0.36.0 ships
//! it (`augment.mjs`; Auggie needs an account and does not run here): `wao` (exit codes), `OIt`
//! (the answer's schema), `zIt` (its fields), `v7n` (several hooks), `_7n` (where each message
//! goes). Each case names the code it holds and runs both ways a host meets it — the Auggie
//! reader on one run, and a dispatch against a project's `.augment/settings.json`.

use crate::common::*;
use hookrt::{CanonicalEvent as E, Dialect};
use serde_json::json;

const fn pre(upstream: &'static str, code: i32, stdout: &'static str, stderr: &'static str) -> AnswerCase {
    AnswerCase { stderr, ..AnswerCase::new(upstream, E::ToolBefore, code, stdout) }
}

const CASES: &[AnswerCase] = &[
    AnswerCase {
        block: Some("no rm"),
        ..pre("wao: exit 2 on PreToolUse blocks; _7n: stderr is the message", 2, "", "no rm\n")
    },
    AnswerCase {
        block: Some("Hook blocked execution (no error message provided)"),
        ..pre("_7n: exit 2 with an empty stderr", 2, "", "")
    },
    pre("zIt: exit 2 with continue:true lets the tool run", 2, r#"{"continue":true}"#, "ignored"),
    AnswerCase {
        block: Some("json deny"),
        ..pre(
            "zIt: permissionDecision deny stops the tool",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json deny"}}"#,
            "",
        )
    },
    pre(
        "OIt: a hookSpecificOutput naming an event outside the six fails the schema: the answer is plain output",
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","permissionDecision":"deny"}}"#,
        "",
    ),
    pre("bao: a top-level decision is not in the schema", 0, r#"{"decision":"block","reason":"r"}"#, ""),
    pre("wao: exit 1 goes on and nothing is read", 1, r#"{"continue":false,"stopReason":"s"}"#, "err"),
    AnswerCase {
        said: Some("note for the agent"),
        ..pre(
            "_7n routeJsonFields: additionalContext goes to the agent",
            0,
            r#"{"additionalContext":"note for the agent"}"#,
            "",
        )
    },
    AnswerCase {
        event: E::SessionStart,
        said: Some("plain start context"),
        ..pre("_7n: plain stdout reaches the agent on SessionStart", 0, "plain start context\n", "")
    },
    AnswerCase {
        event: E::TurnStop,
        block: Some("keep going"),
        ..pre(
            "zIt: Stop's block is inside hookSpecificOutput",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"keep going"}}"#,
            "",
        )
    },
    AnswerCase { event: E::TurnStop, ..pre("wao: exit 2 only blocks PreToolUse", 2, "", "not a block") },
];

#[test]
fn auggie_answer_cases() {
    check_answers(CASES, "the reader", |c| read_said(Dialect::Auggie, c.event, c.code, c.stdout, c.stderr));
}

fn auggie_event(e: E) -> (&'static str, serde_json::Value) {
    match e {
        E::SessionStart => ("SessionStart", json!({"source": "startup"})),
        E::TurnStop => ("Stop", json!({"stop_hook_active": false})),
        _ => ("PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})),
    }
}

fn auggie_settings(p: &Project, event: &str, commands: &[String]) {
    let hooks: Vec<_> = commands.iter().map(|c| json!({"type": "command", "command": c})).collect();
    p.write(
        "proj/.augment/settings.json",
        &json!({"hooks": { event: [{"matcher": ".*", "hooks": hooks}]}}).to_string(),
    );
}

#[tokio::test]
async fn auggie_answer_cases_dispatched() {
    let mut got = Vec::new();
    for c in CASES {
        let p = Project::new();
        let (event, payload) = auggie_event(c.event);
        auggie_settings(&p, event, &[answering(&p, "a", c.code, c.stdout, c.stderr)]);
        let r = to_json(&dispatch(&p.runtime(), event, payload).await);
        got.push(outcome_said(&r));
    }
    let mut got = got.into_iter();
    check_answers(CASES, "a dispatch", |_| got.next().unwrap());
}

/// `v7n`: of several hooks (run together), the first that stops, in configured order, gives
/// the reason.
#[tokio::test]
async fn auggie_takes_the_first_stopping_hook_s_reason() {
    let p = Project::new();
    let deny = |why: &str| format!("sleep 0.{}; echo {why} >&2; exit 2", if why == "first" { 3 } else { 0 });
    auggie_settings(&p, "PreToolUse", &[deny("first"), deny("second")]);
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", auggie_event(E::ToolBefore).1).await);
    assert_eq!((&r["outcome"]["decision"], &r["outcome"]["reason"]), (&json!("deny"), &json!("first")), "{r}");
}
