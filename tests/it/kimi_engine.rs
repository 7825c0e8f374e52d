//! Kimi Code's own hook engine (MoonshotAI/kimi-code `packages/agent-core/src/session/hooks/`:
//! `runner.ts`, `engine.ts`, `user-prompt.ts`, read on the repository's main branch, and the
//! 2.1.0 bundle the kit runs: `AgentExternalHooksService`), ported: each case names the upstream
//! code it holds and runs both ways a host meets it — the Kimi reader on one run, and a
//! dispatch against `~/.kimi-code/config.toml`. The kit's recordings (e2e/recordings/kimi)
//! replay the same rules against the real Kimi Code 2.1.0.

use crate::common::*;
use hookrt::{CanonicalEvent as E, Dialect, Runtime};
use serde_json::json;

const fn pre(upstream: &'static str, code: i32, stdout: &'static str, stderr: &'static str) -> AnswerCase {
    AnswerCase { stderr, ..AnswerCase::new(upstream, E::ToolBefore, code, stdout) }
}

const CASES: &[AnswerCase] = &[
    AnswerCase {
        block: Some("no rm"),
        ..pre("runner.ts resultFromExitCode: exit 2 blocks with stderr", 2, "", " no rm \n")
    },
    AnswerCase {
        block: Some("Blocked by PreToolUse hook"),
        ..pre("engine.ts blockDecision: a block without a reason", 2, "", "")
    },
    AnswerCase {
        block: Some("json deny"),
        ..pre(
            "runner.ts structuredOutput: hookSpecificOutput.permissionDecision deny",
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"json deny"}}"#,
            "",
        )
    },
    AnswerCase {
        block: Some("Blocked by PreToolUse hook"),
        ..pre(
            "engine.ts blockDecision: a deny without a reason; the message is not the reason",
            0,
            r#"{"message":"shown","hookSpecificOutput":{"permissionDecision":"deny"}}"#,
            "",
        )
    },
    pre(
        "runner.ts HookJsonOutputSchema: a top-level permissionDecision is not read",
        0,
        r#"{"permissionDecision":"deny","permissionDecisionReason":"top"}"#,
        "",
    ),
    pre(
        "runner.ts resultFromExitCode: exit 1 fails open, its stdout unread",
        1,
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
        "",
    ),
    AnswerCase {
        block: Some("stderr wins"),
        ..pre(
            "runner.ts resultFromExitCode: exit 2 reads stderr only",
            2,
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"stdout"}}"#,
            "stderr wins",
        )
    },
    AnswerCase {
        said: Some("note"),
        ..pre(
            "runner.ts structuredOutput: message, else hookSpecificOutput.message",
            0,
            r#"{"hookSpecificOutput":{"message":" note "}}"#,
            "",
        )
    },
    AnswerCase {
        event: E::PromptSubmit,
        said: Some("remember the style guide"),
        ..pre("user-prompt.ts userPromptHookMessage: plain stdout is the message", 0, "remember the style guide\n", "")
    },
    AnswerCase {
        event: E::PromptSubmit,
        said: Some(r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#),
        ..pre(
            "user-prompt.ts userPromptHookMessage: without a message, all of stdout",
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#,
            "",
        )
    },
    AnswerCase {
        event: E::PromptSubmit,
        block: Some("shown first"),
        ..pre(
            "user-prompt.ts renderUserPromptHookBlockResult: a block's message before its reason",
            0,
            r#"{"message":"shown first","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#,
            "",
        )
    },
    AnswerCase {
        event: E::ToolAfter,
        ..pre(
            "AgentExternalHooksService.notifyPostToolUse: fireAndForget, the answer is never read",
            0,
            r#"{"message":"not passed on"}"#,
            "",
        )
    },
    AnswerCase {
        event: E::SessionStart,
        ..pre("AgentExternalHooksService.triggerSessionStart: awaited, its result dropped", 0, r#"{"message":"m"}"#, "")
    },
    AnswerCase {
        event: E::CompactBefore,
        ..pre("AgentExternalHooksService PreCompact: awaited, its result dropped", 0, "plain text", "")
    },
];

#[test]
fn kimi_answer_cases() {
    check_answers(CASES, "the reader", |c| read_said(Dialect::Kimi, c.event, c.code, c.stdout, c.stderr));
}

fn kimi_event(e: E) -> (&'static str, serde_json::Value) {
    match e {
        E::PromptSubmit => ("UserPromptSubmit", json!({"prompt": "hi"})),
        E::ToolAfter => {
            ("PostToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_output": "x"}))
        }
        E::SessionStart => ("SessionStart", json!({"source": "startup"})),
        E::CompactBefore => ("PreCompact", json!({"trigger": "auto"})),
        _ => ("PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})),
    }
}

/// A `~/.kimi-code/config.toml` with these `(event, matcher, command)` hooks.
fn kimi_config(p: &Project, hooks: &[(&str, &str, &str)]) -> Runtime {
    let tables: String = hooks
        .iter()
        .map(|(e, m, c)| format!("[[hooks]]\nevent = \"{e}\"\nmatcher = \"{m}\"\ncommand = {}\n\n", json!(c)))
        .collect();
    p.write("home/.kimi-code/config.toml", &tables);
    p.runtime()
}

#[tokio::test]
async fn kimi_answer_cases_dispatched() {
    let mut got = Vec::new();
    for c in CASES {
        let p = Project::new();
        let cmd = answering(&p, "a", c.code, c.stdout, c.stderr);
        let (event, payload) = kimi_event(c.event);
        let rt = kimi_config(&p, &[(event, "", &cmd)]);
        let r = to_json(&dispatch(&rt, event, payload).await);
        got.push(outcome_said(&r));
    }
    let mut got = got.into_iter();
    check_answers(CASES, "a dispatch", |_| got.next().unwrap());
}

/// `engine.ts`: `matches` (empty matches everything; an unanchored JavaScript regex; an invalid
/// one matches nothing), `matchingHooks` (identical commands run once), `blockDecision` (the
/// first block in configured order gives the reason).
#[tokio::test]
async fn kimi_engine_selects_dedupes_and_takes_the_first_block() {
    let p = Project::new();
    let rt = kimi_config(
        &p,
        &[
            ("PreToolUse", "", "echo first >&2; exit 2"),
            ("PreToolUse", "as", "echo second >&2; exit 2"),
            ("PreToolUse", "Bash", "echo first >&2; exit 2"),
            ("PreToolUse", "(", "echo never >&2; exit 2"),
            ("PreToolUse", "^Read$", "echo read >&2; exit 2"),
        ],
    );
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {}})).await);
    let ran: Vec<&str> = r["runs"].as_array().unwrap().iter().filter_map(|x| x["hook"]["command"].as_str()).collect();
    assert_eq!(ran, ["echo first >&2; exit 2", "echo second >&2; exit 2"], "{r}");
    assert_eq!((&r["outcome"]["decision"], &r["outcome"]["reason"]), (&json!("deny"), &json!("first")), "{r}");
}
