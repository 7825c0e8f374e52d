//! Codex's own hook-engine tests (openai/codex `codex-rs/hooks/src/events/pre_tool_use.rs`,
//! `post_tool_use.rs`, `user_prompt_submit.rs`, `stop.rs`,
//! `engine/output_parser.rs`), ported: each upstream test by name, asserting
//! what Codex 0.171.0 does with one hook's run, each case three ways — the Codex dialect's
//! reader, a host's dispatch, and `hookrt hook codex` inside Codex.

use hookrt::{decode, CanonicalEvent, Decision, Dialect, Raw, RunOutcome};
use serde_json::{json, Value};

fn read(event: CanonicalEvent, code: i32, stdout: &str, stderr: &str) -> RunOutcome {
    let raw = Raw { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), truncated: false };
    decode(raw, event, Dialect::Codex)
}

/// An answer's effect as Codex's `PreToolUseHandlerData` and `PostToolUseHandlerData` hold it:
/// the block reason (on PostToolUse the feedback the model sees in place of the tool's
/// output), contexts, the rewrite, and the stop with its reason.
#[derive(Debug, PartialEq)]
struct Effect {
    block: Option<String>,
    contexts: Vec<String>,
    rewrite: Option<Value>,
    stop: Option<String>,
}

/// The effect of one run on `event` (plain stdout counting as context where the fold takes it).
fn effect(event: CanonicalEvent, o: &RunOutcome) -> Effect {
    let plain = o.plain_stdout.iter().filter(|_| event.plain_stdout_is_context());
    Effect {
        block: (o.decision == Some(Decision::Deny)).then(|| o.reason.clone().unwrap_or_default()),
        contexts: o.contexts.iter().chain(plain).cloned().collect(),
        rewrite: o.update_input.clone(),
        stop: o.stop.then(|| o.stop_reason.clone().unwrap_or_default()),
    }
}

fn nothing() -> Effect {
    Effect { block: None, contexts: vec![], rewrite: None, stop: None }
}

fn blocks(why: &str) -> Effect {
    Effect { block: Some(why.into()), ..nothing() }
}

fn pre(fields: Value) -> String {
    let mut hso = json!({"hookEventName": "PreToolUse"});
    hso.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": hso }).to_string()
}

/// One hook's run (exit code, stdout, stderr) on a tool event and what Codex 0.171.0 does with it.
struct Case {
    upstream: &'static str,
    event: CanonicalEvent,
    code: i32,
    stdout: String,
    stderr: &'static str,
    want: Effect,
}

fn case(upstream: &'static str, stdout: impl Into<String>, want: Effect) -> Case {
    Case { upstream, event: CanonicalEvent::ToolBefore, code: 0, stdout: stdout.into(), stderr: "", want }
}

/// A PostToolUse case.
fn post(upstream: &'static str, stdout: impl Into<String>, want: Effect) -> Case {
    Case { event: CanonicalEvent::ToolAfter, ..case(upstream, stdout, want) }
}

/// Codex's name of the event, and the stdin it gives its hooks there.
fn codex_event(e: CanonicalEvent) -> (&'static str, Value) {
    let tool = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"});
    match e {
        CanonicalEvent::ToolAfter => {
            let mut t = tool;
            t["tool_response"] = json!({"ok": true});
            ("PostToolUse", t)
        }
        CanonicalEvent::PromptSubmit => ("UserPromptSubmit", json!({"prompt": "hello"})),
        CanonicalEvent::TurnStop => ("Stop", json!({"stop_hook_active": false, "last_assistant_message": "done"})),
        _ => ("PreToolUse", tool),
    }
}

