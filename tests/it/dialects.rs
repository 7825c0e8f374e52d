//! The hook files users already have: Codex config.toml, Hermes config.yaml (with consent),
//! .agents/hooks.json; the stdin each hook sees; de-duplication; the Stop loop guard.

use crate::common::*;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use hookrt::Severity;
use hookrt::{script_hash, store_path, Subject, TrustStore};
use serde_json::{json, Value};

fn messages(r: &Value) -> Vec<String> {
    r["outcome"]["messages"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn codex_config_toml_hooks_run_like_hooks_json() {
    let p = Project::new();
    p.write(
        "home/.codex/config.toml",
        r#"model = "o3"

[[hooks.PreToolUse]]
matcher = "^Ba"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "printf '{\"systemMessage\":\"from toml\"}'"
"#,
    );
    let rt = p.runtime();
    assert!(rt.loaded().diagnostics.is_empty(), "{:?}", rt.loaded().diagnostics);
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(messages(&r), vec!["from toml"]);
    assert_eq!(r["runs"][0]["hook"]["id"], "codex:config.toml:PreToolUse:0:0");
    assert_eq!(r["runs"][0]["hook"]["dialect"], "codex");

    // A config.toml without hooks is just settings; a broken one is a diagnostic.
    p.write("home/.codex/config.toml", "model = \"o3\"\n");
    assert!(p.runtime().loaded().diagnostics.is_empty());
    p.write("home/.codex/config.toml", "[hooks\nPreToolUse = 1\n");
    let d = p.runtime().loaded().diagnostics.clone();
    assert_eq!(d.len(), 1);
    assert!(d[0].message.starts_with("config is not valid TOML: "), "{}", d[0].message);
    assert_eq!(d[0].file.as_deref(), Some(p.path("home/.codex/config.toml").to_str().unwrap()));
}

fn hermes_config(p: &Project, body: &str) {
    p.write("home/.hermes/config.yaml", body);
}

#[tokio::test]
async fn hermes_shell_hooks() {
    let p = Project::new();
    let script = p.write(
        "home/.hermes/agent-hooks/guard.sh",
        "#!/bin/sh\ncat > /dev/null\nprintf '{\"action\":\"block\",\"message\":\"no %s\"}\\n' \"$1\"\n",
    );
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    hermes_config(
        &p,
        r#"
model: whatever
hooks:
  pre_tool_call:
    - matcher: "terminal|patch"
      command: "~/.hermes/agent-hooks/guard.sh 'rm -rf' $HOME"
      timeout: 500
  pre_llm_call:
    - command: printf '{"context":"Today is Friday"}'
    - matcher: "x"
      command: "true"
  pre_tool_cal:
    - command: "true"
  on_session_end:
    - timeout: 3
"#,
    );
    let rt = p.runtime();
    let d: Vec<(Severity, String)> = rt.loaded().diagnostics.iter().map(|d| (d.severity, d.message.clone())).collect();
    let has = |m: &str| d.iter().any(|(_, x)| x.contains(m));
    assert!(has("hooks[pre_tool_call][0]: timeout 500 is over 300s; capped"), "{d:?}");
    assert!(has("hooks[pre_llm_call][1]: matcher has no effect on pre_llm_call"), "{d:?}");
    assert!(has("unknown event \"pre_tool_cal\" (ignored); did you mean \"pre_tool_call\"?"), "{d:?}");
    assert!(has("hooks[on_session_end][0]: missing command (skipped)"), "{d:?}");
    assert!(has("not approved; runs anyway"), "{d:?}");

    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "terminal"})).await);
    // Split shell-style and run without a shell: the quoted words stay one argument and
    // `$HOME` is not expanded.
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "no rm -rf");
    assert_eq!(r["runs"][0]["hook"]["id"], "hermes:config.yaml:pre_tool_call:0:0");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "read_file"})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 0);
    let r = to_json(&dispatch(&rt, "pre_llm_call", json!({"user_message": "hi"})).await);
    assert_eq!(r["outcome"]["contexts"], json!(["Today is Friday"]));
    assert_eq!(r["canonical"], "prompt:submit");
}

/// Hermes' own rules for several hooks (`agent/shell_hooks.py`, `hermes_cli/plugins.py`): the
/// same (event, matcher, command) registers once; after a block every hook still runs and the
/// first block's message wins.
#[tokio::test]
async fn hermes_registers_a_hook_once_and_the_first_block_wins() {
    let p = Project::new();
    hermes_config(
        &p,
        r#"
hooks:
  pre_tool_call:
    - matcher: terminal
      command: printf '{"action":"block","message":"first"}'
    - matcher: terminal
      command: "  printf '{\"action\":\"block\",\"message\":\"first\"}'  "
    - command: printf '{"action":"block","message":"second"}'
    - matcher: patch
      command: printf '{"action":"block","message":"first"}'
"#,
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "terminal"})).await);
    let ids: Vec<&str> = r["runs"].as_array().unwrap().iter().map(|r| r["hook"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["hermes:config.yaml:pre_tool_call:0:0", "hermes:config.yaml:pre_tool_call:2:0"]);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "first");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "patch"})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 2, "another matcher is another hook");
}

