//! Augment's Auggie hook engine, as the JavaScript bundled in `@augmentcode/auggie` 0.36.0 ships
//! it (`augment.mjs`; Auggie needs an account and does not run here): `wao` (exit codes), `OIt`
//! (the answer's schema), `zIt` (its fields), `v7n` (several hooks), `_7n` (where each message
//! goes). Each case names the code it holds and runs both ways a host meets it — the Auggie
//! reader on one run, and a dispatch against a project's `.augment/settings.json`.

use crate::common::*;
use hookrt::{decode, CanonicalEvent as E, Decision, Dialect, Raw};
use serde_json::json;

/// One run and what Auggie does with it: the block's reason, the first context for the agent.
struct Case {
    upstream: &'static str,
    event: E,
    code: i32,
    stdout: &'static str,
    stderr: &'static str,
    block: Option<&'static str>,
    context: Option<&'static str>,
}

const fn pre(upstream: &'static str, code: i32, stdout: &'static str, stderr: &'static str) -> Case {
    Case { upstream, event: E::ToolBefore, code, stdout, stderr, block: None, context: None }
}

const CASES: &[Case] = &[
    Case {
        block: Some("no rm"),
        ..pre("wao: exit 2 on PreToolUse blocks; _7n: stderr is the message", 2, "", "no rm\n")
    },
    Case {
        block: Some("Hook blocked execution (no error message provided)"),
        ..pre("_7n: exit 2 with an empty stderr", 2, "", "")
    },
    pre("zIt: exit 2 with continue:true lets the tool run", 2, r#"{"continue":true}"#, "ignored"),
    Case {
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
    Case {
        context: Some("note for the agent"),
        ..pre(
            "_7n routeJsonFields: additionalContext goes to the agent",
            0,
            r#"{"additionalContext":"note for the agent"}"#,
            "",
        )
    },
    Case {
        event: E::SessionStart,
        context: Some("plain start context"),
        ..pre("_7n: plain stdout reaches the agent on SessionStart", 0, "plain start context\n", "")
    },
    Case {
        event: E::TurnStop,
        block: Some("keep going"),
        ..pre(
            "zIt: Stop's block is inside hookSpecificOutput",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"keep going"}}"#,
            "",
        )
    },
    Case { event: E::TurnStop, ..pre("wao: exit 2 only blocks PreToolUse", 2, "", "not a block") },
];

fn check(way: &str, mut got: impl FnMut(&Case) -> (Option<String>, Option<String>)) {
    let mut failed = Vec::new();
    for c in CASES {
        let (block, context) = got(c);
        if block.as_deref() != c.block || context.as_deref() != c.context {
            failed.push(format!("{}: {way} gave block {block:?} context {context:?}", c.upstream));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn auggie_answer_cases() {
    check("the reader", |c| {
        let raw = Raw { exit_code: Some(c.code), stdout: c.stdout.into(), stderr: c.stderr.into(), truncated: false };
        let o = decode(raw, c.event, Dialect::Auggie);
        ((o.decision == Some(Decision::Deny)).then(|| o.reason.unwrap_or_default()), o.contexts.into_iter().next())
    });
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
        let o = &r["outcome"];
        got.push((
            (o["decision"] == "deny").then(|| o["reason"].as_str().unwrap_or("").to_owned()),
            o["contexts"][0].as_str().map(str::to_owned),
        ));
    }
    let mut got = got.into_iter();
    check("a dispatch", |_| got.next().unwrap());
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