/// `events/pre_tool_use.rs` tests by name, and `engine/output_parser.rs`'s refusals.
fn cases() -> Vec<Case> {
    let mut cases = vec![
        case(
            "pre_tool_use.rs permission_decision_deny_blocks_processing",
            pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "do not run that"})),
            blocks("do not run that"),
        ),
        case(
            "pre_tool_use.rs permission_decision_allow_can_update_input",
            pre(json!({"permissionDecision": "allow", "updatedInput": {"command": "echo rewritten"}})),
            Effect { rewrite: Some(json!({"command": "echo rewritten"})), ..nothing() },
        ),
        case(
            "pre_tool_use.rs permission_decision_allow_without_updated_input_fails_open",
            pre(json!({"permissionDecision": "allow", "additionalContext": "dropped"})),
            nothing(),
        ),
        case(
            "pre_tool_use.rs deprecated_block_decision_blocks_processing",
            r#"{"decision":"block","reason":"do not run that"}"#,
            blocks("do not run that"),
        ),
        case(
            "pre_tool_use.rs deprecated_block_decision_with_additional_context_blocks_processing",
            json!({"decision": "block", "reason": "do not run that",
                "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "remember this"}})
            .to_string(),
            Effect { contexts: vec!["remember this".into()], ..blocks("do not run that") },
        ),
        case(
            "pre_tool_use.rs unsupported_permission_decision_fails_open",
            pre(json!({"permissionDecision": "ask", "permissionDecisionReason": "please confirm"})),
            nothing(),
        ),
        case("pre_tool_use.rs deprecated_approve_decision_fails_open", r#"{"decision":"approve"}"#, nothing()),
        case(
            "pre_tool_use.rs additional_context_is_recorded",
            pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "do not run that",
                "additionalContext": "nope"})),
            Effect { contexts: vec!["nope".into()], ..blocks("do not run that") },
        ),
        case("pre_tool_use.rs plain_stdout_is_ignored", "hook ran successfully\n", nothing()),
        case("pre_tool_use.rs invalid_json_like_stdout_fails_instead_of_becoming_noop", "{\"decision\":\n", nothing()),
        Case {
            code: 2,
            stderr: "blocked by policy\n",
            ..case("pre_tool_use.rs exit_code_two_blocks_processing", "", blocks("blocked by policy"))
        },
        // "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr":
        // the run failed and the tool runs (recorded in the kit's X12 too)
        Case { code: 2, ..case("pre_tool_use.rs exit 2 without a stderr reason", "some stdout", nothing()) },
        // Codex parses `hookEventName` as any of its events without comparing it with the one
        // that fired (recorded in the kit's X11: a deny naming PostToolUse blocks the tool)
        case(
            "output_parser.rs: a deny naming another event still blocks",
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "json deny"}})
            .to_string(),
            blocks("json deny"),
        ),
    ];
    // the output parser's other refusals of a whole PreToolUse answer
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
        cases.push(case(
            "output_parser.rs: an unsupported PreToolUse answer changes nothing",
            answer.to_string(),
            nothing(),
        ));
    }
    cases.extend(post_cases());
    cases.extend(prompt_cases());
    cases.extend(stop_cases());
    cases
}

/// A Stop case.
fn stop(upstream: &'static str, stdout: impl Into<String>, want: Effect) -> Case {
    Case { event: CanonicalEvent::TurnStop, ..case(upstream, stdout, want) }
}

