//! Hostile hooks and broken files: each has a defined outcome and leaves no process behind.

use crate::common::*;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use serde_json::{json, Value};
use std::time::Duration;

fn gone(pid: i32) -> bool {
    for _ in 0..200 {
        if !pid_alive_or_zombie(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

fn pids(p: &Project, file: &str) -> Vec<i32> {
    std::fs::read_to_string(p.path(file)).unwrap_or_default().lines().filter_map(|l| l.trim().parse().ok()).collect()
}

#[tokio::test]
async fn fork_bomb_within_a_bound_is_killed_whole() {
    let p = Project::new();
    let cmd = format!("for i in $(seq 1 40); do sleep 30 & echo $! >> {}; done; wait", p.path("kids").display());
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": cmd, "timeout": 1}]}]}));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({})).await);
    assert_eq!(r["runs"][0]["error"], "timed out after 1s");
    let kids = pids(&p, "kids");
    assert_eq!(kids.len(), 40);
    assert!(kids.iter().all(|&k| gone(k)));
}

#[tokio::test]
async fn setsid_daemons_are_found_by_their_marker() {
    let p = Project::new();
    // Holds the hook's stdout from its own session after the hook exits.
    // Each hook waits until its daemon has written its pid, so a busy machine cannot
    // let hookrt kill the daemon before the test knows which process to look for.
    let holder_pid = p.path("holder.pid");
    let holder = format!(
        "setsid sh -c 'echo $$ > {0}; exec sleep 30' & until [ -s {0} ]; do sleep 0.01; done; echo started",
        holder_pid.display()
    );
    // Detaches from the pipes and its session, while the hook itself overruns its timeout.
    let detached = format!(
        "setsid sh -c 'echo $$ > {0}; exec sleep 30' </dev/null >/dev/null 2>&1 & until [ -s {0} ]; do sleep 0.01; done; sleep 30",
        p.path("detached.pid").display()
    );
    p.claude(json!({"PreToolUse": [
        {"matcher": "A", "hooks": [{"command": holder}]},
        {"matcher": "B", "hooks": [{"command": detached, "timeout": 2}]}
    ]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "A"})).await);
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], 0);
    assert_eq!(r["runs"][0]["outcome"]["stdout"], "started");
    assert!(gone(read_pid(&holder_pid)));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "B"})).await);
    assert_eq!(r["runs"][0]["error"], "timed out after 2s");
    assert!(gone(read_pid(&p.path("detached.pid"))));
}

#[tokio::test]
async fn odd_output_behaviour() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [
        {"matcher": "closed", "hooks": [{"command": "exec 1>&-; echo still here >&2; sleep 0.1"}]},
        {"matcher": "utf8", "hooks": [{"command": "printf '\\377\\376ok'"}]},
        {"matcher": "stderr", "hooks": [{"command": "head -c 20000000 /dev/zero >&2; echo done"}]},
        {"matcher": "signal", "hooks": [{"command": "kill -TERM $$"}]}
    ]}));
    let rt = p.runtime();
    let run = |tool: &'static str| {
        let rt = &rt;
        async move { to_json(&dispatch(rt, "PreToolUse", json!({"tool_name": tool})).await)["runs"][0]["outcome"].clone() }
    };
    let o = run("closed").await;
    assert_eq!(
        (o["exitCode"].clone(), o["stdout"].clone(), o["stderr"].clone()),
        (json!(0), json!(""), json!("still here"))
    );
    let o = run("utf8").await;
    assert_eq!(o["stdout"], "\u{fffd}\u{fffd}ok");
    let o = run("stderr").await;
    assert_eq!((o["stdout"].clone(), o["truncated"].clone()), (json!("done"), json!(true)));
    let o = run("signal").await;
    assert_eq!(o["exitCode"], Value::Null);
}

