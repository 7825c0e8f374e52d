//! Cline's own hook-engine tests (cline/cline `sdk/packages/core/src/hooks/hook-file-hooks.test.ts`
//! and `subprocess-runner.ts` `parseStdout`), ported: each case names its upstream test and
//! asserts what `@cline/core` 0.0.86 (the Cline CLI 3.0.65 the kit installs; its bundle was read
//! for the same code) does, through a dispatch against a project's `.clinerules/hooks/` files.

use crate::common::*;
use serde_json::{json, Value};

/// What the run's hooks made Cline do: stop with this reason (`""` when none), and the context
/// the model gets.
#[derive(Debug, PartialEq)]
struct Effect {
    stop: Option<String>,
    context: Option<String>,
}

const NOTHING: Effect = Effect { stop: None, context: None };

fn stops(why: &str) -> Effect {
    Effect { stop: Some(why.into()), context: None }
}

fn context(c: &str) -> Effect {
    Effect { stop: None, context: Some(c.into()) }
}

/// A shell line printing Cline's control line (a real tab after `HOOK_CONTROL`).
fn control(v: Value) -> String {
    format!("echo 'HOOK_CONTROL\t{v}'\n")
}

/// A `.js` hook printing the control line, as the upstream tests write them.
fn js_control(v: Value) -> String {
    format!("console.log('HOOK_CONTROL\\t' + JSON.stringify({v}))\n")
}

struct Case {
    upstream: &'static str,
    event: &'static str,
    /// (file name under `.clinerules/hooks/`, its text)
    files: Vec<(&'static str, String)>,
    want: Effect,
}

fn case(upstream: &'static str, event: &'static str, file: &'static str, text: String, want: Effect) -> Case {
    Case { upstream, event, files: vec![(file, text)], want }
}

fn cases() -> Vec<Case> {
    let cancel_ctx = json!({"cancel": true, "context": "should-not-run"});
    vec![
        case("ignores example hook files", "PreToolUse", "PreToolUse.example", control(cancel_ctx), NOTHING),
        case(
            "executes extensionless legacy hook files via bash fallback",
            "PreToolUse",
            "PreToolUse",
            control(json!({"cancel": true, "context": "legacy-ok"})) + "exit 0\n",
            stops("legacy-ok"),
        ),
        case(
            "honors shebang interpreter when present",
            "PreToolUse",
            "PreToolUse",
            "#!/usr/bin/env bash\n".to_owned() + &control(json!({"cancel": false, "context": "shebang-ok"})),
            context("shebang-ok"),
        ),
        case(
            "parses review control from hook output",
            "PreToolUse",
            "PreToolUse.js",
            js_control(json!({"review": true, "context": "needs-review"})),
            context("needs-review"),
        ),
        case(
            "executes python hook files",
            "PreToolUse",
            "PreToolUse.py",
            "print('HOOK_CONTROL\\t{\"cancel\": false, \"context\": \"python-ok\"}')\n".into(),
            context("python-ok"),
        ),
        case(
            "returns appendContext from legacy contextModification output",
            "PreToolUse",
            "PreToolUse.js",
            js_control(json!({"cancel": false, "contextModification": "WORKSPACE_NOTE: the codename is PREM-1188."})),
            context("WORKSPACE_NOTE: the codename is PREM-1188."),
        ),
        case(
            "keeps TaskStart fire-and-forget by default, ignoring its control",
            "SessionStart",
            "TaskStart.js",
            js_control(json!({"cancel": true, "contextModification": "never honored by default"})),
            NOTHING,
        ),
        case(
            "does not inject context when the hook cancels",
            "PreToolUse",
            "PreToolUse.js",
            js_control(json!({"cancel": true, "errorMessage": "blocked by policy"})),
            stops("blocked by policy"),
        ),
        case(
            "collects PostToolUse context and returns it from afterTool",
            "PostToolUse",
            "PostToolUse.js",
            js_control(json!({"cancel": false, "contextModification": "LINT_RESULTS: 3 errors in src/foo.ts"})),
            context("LINT_RESULTS: 3 errors in src/foo.ts"),
        ),
        case(
            "honors PostToolUse cancel with the hook's error message as reason",
            "PostToolUse",
            "PostToolUse.js",
            js_control(json!({"cancel": true, "errorMessage": "post-hook says stop"})),
            stops("post-hook says stop"),
        ),
        case(
            "prefers errorMessage over context for a cancelling hook's reason",
            "PostToolUse",
            "PostToolUse.js",
            js_control(
                json!({"cancel": true, "contextModification": "some context", "errorMessage": "the actual error"}),
            ),
            stops("the actual error"),
        ),
        case(
            "falls back to context for the reason when errorMessage is blank",
            "PostToolUse",
            "PostToolUse.js",
            js_control(json!({"cancel": true, "contextModification": "the real reason", "errorMessage": "   "})),
            stops("the real reason"),
        ),
        Case {
            upstream: "keeps another hook's context out of a cancelling hook's reason",
            event: "PostToolUse",
            files: vec![
                ("PostToolUse", control(json!({"cancel": false, "contextModification": "unrelated lint context"}))),
                ("PostToolUse.js", js_control(json!({"cancel": true, "errorMessage": "post-hook says stop"}))),
            ],
            want: stops("post-hook says stop"),
        },
        case(
            "subprocess-runner.ts parseStdout: a log line before the control line",
            "PreToolUse",
            "PreToolUse",
            "echo checking the command\n".to_owned() + &control(json!({"cancel": true, "errorMessage": "no"})),
            stops("no"),
        ),
        case(
            "subprocess-runner.ts parseStdout: the last control line is the answer",
            "PreToolUse",
            "PreToolUse",
            control(json!({"cancel": true, "errorMessage": "first"})) + &control(json!({"context": "last"})),
            context("last"),
        ),
        case(
            "subprocess-runner.ts parseStdout: without a control line the whole stdout is the JSON",
            "PreToolUse",
            "PreToolUse",
            "echo '{\"cancel\": true, \"errorMessage\": \"plain json\"}'\n".into(),
            stops("plain json"),
        ),
        Case {
            upstream: "hook-file-hooks.ts mergeHookControls: contexts joined by a newline",
            event: "PreToolUse",
            files: vec![
                ("PreToolUse", control(json!({"context": "one"}))),
                ("PreToolUse.sh", control(json!({"context": "two"}))),
            ],
            want: context("one\ntwo"),
        },
        Case {
            upstream: "hook-file-hooks.ts mergeHookControls: cancel reasons joined by a newline",
            event: "PreToolUse",
            files: vec![
                ("PreToolUse", control(json!({"cancel": true, "errorMessage": "one"}))),
                ("PreToolUse.sh", control(json!({"cancel": true, "errorMessage": "two"}))),
            ],
            want: stops("one\ntwo"),
        },
    ]
}

fn payload(event: &str) -> Value {
    match event {
        "PostToolUse" => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "ok"}),
        "SessionStart" => json!({"source": "startup"}),
        _ => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    }
}

