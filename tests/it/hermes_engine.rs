//! Hermes Agent's own shell-hook rules (NousResearch/hermes-agent `agent/shell_hooks.py` as the
//! 0.19.0 wheel the kit installs ships it: `_make_callback`, `_parse_response`,
//! `ShellHookSpec.matches_tool`; and as its source has it from 0.20.1: `_evaluate_result`,
//! `_parse_single_entry`, `VALID_HOOKS`), ported: each case names the upstream code it holds.
//! Where the rules changed, each is tested under both releases (`harnessVersions`).

use crate::common::*;
use hookrt::{CanonicalEvent as E, Dialect, HarnessVersions, Runtime, RuntimeOptions, Version};
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
    AnswerCase {
        stderr: "blocked",
        ..case("_make_callback (0.19.0): exit 2 on pre_verify keeps nothing going", E::TurnStop, 2, "")
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

/// 0.20.1's `_evaluate_result`: exit 2 blocks `pre_tool_call` (hermes-agent PR #80782). Under
/// 0.19.0's rules none of these blocks.
const EXIT_TWO_CASES: &[AnswerCase] = &[
    AnswerCase {
        stderr: "  no rm here  ",
        block: Some("no rm here"),
        ..case("_evaluate_result: exit 2 on pre_tool_call blocks with stderr", E::ToolBefore, 2, "")
    },
    AnswerCase {
        block: Some("Blocked by shell hook."),
        ..case("_evaluate_result: exit 2 without stderr blocks with the default", E::ToolBefore, 2, "")
    },
    AnswerCase {
        stderr: "from stderr",
        block: Some("from stdout"),
        ..case(
            "_evaluate_result: exit 2 prefers a block stdout gave",
            E::ToolBefore,
            2,
            r#"{"action":"block","message":"from stdout"}"#,
        )
    },
    AnswerCase {
        stderr: "from stderr",
        block: Some("from stderr"),
        ..case("_evaluate_result: exit 2 with stdout that is not a block uses stderr", E::ToolBefore, 2, "{}")
    },
];

/// The options of a runtime reading Hermes's files by `version`'s rules (`None`: the newest).
fn at(p: &Project, version: Option<Version>) -> RuntimeOptions {
    RuntimeOptions {
        harness_versions: HarnessVersions(version.map(|v| (Dialect::Hermes, v)).into_iter().collect()),
        ..p.options()
    }
}

const V0_19: Version = Version::new(0, 19, 0);

/// A runtime over a `$HERMES_HOME` holding `config`, whose hooks are all accepted.
fn hermes_runtime(p: &Project, config: &str, version: Option<Version>) -> Runtime {
    p.write("hh/config.yaml", config);
    let env = [
        ("HERMES_HOME".to_owned(), p.path("hh").display().to_string()),
        ("HERMES_ACCEPT_HOOKS".to_owned(), "1".to_owned()),
    ];
    Runtime::with_env(&at(p, version), &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())).unwrap()
}

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