#[tokio::test]
async fn commands_that_cannot_run() {
    let p = Project::new();
    let not_exec = p.write("not-exec.sh", "echo hi\n");
    p.claude(json!({"PreToolUse": [
        {"matcher": "missing", "hooks": [{"command": "no-such-command-hookrt"}]},
        {"matcher": "missingexec", "hooks": [{"command": "/no/such/bin", "args": []}]},
        {"matcher": "noexec", "hooks": [{"command": not_exec.display().to_string(), "args": []}]}
    ]}));
    let rt = p.runtime();
    let run = |tool: &'static str| {
        let rt = &rt;
        async move { to_json(&dispatch(rt, "PreToolUse", json!({"tool_name": tool})).await)["runs"][0].clone() }
    };
    let r = run("missing").await;
    assert_eq!(r["outcome"]["exitCode"], 127);
    assert!(r["outcome"]["stderr"].as_str().unwrap().contains("not found"));
    let r = run("missingexec").await;
    assert_eq!(r["error"], "cannot start hook: /no/such/bin: No such file or directory");
    let r = run("noexec").await;
    assert_eq!(r["error"], format!("cannot start hook: {}: Permission denied", not_exec.display()));
}

#[tokio::test]
async fn hostile_config_files() {
    let p = Project::new();
    std::fs::create_dir_all(p.path("proj/.claude/settings.json")).unwrap();
    std::fs::create_dir_all(p.path("proj/.agents")).unwrap();
    std::os::unix::fs::symlink(p.path("proj/loop-b"), p.path("proj/.dsh-hooks.json")).unwrap();
    std::os::unix::fs::symlink(p.path("proj/.dsh-hooks.json"), p.path("proj/loop-b")).unwrap();
    nix::unistd::mkfifo(&p.path("proj/.agents/hooks.json"), nix::sys::stat::Mode::from_bits_truncate(0o644)).ok();
    let big = std::fs::File::create(p.path("proj/opencode.json")).unwrap();
    big.set_len(100 * 1024 * 1024).unwrap();
    let rt = p.runtime();
    let d: Vec<String> = rt.loaded().diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(d.len(), 4, "{d:?}");
    assert_eq!(d[0], "cannot read config: it is a directory");
    assert!(d[1].starts_with("config is too large (104857600 bytes"), "{d:?}");
    assert_eq!(d[2], "cannot read config: not a regular file");
    assert_eq!(d[3], "cannot read config: Too many levels of symbolic links");
}

#[tokio::test]
async fn hook_processes_are_limited() {
    let p = Project::new();
    let dir = p.path("running");
    std::fs::create_dir_all(&dir).unwrap();
    let cmd = format!(
        "touch {d}/$$; ls {d} | wc -l >> {log}; sleep 0.2; rm {d}/$$",
        d = dir.display(),
        log = p.path("seen").display()
    );
    p.claude(
        json!({"Stop": [{"hooks": (0..6).map(|i| json!({"command": format!("{cmd} # {i}")})).collect::<Vec<_>>()}]}),
    );
    let opts = RuntimeOptions { max_processes: Some(2), ..p.options() };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let r = to_json(&dispatch(&rt, "Stop", json!({})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 6);
    let seen = pids(&p, "seen");
    assert_eq!(seen.len(), 6);
    assert!(seen.iter().all(|&n| n <= 2), "{seen:?}");
}

#[tokio::test]
async fn secrets_can_be_stripped_and_webhooks_allowlisted() {
    let p = Project::new();
    std::env::set_var("HOOKRT_TEST_API_TOKEN", "t0ps3cret");
    p.claude(json!({"PreToolUse": [
        {"matcher": "env", "hooks": [{"command": "echo \"token=${HOOKRT_TEST_API_TOKEN:-none} path=${PATH:+set}\""}]},
        {"matcher": "hook", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}
    ]}));
    let opts = RuntimeOptions {
        strip_secrets: true,
        webhook_allowlist: Some(vec!["https://hooks.example.com/".into()]),
        ..p.options()
    };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "env"})).await);
    assert_eq!(r["runs"][0]["outcome"]["stdout"], "token=none path=set");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "hook"})).await);
    assert_eq!(r["runs"][0]["error"], "webhook http://127.0.0.1:9/x is not in the webhook allowlist");
    let plain = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "env"})).await);
    assert_eq!(plain["runs"][0]["outcome"]["stdout"], "token=t0ps3cret path=set");
}