/// `events/stop.rs` tests by name (a block keeps the turn going with its reason as the prompt).
fn stop_cases() -> Vec<Case> {
    vec![
        stop(
            "stop.rs block_decision_with_reason_sets_continuation_prompt",
            r#"{"decision":"block","reason":"retry with tests"}"#,
            blocks("retry with tests"),
        ),
        stop("stop.rs block_decision_without_reason_is_invalid", r#"{"decision":"block"}"#, nothing()),
        stop(
            "stop.rs continue_false_overrides_block_decision",
            r#"{"continue":false,"stopReason":"done","decision":"block","reason":"keep going"}"#,
            Effect { stop: Some("done".into()), ..nothing() },
        ),
        Case {
            code: 2,
            stderr: "retry with tests",
            ..stop("stop.rs exit_code_two_uses_stderr_feedback_only", "ignored stdout", blocks("retry with tests"))
        },
        Case { code: 2, stderr: "   ", ..stop("stop.rs exit_code_two_without_stderr_does_not_block", "", nothing()) },
        stop(
            "stop.rs block_decision_with_blank_reason_fails_instead_of_blocking",
            r#"{"decision":"block","reason":"   "}"#,
            nothing(),
        ),
        stop("stop.rs invalid_stdout_fails_instead_of_silently_nooping", "not json", nothing()),
    ]
}

/// A UserPromptSubmit case.
fn prompt(upstream: &'static str, stdout: impl Into<String>, want: Effect) -> Case {
    Case { event: CanonicalEvent::PromptSubmit, ..case(upstream, stdout, want) }
}

/// `events/user_prompt_submit.rs` tests by name, and its `parse_completed` on plain stdout.
fn prompt_cases() -> Vec<Case> {
    let context = |c: &str| vec![c.to_owned()];
    vec![
        prompt(
            "user_prompt_submit.rs continue_false_preserves_context_for_later_turns",
            r#"{"continue":false,"stopReason":"pause","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"do not inject"}}"#,
            Effect { stop: Some("pause".into()), contexts: context("do not inject"), ..nothing() },
        ),
        prompt(
            "user_prompt_submit.rs claude_block_decision_blocks_processing",
            r#"{"decision":"block","reason":"slow down","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"do not inject"}}"#,
            Effect { contexts: context("do not inject"), ..blocks("slow down") },
        ),
        prompt(
            "user_prompt_submit.rs claude_block_decision_requires_reason",
            r#"{"decision":"block","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"do not inject"}}"#,
            nothing(),
        ),
        prompt(
            "user_prompt_submit.rs parse_completed: continue:false is read before a block",
            r#"{"continue":false,"stopReason":"pause","decision":"block","reason":"slow down"}"#,
            Effect { stop: Some("pause".into()), ..nothing() },
        ),
        Case {
            code: 2,
            stderr: "blocked by policy\n",
            ..prompt("user_prompt_submit.rs exit_code_two_blocks_processing", "", blocks("blocked by policy"))
        },
        prompt(
            "user_prompt_submit.rs parse_completed: plain stdout is context",
            "  remember the style guide \n",
            Effect { contexts: context("remember the style guide"), ..nothing() },
        ),
    ]
}

/// `events/post_tool_use.rs` tests by name.
fn post_cases() -> Vec<Case> {
    let feedback = |why: &str| blocks(why);
    vec![
        post(
            "post_tool_use.rs block_decision_stops_normal_processing",
            r#"{"decision":"block","reason":"bash output looked sketchy"}"#,
            feedback("bash output looked sketchy"),
        ),
        post(
            "post_tool_use.rs additional_context_is_recorded",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember the bash cleanup note."}}"#,
            Effect { contexts: vec!["Remember the bash cleanup note.".into()], ..nothing() },
        ),
        post(
            "post_tool_use.rs unsupported_updated_mcp_tool_output_fails_open",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"ok":true}}}"#,
            nothing(),
        ),
        Case {
            code: 2,
            stderr: "post hook says pause",
            ..post(
                "post_tool_use.rs exit_two_surfaces_feedback_to_model_without_blocking",
                "",
                feedback("post hook says pause"),
            )
        },
        post(
            "post_tool_use.rs continue_false_stops_with_reason",
            r#"{"continue":false,"stopReason":"halt after bash output","reason":"post-tool hook says stop"}"#,
            Effect { stop: Some("halt after bash output".into()), ..feedback("post-tool hook says stop") },
        ),
        post("post_tool_use.rs plain_stdout_is_ignored_for_post_tool_use", "plain text only", nothing()),
    ]
}