#[tokio::test]
async fn hermes_consent_requires_approval_and_reapproval_after_edits() {
    let p = Project::new();
    let script = p.write("home/hooks/ok.sh", "echo '{\"decision\":\"block\",\"reason\":\"v1\"}'\n");
    hermes_config(&p, &format!("hooks:\n  pre_tool_call:\n    - command: sh {}\n", script.display()));
    let opts = RuntimeOptions { require_hook_approval: Some(hookrt::ApprovalScope::Project), ..p.options() };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    assert!(rt.loaded().diagnostics.iter().any(|d| d.message.contains("not approved; skipped")));
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "x"})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 0);

    // Approve the (event, command) pair with the script's current hash.
    let command = format!("sh {}", script.display());
    let argv: Vec<String> = vec!["sh".into(), script.display().to_string()];
    let (_, hash) = script_hash(&argv, &p.path("home")).unwrap();
    let mut store = TrustStore::default();
    let (script_path, file) = (script.clone(), p.path("home/.hermes/config.yaml"));
    let subject =
        Subject { event: "pre_tool_call", command: &command, script: Some(&script_path), project: None, file: &file };
    store.approve(&subject, Some(&hash));
    store.save(&store_path(&p.path("home"))).unwrap();
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    assert!(rt.loaded().diagnostics.is_empty(), "{:?}", rt.loaded().diagnostics);
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "x"})).await);
    assert_eq!(r["outcome"]["reason"], "v1");

    // Editing the script withdraws the approval.
    std::fs::write(&script, "echo '{\"decision\":\"block\",\"reason\":\"v2\"}'\n").unwrap();
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    assert!(rt.loaded().diagnostics.iter().any(|d| d.message.contains("its script changed since it was approved")));
    assert_eq!(rt.loaded().listed[0].status, hookrt::TrustStatus::Changed);
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "x"})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 0);

    // HERMES_ACCEPT_HOOKS=1 accepts everything.
    let rt = Runtime::with_env(&opts, &|k| (k == "HERMES_ACCEPT_HOOKS").then(|| "1".to_string())).unwrap();
    let r = to_json(&dispatch(&rt, "pre_tool_call", json!({"tool_name": "x"})).await);
    assert_eq!(r["outcome"]["reason"], "v2");
}

#[tokio::test]
async fn broken_files_of_every_dialect_are_diagnostics() {
    let p = Project::new();
    p.write("home/.hermes/config.yaml", "hooks:\n  pre_tool_call: [\n");
    p.write("proj/.agents/hooks.json", "{\"PreToolUse\": [{\"command\": }");
    p.write("proj/.codex/config.toml", "[[hooks.Stop]\n");
    p.write("proj/opencode.jsonc", "{ // fine\n \"hooks\": {\"session.idle\": 5} }");
    p.write("proj/.dsh-hooks.json", "[]");
    let rt = p.runtime();
    let d: Vec<(String, String)> = rt
        .loaded()
        .diagnostics
        .iter()
        .map(|d| {
            (d.file.clone().unwrap_or_default().rsplit('/').next().unwrap_or_default().to_owned(), d.message.clone())
        })
        .collect();
    let starts = |f: &str, m: &str| d.iter().any(|(file, msg)| file == f && msg.starts_with(m));
    assert!(starts("config.yaml", "config is not valid YAML: "), "{d:?}");
    assert!(starts("hooks.json", "config is not valid JSON: "), "{d:?}");
    assert!(starts("config.toml", "config is not valid TOML: "), "{d:?}");
    assert!(starts("opencode.jsonc", "hooks[session.idle]: must be an array of matcher groups"), "{d:?}");
    assert!(starts(".dsh-hooks.json", "config root must be a JSON object (hookrt hooks file)"), "{d:?}");
    assert_eq!(d.len(), 5, "{d:?}");
    assert!(rt.loaded().table.hooks().is_empty());
}

