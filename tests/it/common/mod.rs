//! Helpers for integration tests: temporary projects with real hook files.
#![allow(dead_code)]

mod answers;
pub use answers::*;

use hookrt::RuntimeOptions;
use hookrt::{DispatchRequest, DispatchResult, Runtime};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tokio_util::sync::CancellationToken;

pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Default for Project {
    fn default() -> Self {
        Self::new()
    }
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("proj")).unwrap();
        Project { dir }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Writes `proj/.claude/settings.json` with `hooks`.
    pub fn claude(&self, hooks: Value) -> PathBuf {
        self.write("proj/.claude/settings.json", &json!({ "hooks": hooks }).to_string())
    }

    pub fn options(&self) -> RuntimeOptions {
        RuntimeOptions {
            cwd: Some(self.path("proj")),
            home_dir: Some(self.path("home")),
            reap_orphans: Some(true),
            // Never the machine's own /etc/claude-code/managed-settings.json.
            managed_settings_path: Some(self.path("managed-settings.json")),
            // Never the machine's own /etc/cursor, /etc/gemini-cli, /etc/windsurf.
            system_dir: Some(self.path("etc")),
            // Every hook runs (with the notice about unapproved project hooks); the trust tests
            // choose their mode themselves.
            require_hook_approval: Some(hookrt::ApprovalScope::Unset),
            ..Default::default()
        }
    }

    pub fn runtime(&self) -> Runtime {
        Runtime::with_env(&self.options(), &|_| None).unwrap()
    }
}

pub fn req(event: &str, payload: Value) -> DispatchRequest {
    DispatchRequest {
        event: event.into(),
        payload: payload.as_object().cloned().unwrap_or_default(),
        ..Default::default()
    }
}

pub async fn dispatch(rt: &Runtime, event: &str, payload: Value) -> DispatchResult {
    rt.dispatch(req(event, payload), &CancellationToken::new()).await.unwrap()
}

pub fn to_json(r: &DispatchResult) -> Value {
    serde_json::to_value(r).unwrap()
}

/// A hook command printing a JSON answer.
pub fn answer(v: Value) -> String {
    format!("printf '%s\\n' '{}'", v.to_string().replace('\'', "'\\''"))
}

pub fn pid_alive_or_zombie(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

pub fn read_pid(p: &Path) -> i32 {
    for _ in 0..200 {
        if let Ok(s) = std::fs::read_to_string(p) {
            if let Ok(n) = s.trim().parse() {
                return n;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("no pid in {}", p.display());
}

/// What `hookrt hook <harness>` answered: its exit code, stdout and stderr.
pub struct Inside {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the real `hookrt hook <harness> --event <event> --include-own <args>` in `proj/` as the
/// harness runs its hook: `stdin` on stdin (with `hook_event_name`, `session_id` and `cwd`
/// added when absent), only `PATH` and `HOME` (the project's `home/`) and `env` in the
/// environment.
pub fn inside(p: &Project, harness: &str, event: &str, stdin: Value, env: &[(&str, String)], args: &[&str]) -> Inside {
    use std::io::Write;
    let mut input = stdin.as_object().cloned().unwrap_or_default();
    input.entry("hook_event_name").or_insert(event.into());
    input.entry("session_id").or_insert("s-inside".into());
    input.entry("cwd").or_insert(p.path("proj").display().to_string().into());
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookrt"));
    cmd.args(["hook", harness, "--event", event, "--include-own"])
        .args(args)
        .current_dir(p.path("proj"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", p.path("home"))
        .env("XDG_STATE_HOME", p.path("state"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(Value::Object(input).to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Inside {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A hook command that answers exactly this: `stdout`, `stderr` (kept in files beside the
/// project, so any bytes pass) and the exit code. The command is an executable script's path,
/// so harnesses that split a command without a shell (Hermes) run it too.
pub fn answering(p: &Project, tag: &str, code: i32, stdout: &str, stderr: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let out = p.write(&format!("answers/{tag}.out"), stdout);
    let err = p.write(&format!("answers/{tag}.err"), stderr);
    let script = format!("#!/bin/sh\ncat '{}'\ncat '{}' >&2\nexit {code}\n", out.display(), err.display());
    let path = p.write(&format!("answers/{tag}.sh"), &script);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}
