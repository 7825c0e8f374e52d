//! The answer contract with real hook processes: exit codes, JSON fields, folding order,
//! downgrades (SPEC §8, §9).

use crate::common::*;
use hookrt::{DispatchError, Runtime, RuntimeOptions};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn exit_codes_and_json_fields() {
    let p = Project::new();
    p.claude(json!({
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo nope >&2; exit 2"}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": "echo out; echo err >&2; exit 1"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": answer(json!({
                "systemMessage": "m", "additionalContext": "c",
                "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                    "permissionDecisionReason": "why", "updatedInput": {"x": 1}}}))}]},
            {"matcher": "Read", "hooks": [{"type": "command", "command": "kill -9 $$"}]}
        ]
    }));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "nope");
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], 2);

    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], 1);
    assert_eq!(r["runs"][0]["outcome"]["stdout"], "out");
    assert_eq!(r["runs"][0]["outcome"]["stderr"], "err");

    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Edit"})).await);
    assert_eq!(r["outcome"]["decision"], "ask");
    assert_eq!(r["outcome"]["reason"], "why");
    assert_eq!(r["outcome"]["messages"], json!(["m"]));
    assert_eq!(r["outcome"]["contexts"], json!(["c"]));
    assert_eq!(r["outcome"]["updateInputs"], json!([{"x": 1}]));

    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await);
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], serde_json::Value::Null);
    assert!(r["runs"][0].get("error").is_none());
}

#[tokio::test]
async fn folding_follows_configuration_order_not_completion_order() {
    let p = Project::new();
    p.claude(json!({
        "PreToolUse": [{"hooks": [
            {"command": format!("sleep 0.4; {}", answer(json!({"systemMessage": "slow first", "decision": "block", "reason": "r-slow"})))},
            {"command": answer(json!({"systemMessage": "fast second", "decision": "block", "reason": "r-fast"}))},
            {"command": format!("sleep 0.2; {}", answer(json!({"systemMessage": "middle third"})))}
        ]}]
    }));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["messages"], json!(["slow first", "fast second", "middle third"]));
    // Claude Code shows the reason of the deny that answered last alone (the kit's S24) ...
    assert_eq!(r["outcome"]["reason"], "r-slow");
    // ... where the `listen` contract joins them in configuration order.
    let contract = RuntimeOptions { fidelity: Some(hookrt::Fidelity::Contract), ..p.options() };
    let c = to_json(
        &dispatch(&Runtime::with_env(&contract, &|_| None).unwrap(), "PreToolUse", json!({"tool_name": "Bash"})).await,
    );
    assert_eq!(c["outcome"]["reason"], "r-slow\n\nr-fast");
    let ids: Vec<_> = r["runs"].as_array().unwrap().iter().map(|x| x["hook"]["id"].clone()).collect();
    assert_eq!(
        ids,
        vec![
            json!("claude:settings.json:PreToolUse:0:0"),
            json!("claude:settings.json:PreToolUse:0:1"),
            json!("claude:settings.json:PreToolUse:0:2")
        ]
    );
}

#[tokio::test]
async fn claude_tells_the_reason_of_the_deny_that_answered_last() {
    let p = Project::new();
    // The kit's S25: the second configured deny answers after the first.
    p.claude(json!({
        "PreToolUse": [{"hooks": [
            {"command": answer(json!({"decision": "block", "reason": "r-first"}))},
            {"command": format!("sleep 0.4; {}", answer(json!({"decision": "block", "reason": "r-second-slow"})))},
            {"command": format!("sleep 0.2; {}", answer(json!({"decision": "approve"})))}
        ]}]
    }));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "r-second-slow");
    // Codex keeps the first configured block's reason whatever the order of the answers.
    let c = Project::new();
    let hooks = json!({
        "PreToolUse": [{"hooks": [
            {"type": "command", "command": answer(json!({"decision": "block", "reason": "r-first"}))},
            {"type": "command", "command": format!("sleep 0.4; {}", answer(json!({"decision": "block", "reason": "r-second-slow"})))}
        ]}]
    });
    c.write("proj/.codex/hooks.json", &json!({ "hooks": hooks }).to_string());
    let r = to_json(&dispatch(&c.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["reason"], "r-first");
}

