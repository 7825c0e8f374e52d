//! Qwen Code's own hook-engine rules (QwenLM/qwen-code `packages/core/src/hooks/`, read in the
//! 0.24.4 bundle the kit installs): how one hook's exit code and output are read and which
//! hooks a matcher selects, each case naming its upstream code and run both ways a host meets
//! it — the Qwen reader on one run, and a dispatch against a project's `.qwen/settings.json`.

use crate::common::*;
use hookrt::{decode, CanonicalEvent, Decision, Dialect, Raw};
use serde_json::json;

fn run(code: i32, stdout: &str, stderr: &str) -> hookrt::RunOutcome {
    let raw = Raw { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), truncated: false };
    decode(raw, CanonicalEvent::ToolBefore, Dialect::Qwen)
}

/// One PreToolUse run and what Qwen Code does with it: the deny's reason, the messages shown.
struct Case {
    upstream: &'static str,
    code: i32,
    stdout: String,
    stderr: String,
    deny: Option<&'static str>,
    messages: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "json on stderr"}});
    let case = |upstream, stdout: &str, stderr: String, deny, messages| Case {
        upstream,
        code: 2,
        stdout: stdout.into(),
        stderr,
        deny,
        messages,
    };
    vec![
        // on exit 2 the text to parse is stderr alone; a JSON object there is the hook's output
        case(
            "hookRunner.ts executeCommandHook: exit 2, a JSON object on stderr",
            "",
            deny.to_string(),
            Some("json on stderr"),
            &[],
        ),
        // a JSON string holding the object is parsed twice
        case(
            "hookRunner.ts executeCommandHook: exit 2, a JSON string holding the object",
            "",
            serde_json::to_string(&deny.to_string()).unwrap(),
            Some("json on stderr"),
            &[],
        ),
        // the same object without a decision decides nothing: Qwen's aggregator reads the
        // output, not the exit code (recorded in the kit's S14: the tool runs)
        case(
            "hookAggregator.ts: exit 2 with a JSON note on stderr blocks nothing",
            "",
            r#"{"systemMessage":"note"}"#.into(),
            None,
            &["note"],
        ),
        case(
            "convertPlainTextToHookOutput: exit 2, plain stderr denies with it",
            "ignored stdout",
            "  no way \n".into(),
            Some("no way"),
            &[],
        ),
        // `textToParse` empty on exit 2: no output, so nothing is decided (the kit's S12)
        case(
            "hookRunner.ts: exit 2 with an empty stderr decides nothing",
            r#"{"decision":"deny"}"#,
            String::new(),
            None,
            &[],
        ),
    ]
}

fn check(way: &str, mut got: impl FnMut(&Case) -> (Option<String>, Vec<String>)) {
    let failed: Vec<String> = cases()
        .iter()
        .filter_map(|c| {
            let (deny, messages) = got(c);
            (deny.as_deref() != c.deny || messages != c.messages)
                .then(|| format!("{}: {way} gave deny {deny:?} messages {messages:?}", c.upstream))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn qwen_answer_cases() {
    check("the reader", |c| {
        let o = run(c.code, &c.stdout, &c.stderr);
        ((o.decision == Some(Decision::Deny)).then(|| o.reason.unwrap_or_default()), o.messages)
    });
}

/// The project's `.qwen/settings.json` with these PreToolUse groups.
fn qwen_settings(p: &Project, groups: serde_json::Value) {
    p.write("proj/.qwen/settings.json", &json!({"hooks": {"PreToolUse": groups}}).to_string());
}

#[tokio::test]
async fn qwen_answer_cases_dispatched() {
    let mut got = Vec::new();
    for c in cases() {
        let p = Project::new();
        let cmd = answering(&p, "a", c.code, &c.stdout, &c.stderr);
        qwen_settings(&p, json!([{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": cmd}]}]));
        let r = to_json(
            &dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await,
        );
        let o = &r["outcome"];
        assert_eq!(r["runs"].as_array().map(Vec::len), Some(1), "{r}");
        got.push((
            (o["decision"] == "deny").then(|| o["reason"].as_str().unwrap_or("").to_owned()),
            serde_json::from_value(o["messages"].clone()).unwrap_or_default(),
        ));
    }
    let mut got = got.into_iter();
    check("a dispatch", |_| got.next().unwrap());
}

/// `hook-matcher.test.ts`, as Qwen Code 0.24.4's bundle matches: (matcher, tool as Qwen names
/// it, whether the hook runs). Dispatched with the tool's name as Qwen gives it.
const MATCHERS: &[(&str, &str, bool)] = &[
    ("write_file|edit|", "edit", true),
    ("write_file|edit|", "write_file", true),
    // an empty entry selects nothing
    ("write_file|edit|", "run_shell_command", false),
    // entries are trimmed
    (" write_file | edit ", "edit", true),
    (".*", "anything", true),
    ("edit|*", "anything", true),
    ("|", "edit", false),
    // a group or a character class keeps its `|`; `^`/`(` at the start is a plain regex
    ("mcp__(a|b)__x|edit", "mcp__b__x", true),
    ("^(edit|write_file)$", "edit", true),
    ("^(edit|write_file)$", "edits", false),
    // unanchored, as Qwen's RegExp test is
    ("run_shell", "run_shell_command", true),
];

#[tokio::test]
async fn qwen_matcher_cases_dispatched() {
    let mut failed = Vec::new();
    for &(matcher, tool, runs) in MATCHERS {
        let p = Project::new();
        qwen_settings(&p, json!([{"matcher": matcher, "hooks": [{"type": "command", "command": "true"}]}]));
        let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": tool, "tool_input": {}})).await);
        let ran = r["runs"].as_array().is_some_and(|a| !a.is_empty());
        if ran != runs {
            failed.push(format!("matcher {matcher:?} on {tool}: ran {ran}, Qwen {runs}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