#[tokio::test]
async fn agents_hooks_json() {
    let p = Project::new();
    p.write(
        "proj/.agents/hooks.json",
        &json!({
            "PreToolUse": [
                {"matcher": "Bash", "command": "echo 'Bash blocked by PreToolUse demo' >&2; exit 2"},
                {"matcher": "Write", "command": "echo checking; echo '{\"behavior\":\"deny\",\"message\":\"no writes\"}'"},
                {"matcher": "Edit", "command": "exit 1", "denyOnFailure": true},
                {"matcher": "Read", "command": "exit 1"},
                {"matcher": "Slow", "command": "sleep 5", "timeoutMs": 300, "denyOnFailure": true}
            ],
            "PostToolUse": [{"matcher": "*", "command": "echo logged >&2"}],
            "Stop": [{"command": "true", "timeoutMs": -1}]
        })
        .to_string(),
    );
    let rt = p.runtime();
    let loaded = rt.loaded();
    let d: Vec<_> = loaded.diagnostics.iter().filter(|d| !d.message.contains("not approved")).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].message, "[Stop][0]: timeoutMs must be a positive number of milliseconds");
    let reason = |tool: &'static str| {
        let rt = &rt;
        async move {
            let r = to_json(&dispatch(rt, "PreToolUse", json!({"tool_name": tool})).await);
            (r["outcome"]["decision"].as_str().unwrap().to_owned(), r["outcome"]["reason"].as_str().map(str::to_owned))
        }
    };
    assert_eq!(reason("Bash").await, ("deny".into(), Some("Bash blocked by PreToolUse demo".into())));
    assert_eq!(reason("Write").await, ("deny".into(), Some("no writes".into())));
    assert_eq!(reason("Edit").await, ("deny".into(), Some("hook failed with exit code 1".into())));
    assert_eq!(reason("Read").await, ("none".into(), None));
    assert_eq!(reason("Slow").await, ("deny".into(), Some("hook failed: timed out after 0.3s".into())));
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Read"})).await);
    assert_eq!(r["runs"][0]["hook"]["id"], "agents:hooks.json:PostToolUse:0:0");

    // The wrapped form reads the same.
    p.write("proj/.agents/hooks.json", &json!({"hooks": {"Stop": [{"command": "exit 2"}]}}).to_string());
    let r = to_json(&dispatch(&p.runtime(), "Stop", json!({})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
}

#[tokio::test]
async fn every_dialect_gets_its_own_stdin() {
    let p = Project::new();
    let cap = |name: &str| format!("cat > {}", p.path(&format!("{name}.stdin")).display());
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": cap("claude")}]}]}));
    p.write(
        "proj/.codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"command": cap("codex")}]}]}}).to_string(),
    );
    p.write(
        "proj/opencode.json",
        &json!({"hooks": {"tool.execute.before": [{"hooks": [{"command": cap("opencode")}]}]}}).to_string(),
    );
    p.write(
        "proj/.dsh-hooks.json",
        &json!({"events": {"tool:before": [{"hooks": [{"command": cap("native")}]}]}}).to_string(),
    );
    p.write("proj/.agents/hooks.json", &json!({"PreToolUse": [{"command": cap("agents")}]}).to_string());
    hermes_config(
        &p,
        &format!("hooks:\n  pre_tool_call:\n    - command: sh -c \"cat > {}\"\n", p.path("hermes.stdin").display()),
    );
    let opts = RuntimeOptions { model: Some("gpt-x".into()), turn_id: Some("t-9".into()), ..p.options() };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let host = json!({"session_id": "s1", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "u1"});
    let r = to_json(&dispatch(&rt, "PreToolUse", host).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 6, "{r}");
    let read = |n: &str| std::fs::read_to_string(p.path(&format!("{n}.stdin"))).unwrap();
    let parse = |n: &str| serde_json::from_str::<Value>(&read(n)).unwrap();
    let cwd = p.path("proj").display().to_string();

    let c = parse("claude");
    assert!(read("claude").ends_with('\n'));
    assert_eq!(
        c,
        json!({"session_id": "s1", "transcript_path": "", "cwd": cwd, "hook_event_name": "PreToolUse",
               "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "u1"})
    );
    assert!(!read("codex").ends_with('\n'));
    let x = parse("codex");
    assert_eq!(x["transcript_path"], Value::Null);
    assert_eq!((x["model"].as_str(), x["turn_id"].as_str()), (Some("gpt-x"), Some("t-9")));
    assert_eq!(parse("opencode")["hook_event_name"], "tool.execute.before");
    let n = parse("native");
    assert_eq!(n["event"], "tool:before");
    assert!(n["ts"].as_str().unwrap().ends_with('Z'));
    assert!(n.get("permission_mode").is_none());
    assert_eq!(n["hook_event_name"], "tool:before");
    assert_eq!(parse("agents")["hook_event_name"], "PreToolUse");
    assert_eq!(
        parse("hermes"),
        json!({"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"},
               "session_id": "s1", "cwd": cwd,
               "extra": {"tool_call_id": "u1", "telemetry_schema_version": "hermes.observer.v1"}})
    );
}

#[tokio::test]
async fn identical_handlers_from_several_files_run_once() {
    let p = Project::new();
    let hook =
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "echo '{\"systemMessage\":\"guard\"}'"}]}]});
    p.write("home/.claude/settings.json", &json!({"hooks": hook}).to_string());
    p.claude(hook.clone());
    p.write(
        "proj/.claude/settings.local.json",
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"command": "echo '{\"systemMessage\":\"guard\"}'", "timeout": 5}]}
        ]}})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    // Home and project copies are identical: one run. The local copy differs (timeout): it runs.
    assert_eq!(messages(&r), vec!["guard", "guard"]);
    let files: Vec<_> = rt.loaded().table.hooks().iter().map(|h| h.file.clone()).collect();
    assert_eq!(files, vec![p.path("home/.claude/settings.json"), p.path("proj/.claude/settings.local.json")]);
}

