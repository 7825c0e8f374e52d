//! Process handling with real processes: timeouts and aborts kill whole trees (grandchildren
//! that ignore SIGTERM and hold the pipes included), output caps, hooks that ignore stdin.

use crate::common::*;
use hookrt::DispatchError;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// A hook whose grandchild ignores SIGTERM and keeps stdout open; the pids land in files.
fn stubborn_tree(p: &Project) -> String {
    format!(
        "echo $$ > {parent}; (trap '' TERM; echo $BASHPID > /dev/null; exec sh -c 'echo $$ > {grand}; trap \"\" TERM; while :; do sleep 1; done') & until [ -s {grand} ]; do sleep 0.01; done; wait",
        parent = p.path("parent.pid").display(),
        grand = p.path("grand.pid").display()
    )
}

fn assert_gone(pid: i32) {
    for _ in 0..100 {
        if !pid_alive_or_zombie(pid) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    panic!("process {pid} survived (or is a zombie): {stat}");
}

#[tokio::test]
async fn timeout_kills_the_whole_tree_promptly() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": stubborn_tree(&p), "timeout": 2, "onError": "block"}]}]}));
    let rt = p.runtime();
    let started = Instant::now();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({})).await);
    let took = started.elapsed();
    assert_eq!(r["runs"][0]["error"], "timed out after 2s");
    assert_eq!(r["outcome"]["reason"], "hook failed: timed out after 2s");
    assert!(r["runs"][0]["outcome"].get("exitCode").is_none());
    // Not a timing test (shared machines are noisy): the tree never exits by itself, so a
    // run that ends at all, well before the tree's would-be forever, was killed.
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert_gone(read_pid(&p.path("grand.pid")));
    assert_gone(read_pid(&p.path("parent.pid")));
}

#[tokio::test]
async fn abort_kills_the_tree_and_reports_aborted() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": stubborn_tree(&p)}]}]}));
    let rt = p.runtime();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    let grand = p.path("grand.pid");
    tokio::spawn(async move {
        while !grand.exists() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        c2.cancel();
    });
    let e = rt.dispatch(req("PreToolUse", json!({})), &cancel).await.unwrap_err();
    assert_eq!(e, DispatchError::Aborted);
    assert_gone(read_pid(&p.path("grand.pid")));
    assert_gone(read_pid(&p.path("parent.pid")));
}

#[tokio::test]
async fn already_cancelled_runs_nothing() {
    let p = Project::new();
    let mark = p.path("ran");
    p.claude(json!({"Stop": [{"hooks": [{"command": format!("touch {}", mark.display())}]}]}));
    let rt = p.runtime();
    let cancel = CancellationToken::new();
    cancel.cancel();
    assert_eq!(rt.dispatch(req("Stop", json!({})), &cancel).await.unwrap_err(), DispatchError::Aborted);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!mark.exists());
}

#[tokio::test]
async fn hook_that_never_reads_stdin_with_a_large_payload() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": "echo '{\"decision\":\"approve\"}'"}, {"command": "exec 0<&-; sleep 0.1; exit 0"}]}]}));
    let rt = p.runtime();
    let big = "x".repeat(8 * 1024 * 1024);
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "blob": big})).await);
    assert_eq!(r["outcome"]["decision"], "allow");
    assert_eq!(r["runs"][1]["outcome"]["exitCode"], 0);
}

#[tokio::test]
async fn fifty_megabytes_of_output_are_capped() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [
        {"command": "head -c 52428800 /dev/zero | tr '\\0' a; echo done >&2"}
    ]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({})).await);
    let out = &r["runs"][0]["outcome"];
    assert_eq!(out["exitCode"], 0);
    assert_eq!(out["truncated"], true);
    assert_eq!(out["stdout"].as_str().unwrap().len(), hookrt::DEFAULT_OUTPUT_CAP);
    assert_eq!(out["stderr"], "done");
}

#[tokio::test]
async fn spawn_failures_are_infrastructure_errors() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": "/no/such/program", "args": ["x"], "onError": "block"}]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({})).await);
    let err = r["runs"][0]["error"].as_str().unwrap();
    assert!(err.starts_with("cannot start hook: /no/such/program"), "{err}");
    assert_eq!(r["outcome"]["decision"], "deny");

    let mut req = req("PreToolUse", json!({}));
    req.cwd = Some(p.path("missing-dir").display().to_string());
    let r = to_json(&rt.dispatch(req, &CancellationToken::new()).await.unwrap());
    assert!(r["runs"][0]["error"].as_str().unwrap().contains("does not exist"));
}

#[tokio::test]
async fn background_process_holding_pipes_does_not_hang_the_run() {
    let p = Project::new();
    p.claude(json!({"SessionStart": [{"hooks": [
        {"command": format!("(echo $BASHPID; sh -c 'echo $$ > {0}; exec sleep 30') & until [ -s {0} ]; do sleep 0.01; done; echo started", p.path("bg.pid").display())}
    ]}]}));
    let rt = p.runtime();
    let started = Instant::now();
    let r = to_json(&dispatch(&rt, "SessionStart", json!({})).await);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], 0);
    assert!(r["outcome"]["contexts"][0].as_str().unwrap().contains("started"));
    assert_gone(read_pid(&p.path("bg.pid")));
}