#[tokio::test]
async fn cline_hook_file_cases() {
    let mut failed = Vec::new();
    for c in cases() {
        let p = Project::new();
        for (name, text) in &c.files {
            p.write(&format!("proj/.clinerules/hooks/{name}"), text);
        }
        let r = to_json(&dispatch(&p.runtime(), c.event, payload(c.event)).await);
        let o = &r["outcome"];
        let contexts: Vec<String> = serde_json::from_value(o["contexts"].clone()).unwrap_or_default();
        let got = Effect {
            stop: (o["stop"] == true).then(|| o["stopReason"].as_str().unwrap_or("").to_owned()),
            context: (!contexts.is_empty()).then(|| contexts.join("\n")),
        };
        if got != c.want {
            failed.push(format!("{}: hookrt {got:?}, Cline {:?}", c.upstream, c.want));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `truncates oversized hook context`: past 50,000 characters the context is cut and says so.
#[tokio::test]
async fn oversized_context_is_truncated_as_cline_truncates_it() {
    let p = Project::new();
    let big = "x".repeat(60_000);
    p.write("proj/.clinerules/hooks/PreToolUse.js", &js_control(json!({"cancel": false, "contextModification": big})));
    let opts = hookrt::RuntimeOptions { context_cap: Some(100_000), ..p.options() };
    let rt = hookrt::Runtime::with_env(&opts, &|_| None).unwrap();
    let r = to_json(&dispatch(&rt, "PreToolUse", payload("PreToolUse")).await);
    let c = r["outcome"]["contexts"][0].as_str().unwrap_or_default();
    assert!(c.starts_with("xxx") && c.contains("[hook context truncated") && c.len() < 50_200, "{}", c.len());
}
