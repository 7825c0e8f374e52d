//! A fail-closed policy for guards, and the hook's working directory falling back to
//! `projectDir` (SPEC §6).

use crate::common::*;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use serde_json::json;

#[tokio::test]
async fn fail_closed_turns_timeout_signal_and_spawn_failure_into_deny() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"command": "sleep 5", "timeout": 0.3}]},
        {"matcher": "Read", "hooks": [{"command": "kill -9 $$"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "/no/such/hook", "args": []}]},
        {"matcher": "Grep", "hooks": [{"command": "echo fine"}]}
    ], "PostToolUse": [{"hooks": [{"command": "sleep 5", "timeout": 0.3}]}]}));
    let rt = Runtime::with_env(&RuntimeOptions { fail_closed: vec!["tool:before".into()], ..p.options() }, &|_| None)
        .unwrap();
    let reason = |r: &serde_json::Value| r["outcome"]["reason"].as_str().unwrap_or("").to_owned();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(reason(&r), "hook failed closed: timed out after 0.3s");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await);
    assert_eq!(
        (r["outcome"]["decision"].as_str(), reason(&r).as_str()),
        (Some("deny"), "hook failed closed: hook was killed by a signal")
    );
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert!(reason(&r).starts_with("hook failed closed: cannot start hook: /no/such/hook"), "{}", reason(&r));
    // A hook that answered is not affected; other events keep warning.
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Grep"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Bash"})).await);
    assert!(r["outcome"].get("rawDecision").is_none(), "{r}");
    // Without the option the same timeout lets the tool run (Claude's behaviour).
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    // Unknown names are refused.
    let e =
        Runtime::with_env(&RuntimeOptions { fail_closed: vec!["tool:nope".into()], ..p.options() }, &|_| None).err();
    assert_eq!(e.map(|e| e.to_string()).as_deref(), Some("failClosed: unknown event \"tool:nope\""));
}

#[tokio::test]
async fn per_hook_fail_closed() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [
        {"command": "sleep 5", "timeout": 0.3, "failClosed": true},
        {"command": "sleep 5", "timeout": 0.3}
    ]}]}));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "hook failed closed: timed out after 0.3s");
    assert_eq!(r["runs"][0]["outcome"]["decision"], "deny");
    assert!(r["runs"][1]["outcome"].get("decision").is_none());
}

#[tokio::test]
async fn project_dir_is_the_working_directory_without_a_dispatch_cwd() {
    let p = Project::new();
    std::fs::create_dir_all(p.path("project-root")).unwrap();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": "pwd"}]}]}));
    let rt = Runtime::with_env(&RuntimeOptions { project_dir: Some(p.path("project-root")), ..p.options() }, &|_| None)
        .unwrap();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    let real = |x: std::path::PathBuf| std::fs::canonicalize(x).unwrap().display().to_string();
    assert_eq!(r["runs"][0]["outcome"]["stdout"], real(p.path("project-root")));
    // A dispatch's own cwd still wins; without projectDir the runtime cwd is used.
    let mut q = req("PreToolUse", json!({"tool_name": "Bash"}));
    q.cwd = Some(p.path("home").display().to_string());
    let r = to_json(&rt.dispatch(q, &tokio_util::sync::CancellationToken::new()).await.unwrap());
    assert_eq!(r["runs"][0]["outcome"]["stdout"], real(p.path("home")));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["runs"][0]["outcome"]["stdout"], real(p.path("proj")));
}
