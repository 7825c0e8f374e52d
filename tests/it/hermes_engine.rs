//! Hermes Agent's own shell-hook rules (NousResearch/hermes-agent `agent/shell_hooks.py` as the
//! 0.19.0 wheel the kit installs ships it: `_make_callback`, `_parse_response`,
//! `ShellHookSpec.matches_tool`), ported: each case names the upstream code it holds.

use crate::common::*;
use hookrt::{CanonicalEvent as E, Dialect, Runtime};
use serde_json::json;

/// A case of Hermes' (`stderr`, `block`, `said` as `AnswerCase`).
const fn case(upstream: &'static str, event: E, code: i32, stdout: &'static str) -> AnswerCase {
    AnswerCase::new(upstream, event, code, stdout)
}

const CASES: &[AnswerCase] = &[
    AnswerCase {
        block: Some("no"),
        ..case(
            "_parse_response: pre_tool_call {action: block, message}",
            E::ToolBefore,
            0,
            r#"{"action":"block","message":"no"}"#,
        )
    },
    AnswerCase {
        block: Some("why"),
        ..case(
            "_parse_response: Claude's {decision: block, reason} is translated",
            E::ToolBefore,
            0,
            r#"{"decision":"block","reason":"why"}"#,
        )
    },
    AnswerCase {
        block: Some("msg"),
        ..case(
            "_block_message: action:block prefers message over reason",
            E::ToolBefore,
            0,
            r#"{"action":"block","message":"msg","reason":"why"}"#,
        )
    },
    AnswerCase {
        block: Some("why"),
        ..case(
            "_block_message: decision:block prefers reason over message",
            E::ToolBefore,
            0,
            r#"{"decision":"block","message":"msg","reason":"why"}"#,
        )
    },
    AnswerCase {
        block: Some("Blocked by shell hook."),
        ..case(
            "_block_message: a block without a message gets _DEFAULT_BLOCK_MESSAGE",
            E::ToolBefore,
            0,
            r#"{"action":"block"}"#,
        )
    },
    AnswerCase {
        block: Some("why"),
        ..case(
            "_make_callback: a non-zero exit only logs; stdout is still parsed",
            E::ToolBefore,
            1,
            r#"{"decision":"block","reason":"why"}"#,
        )
    },
    AnswerCase {
        stderr: "blocked",
        ..case("_make_callback (0.19.0): exit 2 with stderr blocks nothing", E::ToolBefore, 2, "")
    },
    case("_parse_response: stdout that is not JSON is ignored", E::ToolBefore, 0, "block"),
    case("_parse_response: a JSON array is ignored", E::ToolBefore, 0, r#"[{"action":"block"}]"#),
    case(
        "_parse_response: Claude's permissionDecision is not read",
        E::ToolBefore,
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
    ),
    case("_parse_response: post_tool_call blocks nothing", E::ToolAfter, 0, r#"{"decision":"block","reason":"x"}"#),
    AnswerCase {
        said: Some("remember this"),
        ..case("_parse_response: pre_llm_call {context}", E::PromptSubmit, 0, r#"{"context":"remember this"}"#)
    },
    case("_parse_response: a blank context is nothing", E::PromptSubmit, 0, r#"{"context":"   "}"#),
    AnswerCase {
        block: Some("run the tests"),
        ..case(
            "_parse_response: pre_verify continue with a message keeps going",
            E::TurnStop,
            0,
            r#"{"action":"continue","message":" run the tests "}"#,
        )
    },
    AnswerCase {
        block: Some("again"),
        ..case(
            "_parse_response: pre_verify Claude-style decision:block with a reason",
            E::TurnStop,
            0,
            r#"{"decision":"Block","reason":"again"}"#,
        )
    },
    case(
        "_parse_response: pre_verify continue without a message is a no-op",
        E::TurnStop,
        0,
        r#"{"action":"continue"}"#,
    ),
];

/// Hermes' name of the event and the payload a host gives it there.
fn hermes_event(e: E) -> (&'static str, serde_json::Value) {
    let tool = json!({"tool_name": "terminal", "tool_input": {"command": "ls"}});
    match e {
        E::ToolAfter => (
            "post_tool_call",
            json!({"tool_name": "terminal", "tool_input": {"command": "ls"}, "extra": {"result": "ok"}}),
        ),
        E::PromptSubmit => ("pre_llm_call", json!({"extra": {"user_message": "hi"}})),
        E::TurnStop => ("pre_verify", json!({})),
        _ => ("pre_tool_call", tool),
    }
}

/// A `$HERMES_HOME/config.yaml` whose one shell hook on the case's event answers as it says.
fn hermes_home(p: &Project, c: &AnswerCase) -> String {
    let cmd = answering(p, "a", c.code, c.stdout, c.stderr);
    let config =
        format!("hooks:\n  {}:\n    - command: {}\n", hermes_event(c.event).0, serde_json::to_string(&cmd).unwrap());
    p.write("hh/config.yaml", &config);
    p.path("hh").display().to_string()
}

/// The Hermes reader on one run.
#[test]
fn hermes_answer_cases() {
    check_answers(CASES, "the reader", |c| read_said(Dialect::Hermes, c.event, c.code, c.stdout, c.stderr));
}

/// The same runs from a hook in `$HERMES_HOME/config.yaml`, dispatched by a host.
#[tokio::test]
async fn hermes_answer_cases_dispatched() {
    let mut got = Vec::new();
    for c in CASES {
        let p = Project::new();
        let env = [("HERMES_HOME".to_owned(), hermes_home(&p, c)), ("HERMES_ACCEPT_HOOKS".to_owned(), "1".to_owned())];
        let rt = Runtime::with_env(&p.options(), &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
            .unwrap();
        let (event, payload) = hermes_event(c.event);
        got.push(outcome_said(&to_json(&dispatch(&rt, event, payload).await)));
    }
    let mut got = got.into_iter();
    check_answers(CASES, "a dispatch", |_| got.next().unwrap());
}

/// The same runs inside Hermes: `hookrt hook hermes` runs the hook, and its own answer, read as
/// Hermes reads a shell hook's, has the same effect.
#[test]
fn hermes_answer_cases_inside_hermes() {
    check_answers(CASES, "hookrt hook hermes", |c| {
        let p = Project::new();
        let env = [("HERMES_HOME", hermes_home(&p, c)), ("HERMES_ACCEPT_HOOKS", "1".to_owned())];
        let (event, stdin) = hermes_event(c.event);
        let out = inside(&p, "hermes", event, stdin, &env, &[]);
        read_said(Dialect::Hermes, c.event, out.code, &out.stdout, &out.stderr)
    });
}

/// `ShellHookSpec.__post_init__` and `matches_tool`: a matcher is stripped, must match the whole
/// tool name (`fullmatch`), falls back to equality when it is not a regex, and counts only on
/// `pre_tool_call`/`post_tool_call`.
#[tokio::test]
async fn hermes_matchers() {
    let p = Project::new();
    let hook = |m: &str, tag: &str| format!("    - command: \"true {tag}\"\n      matcher: \"{m}\"\n");
    let config = format!(
        "hooks:\n  pre_tool_call:\n{}{}{}{}  on_session_start:\n{}",
        hook("term", "partial"),
        hook(" terminal ", "padded"),
        hook("termin(al", "literal"),
        hook("term.*", "regex"),
        hook("nothing", "session"),
    );
    p.write("hh/config.yaml", &config);
    let env = [
        ("HERMES_HOME".to_owned(), p.path("hh").display().to_string()),
        ("HERMES_ACCEPT_HOOKS".to_owned(), "1".to_owned()),
    ];
    let rt =
        Runtime::with_env(&p.options(), &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())).unwrap();
    let ran = |r: serde_json::Value| -> Vec<String> {
        r["runs"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|x| x["hook"]["command"].as_str().unwrap_or("").replace("true ", ""))
            .collect()
    };
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "terminal", "args": {"command": "ls"}})).await);
    assert_eq!(ran(r), ["padded", "regex"]);
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "termin(al"})).await);
    // (`term.*` matches that whole name too)
    assert_eq!(ran(r), ["literal", "regex"]);
    let r = to_json(&dispatch(&rt, "on_session_start", json!({"session_id": "s"})).await);
    assert_eq!(ran(r), ["session"]);
}