fn check(way: &str, mut got: impl FnMut(&Case) -> Effect) {
    let failed: Vec<String> = cases()
        .iter()
        .filter_map(|c| {
            let g = got(c);
            (g != c.want)
                .then(|| format!("{} ({}, {:?}): {way} gave {g:?}, Codex {:?}", c.upstream, c.code, c.stdout, c.want))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The Codex reader on one run.
#[test]
fn codex_answer_cases() {
    check("the reader", |c| effect(c.event, &read(c.event, c.code, &c.stdout, c.stderr)));
}

/// A project `.codex/hooks.json` whose one hook on the case's event answers as the case says.
fn project(c: &Case) -> crate::common::Project {
    let p = crate::common::Project::new();
    let cmd = crate::common::answering(&p, "a", c.code, &c.stdout, c.stderr);
    let hooks = json!({ codex_event(c.event).0: [{"matcher": "Bash", "hooks": [{"type": "command", "command": cmd}]}]});
    p.write("proj/.codex/hooks.json", &json!({ "hooks": hooks }).to_string());
    p
}

/// The same runs from a hook in a project's `.codex/hooks.json`, dispatched by a host.
#[tokio::test]
async fn codex_answer_cases_dispatched() {
    let mut got = Vec::new();
    for c in cases() {
        let p = project(&c);
        let (event, payload) = codex_event(c.event);
        let r = crate::common::to_json(&crate::common::dispatch(&p.runtime(), event, payload).await);
        let o = &r["outcome"];
        // a PostToolUse block reaches the host as the downgraded deny it is
        let (d, why) = if o["downgraded"] == true { ("rawDecision", "rawReason") } else { ("decision", "reason") };
        got.push(Effect {
            block: (o[d] == "deny").then(|| o[why].as_str().unwrap_or("").to_owned()),
            contexts: serde_json::from_value(o["contexts"].clone()).unwrap_or_default(),
            rewrite: o["updateInputs"].as_array().and_then(|u| u.last().cloned()),
            stop: (o["stop"] == true).then(|| o["stopReason"].as_str().unwrap_or("").to_owned()),
        });
    }
    let mut got = got.into_iter();
    check("a dispatch", |_| got.next().unwrap());
}

/// The same runs inside Codex: `hookrt hook codex` runs the hook, and its own answer, read as
/// Codex reads a hook's, has the same effect.
#[test]
fn codex_answer_cases_inside_codex() {
    check("hookrt hook codex", |c| {
        let p = project(c);
        let (event, stdin) = codex_event(c.event);
        let out = crate::common::inside(&p, "codex", event, stdin, &[], &["--require-hook-approval=off"]);
        effect(c.event, &read(c.event, out.code, &out.stdout, &out.stderr))
    });
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

/// `events/stop.rs` `aggregate_results`: `should_block = !should_stop && …` — one hook's
/// `continue: false` cancels another's block, whichever comes first.
#[tokio::test]
async fn a_stop_cancels_every_block_of_the_turn() {
    let halt =
        json!({"type": "command", "command": crate::common::answer(json!({"continue": false, "stopReason": "done"}))});
    let block = json!({"type": "command", "command": "echo keep going >&2; exit 2"});
    for hooks in [vec![halt.clone(), block.clone()], vec![block, halt]] {
        let hooks = json!({"Stop": [{"hooks": hooks}]});
        let r = codex_dispatch(hooks, "Stop", json!({"stop_hook_active": false})).await;
        let o = &r["outcome"];
        assert_eq!((&o["stop"], &o["stopReason"]), (&json!(true), &json!("done")), "{r}");
        assert_ne!(o["decision"], "deny", "{r}");
    }
}

/// `events/user_prompt_submit.rs` `run`: `stop_reason = results.iter().find_map(..)` — of
/// several blocking hooks, the first in configured order gives the reason.
#[tokio::test]
async fn user_prompt_submit_takes_the_first_blocking_reason() {
    let block = |why: &str| json!({"type": "command", "command": format!("echo {why} >&2; exit 2")});
    let hooks = json!({"UserPromptSubmit": [{"hooks": [block("one"), block("two")]}]});
    let r = codex_dispatch(hooks, "UserPromptSubmit", json!({"prompt": "hi"})).await;
    assert_eq!((&r["outcome"]["decision"], &r["outcome"]["reason"]), (&json!("deny"), &json!("one")), "{r}");
}