#[tokio::test]
async fn stop_loop_guard() {
    let p = Project::new();
    let seen = p.path("active.log");
    p.claude(json!({"Stop": [{"hooks": [
        {"command": format!("python3 -c 'import json,sys; print(json.load(sys.stdin).get(\"stop_hook_active\"))' >> {}; echo again >&2; exit 2", seen.display())}
    ]}]}));
    let opts = RuntimeOptions { stop_block_limit: Some(3), ..p.options() };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let mut decisions = Vec::new();
    for _ in 0..5 {
        let r = to_json(&dispatch(&rt, "Stop", json!({"session_id": "s1"})).await);
        decisions.push((
            r["outcome"]["decision"].as_str().unwrap().to_owned(),
            r["outcome"]["downgraded"].as_bool().unwrap(),
        ));
    }
    assert_eq!(
        decisions,
        vec![
            ("deny".into(), false),
            ("deny".into(), false),
            ("deny".into(), false),
            ("none".into(), true),
            ("deny".into(), false)
        ]
    );
    let log = std::fs::read_to_string(&seen).unwrap();
    assert_eq!(log.lines().collect::<Vec<_>>(), vec!["False", "True", "True", "True", "False"]);
    // Another session is counted apart.
    let r = to_json(&dispatch(&rt, "Stop", json!({"session_id": "s2"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(std::fs::read_to_string(&seen).unwrap().lines().last(), Some("False"));
}

/// `always_matches` lets the JS wrapper skip the per-dispatch `any_match` call: it must never
/// say yes where some subject would match nothing, and it says yes for the plain cases.
#[tokio::test]
async fn always_matching_events_match_every_subject() {
    let subjects = [None, Some("Bash"), Some("Read"), Some("mcp__x__y"), Some("")];
    let cases = [
        (json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}), "PreToolUse", true),
        (
            json!({"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "true"}]}]}),
            "PreToolUse",
            true,
        ),
        (
            json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}),
            "PreToolUse",
            false,
        ),
        (
            json!({"PreToolUse": [{"matcher": ".*", "hooks": [{"type": "command", "command": "true"}]}]}),
            "PreToolUse",
            false,
        ),
        (json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}), "PostToolUse", false),
        (json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}), "Stop", true),
    ];
    for (hooks, event, want) in cases {
        let p = Project::new();
        p.claude(hooks.clone());
        let rt = p.runtime();
        assert_eq!(rt.always_matches(event), want, "{hooks} for {event}");
        if want {
            for s in subjects {
                assert!(rt.any_match(event, s).unwrap(), "{hooks}: {s:?}");
            }
        }
    }
    // Switched off: nothing always matches.
    let p = Project::new();
    p.write(
        "proj/.claude/settings.json",
        &json!({"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
            .to_string(),
    );
    assert!(!p.runtime().always_matches("Stop"));
    assert!(!p.runtime().always_matches("NoSuchEvent"));
}

/// Antigravity CLI 1.2.x reads the user's `~/.gemini/config/hooks.json` (its hooks page lists
/// `~/.gemini/config/` beside the workspace's `.agents/`) in the same named-hook shape; its
/// hooks run with the project's.
#[tokio::test]
async fn antigravity_reads_the_global_hooks_file() {
    let p = Project::new();
    let named = |name: &str, cmd: &str| json!({ name: {"PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": cmd}]}]}});
    p.write(
        "home/.gemini/config/hooks.json",
        &named("global-guard", "echo '{\"decision\":\"deny\",\"reason\":\"global\"}'").to_string(),
    );
    p.write("proj/.agent/hooks.json", &named("project-note", "true").to_string());
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await);
    assert_eq!(r["runs"].as_array().map(Vec::len), Some(2), "{r}");
    assert_eq!((&r["outcome"]["decision"], &r["outcome"]["reason"]), (&json!("deny"), &json!("global")), "{r}");
}