/// The runs of `cases` from a hook in `$HERMES_HOME/config.yaml`, dispatched by a host reading
/// Hermes's files by `version`'s rules.
async fn dispatched(cases: &[AnswerCase], version: Option<Version>) -> Vec<Said> {
    let mut got = Vec::new();
    for c in cases {
        let p = Project::new();
        let env = [("HERMES_HOME".to_owned(), hermes_home(&p, c)), ("HERMES_ACCEPT_HOOKS".to_owned(), "1".to_owned())];
        let rt =
            Runtime::with_env(&at(&p, version), &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
                .unwrap();
        let (event, payload) = hermes_event(c.event);
        got.push(outcome_said(&to_json(&dispatch(&rt, event, payload).await)));
    }
    got
}

/// The same runs from a hook in `$HERMES_HOME/config.yaml`, dispatched by a host: 0.19.0's
/// cases by 0.19.0's rules, the exit-2 cases by the newest and by 0.19.0's (where only a block
/// on stdout counts).
#[tokio::test]
async fn hermes_answer_cases_dispatched() {
    let mut got = dispatched(CASES, Some(V0_19)).await.into_iter();
    check_answers(CASES, "a dispatch (0.19.0)", |_| got.next().unwrap());
    let mut got = dispatched(EXIT_TWO_CASES, None).await.into_iter();
    check_answers(EXIT_TWO_CASES, "a dispatch (newest)", |_| got.next().unwrap());
    // 0.19.0 reads only stdout, whatever the exit code (as the reader alone does)
    for (c, said) in EXIT_TWO_CASES.iter().zip(dispatched(EXIT_TWO_CASES, Some(V0_19)).await) {
        assert_eq!(said, read_said(Dialect::Hermes, c.event, c.code, c.stdout, c.stderr), "0.19.0: {}", c.upstream);
    }
}

/// The same runs inside Hermes: `hookrt hook hermes` runs the hook, and its own answer, read as
/// Hermes reads a shell hook's, has the same effect (`--harness-version` both ways).
#[test]
fn hermes_answer_cases_inside_hermes() {
    let run = |c: &AnswerCase, args: &[&str]| {
        let p = Project::new();
        let env = [("HERMES_HOME", hermes_home(&p, c)), ("HERMES_ACCEPT_HOOKS", "1".to_owned())];
        let (event, stdin) = hermes_event(c.event);
        let out = inside(&p, "hermes", event, stdin, &env, args);
        read_said(Dialect::Hermes, c.event, out.code, &out.stdout, &out.stderr)
    };
    let old = ["--harness-version", "hermes=0.19.0"];
    check_answers(CASES, "hookrt hook hermes (0.19.0)", |c| run(c, &old));
    check_answers(EXIT_TWO_CASES, "hookrt hook hermes (newest)", |c| run(c, &[]));
    for c in EXIT_TWO_CASES {
        let reader = read_said(Dialect::Hermes, c.event, c.code, c.stdout, c.stderr);
        assert_eq!(run(c, &old), reader, "0.19.0: {}", c.upstream);
    }
}

/// 0.20.1's `_parse_single_entry` and `_evaluate_result`: `fail_closed` (or `failClosed`) on a
/// `pre_tool_call` hook blocks when the hook times out or prints something other than a JSON
/// object; a clean `{}` and an empty stdout still let the call through; on other events it is
/// ignored with a warning. 0.19.0 has no `fail_closed`: the same hooks block nothing.
#[tokio::test]
async fn fail_closed_from_0_20_1() {
    let p = Project::new();
    let garbage = answering(&p, "garbage", 1, "Traceback (most recent call last)", "");
    let clean = answering(&p, "clean", 0, "{}", "");
    let killed = answering(&p, "killed", 137, "", "");
    let q = |c: &str| serde_json::to_string(c).unwrap();
    let config = format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n      matcher: garbage\n      fail_closed: true\n    - command: {}\n      matcher: clean\n      failClosed: true\n    - command: \"sleep 5\"\n      matcher: slow\n      timeout: 1\n      fail_closed: true\n    - command: {}\n      matcher: empty\n      fail_closed: true\n  pre_llm_call:\n    - command: {}\n      fail_closed: true\n",
        q(&garbage),
        q(&clean),
        q(&killed),
        q(&garbage),
    );
    for version in [None, Some(V0_19)] {
        let rt = hermes_runtime(&p, &config, version);
        let said = |r: &hookrt::DispatchResult| outcome_said(&to_json(r)).0;
        let tool = |t: &str| json!({"tool_name": t, "tool_input": {}});
        let got = [
            said(&dispatch(&rt, "pre_tool_call", tool("garbage")).await),
            said(&dispatch(&rt, "pre_tool_call", tool("clean")).await),
            said(&dispatch(&rt, "pre_tool_call", tool("slow")).await),
            said(&dispatch(&rt, "pre_tool_call", tool("empty")).await),
            said(&dispatch(&rt, "pre_llm_call", json!({})).await),
        ];
        let warned =
            rt.loaded().diagnostics.iter().any(|d| d.message.contains("fail_closed has no effect on pre_llm_call"));
        if version.is_none() {
            let g = format!("hook {garbage} failed closed: unparseable stdout (expected a JSON object)");
            assert_eq!(got[0].as_deref(), Some(g.as_str()));
            assert_eq!(got[1], None, "a clean {{}} lets the call through");
            assert_eq!(got[2].as_deref(), Some("hook sleep 5 failed closed: timed out after 1s"));
            assert_eq!(got[3], None, "nothing on stdout lets the call through (Hermes issue #102405)");
            assert_eq!(got[4], None, "fail_closed counts only on pre_tool_call");
            assert!(warned, "{:?}", rt.loaded().diagnostics);
        } else {
            assert_eq!(got, [None, None, None, None, None], "0.19.0 has no fail_closed");
            assert!(!warned);
        }
    }
}

/// `VALID_HOOKS`: the 14 events of 0.20.1 load and run by the newest rules, and are unknown
/// events (ignored, with the release that has them) by 0.19.0's. A host can dispatch all 37
/// names; `transform_api_error_classification` is refused for shell hooks (`SHELL_UNSUPPORTED_HOOKS`).
#[tokio::test]
async fn the_37_events_and_when_they_came() {
    const NEW: [&str; 13] = [
        "on_stream_start",
        "on_stream_delta",
        "on_stream_end",
        "on_interim_message",
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
    let p = Project::new();
    let mut config = String::from("hooks:\n  transform_api_error_classification:\n    - command: \"true refused\"\n");
    for e in NEW {
        config.push_str(&format!("  {e}:\n    - command: \"true {e}\"\n"));
    }
    let names = hookrt::event_names(Dialect::Hermes);
    assert_eq!(names.len(), 37);
    for version in [None, Some(V0_19)] {
        let rt = hermes_runtime(&p, &config, version);
        for e in names.iter() {
            let r = to_json(&dispatch(&rt, e, json!({"session_id": "s"})).await);
            let ran: Vec<&str> =
                r["runs"].as_array().unwrap().iter().filter_map(|x| x["hook"]["command"].as_str()).collect();
            let expected = if version.is_none() && NEW.contains(e) { vec![format!("true {e}")] } else { vec![] };
            assert_eq!(ran, expected, "{e} at {version:?}");
        }
        let unknown =
            rt.loaded().diagnostics.iter().filter(|d| d.message.contains("(Hermes has it from 0.20.1)")).count();
        let refused = rt.loaded().diagnostics.iter().any(|d| d.message.contains("refuses it"));
        if version.is_none() {
            assert_eq!((unknown, refused), (0, true), "{:?}", rt.loaded().diagnostics);
        } else {
            assert_eq!((unknown, refused), (14, false), "{:?}", rt.loaded().diagnostics);
        }
    }
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