#[tokio::test]
async fn matched_hooks_run_concurrently() {
    let p = Project::new();
    // Each hook waits until all three have started: only possible when they run at once.
    let dir = p.path("marks");
    std::fs::create_dir_all(&dir).unwrap();
    let cmd = format!(
        "touch {d}/$$; i=0; while [ $(ls {d} | wc -l) -lt 3 ] && [ $i -lt 200 ]; do sleep 0.02; i=$((i+1)); done; ls {d} | wc -l",
        d = dir.display()
    );
    p.claude(json!({"SessionStart": [{"hooks": [{"command": cmd}, {"command": cmd}, {"command": cmd}]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "SessionStart", json!({})).await);
    assert_eq!(r["outcome"]["contexts"], json!(["3", "3", "3"]));
}

#[tokio::test]
async fn deny_downgraded_on_non_blockable_events() {
    let p = Project::new();
    p.claude(json!({
        "PostToolUse": [{"hooks": [{"command": "echo 'bad output' >&2; exit 2"}]}],
        "Stop": [{"hooks": [{"command": "echo 'keep going' >&2; exit 2"}]}]
    }));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["outcome"]["rawDecision"], "deny");
    assert_eq!(r["outcome"]["rawReason"], "bad output");
    assert_eq!(r["outcome"]["downgraded"], true);
    let r = to_json(&dispatch(&rt, "Stop", json!({})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["downgraded"], false);
}

#[tokio::test]
async fn plain_stdout_context_only_on_events_that_take_it() {
    let p = Project::new();
    p.claude(json!({
        "UserPromptSubmit": [{"hooks": [{"command": "echo remember this"}, {"command": "echo failed; exit 1"}]}],
        "PreToolUse": [{"hooks": [{"command": "echo not context"}]}]
    }));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "UserPromptSubmit", json!({"prompt": "hi"})).await);
    assert_eq!(r["outcome"]["contexts"], json!(["remember this"]));
    assert_eq!(r["runs"][0]["outcome"]["contexts"], json!([]));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({})).await);
    assert_eq!(r["outcome"]["contexts"], json!([]));
}

#[tokio::test]
async fn unknown_event_and_closed_runtime() {
    let p = Project::new();
    let rt = p.runtime();
    let e = rt.dispatch(req("Nope", json!({})), &CancellationToken::new()).await.unwrap_err();
    assert_eq!(e, DispatchError::UnknownEvent("Nope".into()));
    assert_eq!(e.to_string(), "unknown event \"Nope\"");
    rt.close();
    let e = rt.dispatch(req("Stop", json!({})), &CancellationToken::new()).await.unwrap_err();
    assert_eq!(e, DispatchError::Closed);
}

#[tokio::test]
async fn hook_environment_and_stdin_shape() {
    let p = Project::new();
    let out = p.path("stdin.json");
    p.claude(json!({"PreToolUse": [{"hooks": [
        {"command": format!("cat > {}; echo \"$CLAUDE_PROJECT_DIR|$MY_VAR\" >&2; exit 2", out.display()), "env": {"MY_VAR": "v1"}}
    ]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "tool:before", json!({"tool_name": "Bash", "hook_event_name": "spoofed"})).await);
    assert_eq!(r["outcome"]["reason"], format!("{}|v1", p.path("proj").display()));
    let raw = std::fs::read_to_string(&out).unwrap();
    assert!(raw.ends_with('\n'));
    let v: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(v["hook_event_name"], "PreToolUse");
    assert_eq!(v["tool_name"], "Bash");
    assert_eq!(v["permission_mode"], "default");
    assert_eq!(v["cwd"], p.path("proj").display().to_string());
}
