//! Claude Code's 2026 hook surface with real hook processes: PermissionRequest decisions,
//! `defer`, the context cap, `stop_hook_active`, `CLAUDE_ENV_FILE`, plugins, managed
//! settings and `enabled: false`.

use crate::common::*;
use hookrt::all_dispatch_names;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use serde_json::json;

#[tokio::test]
async fn permission_request_allow_with_updated_input_and_deny_with_message() {
    let p = Project::new();
    p.claude(json!({"PermissionRequest": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": answer(json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedInput": {"command": "npm run lint"},
                         "updatedPermissions": [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]}}}))}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": answer(json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no writes here", "interrupt": true}}}))}]},
        {"matcher": "Read", "hooks": [{"type": "command", "command": "echo exit two is not honoured >&2; exit 2"}]}
    ]}));
    let rt = p.runtime();
    let r = to_json(
        &dispatch(&rt, "PermissionRequest", json!({"tool_name": "Bash", "tool_input": {"command": "npm test"}})).await,
    );
    assert_eq!(r["canonical"], "permission:request");
    assert_eq!(r["outcome"]["decision"], "allow");
    assert_eq!(r["outcome"]["updateInputs"], json!([{"command": "npm run lint"}]));
    assert_eq!(r["outcome"]["permission"]["behavior"], "allow");
    assert_eq!(r["outcome"]["permission"]["updatedPermissions"][0]["mode"], "acceptEdits");

    let r = to_json(&dispatch(&rt, "permission:request", json!({"tool_name": "Write"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "no writes here");
    assert_eq!(r["outcome"]["permission"], json!({"behavior": "deny", "message": "no writes here", "interrupt": true}));

    let r = to_json(&dispatch(&rt, "PermissionRequest", json!({"tool_name": "Read"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["runs"][0]["outcome"]["exitCode"], 2);
    assert!(r["runs"][0]["outcome"].get("decision").is_none());
}

fn decide(d: &str, why: &str) -> String {
    answer(
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d, "permissionDecisionReason": why}}),
    )
}

#[tokio::test]
async fn defer_beats_ask_and_loses_to_deny() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"command": decide("ask", "ask me")}, {"command": decide("defer", "later")}, {"command": decide("allow", "fine")}]},
        {"matcher": "Bash|Write", "hooks": [{"command": "cat >/dev/null"}]},
        {"matcher": "Write", "hooks": [{"command": decide("defer", "later")}, {"command": decide("deny", "never")}]}
    ]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()), (Some("defer"), Some("later")));
    assert_eq!(r["runs"][1]["outcome"]["decision"], "defer");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()), (Some("deny"), Some("never")));
}

#[tokio::test]
async fn a_long_context_is_cut_with_a_marker() {
    let p = Project::new();
    p.claude(json!({"SessionStart": [{"hooks": [
        {"command": "python3 -c \"import json; print(json.dumps({'additionalContext': 'x' * 50000}))\""},
        {"command": "head -c 30000 /dev/zero | tr '\\0' y"}
    ]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "SessionStart", json!({"source": "startup"})).await);
    let ctx: Vec<&str> = r["outcome"]["contexts"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(ctx.len(), 2);
    assert!(ctx[0].starts_with(&"x".repeat(10_000)));
    assert_eq!(&ctx[0][10_000..], "\n[hookrt: 40000 more characters cut]");
    assert_eq!(&ctx[1][10_000..], "\n[hookrt: 20000 more characters cut]");
    // The option changes the cap.
    let rt = Runtime::with_env(&RuntimeOptions { context_cap: Some(5), ..p.options() }, &|_| None).unwrap();
    let r = to_json(&dispatch(&rt, "SessionStart", json!({})).await);
    assert_eq!(r["outcome"]["contexts"][1], "yyyyy\n[hookrt: 29995 more characters cut]");
}

#[tokio::test]
async fn subagent_stop_gets_stop_hook_active_per_subagent() {
    let p = Project::new();
    let seen = p.path("active.log");
    p.claude(json!({"SubagentStop": [{"hooks": [{"command": format!(
        "python3 -c 'import json,sys; print(repr(json.load(sys.stdin).get(\"stop_hook_active\")))' >> {}; echo not yet >&2; exit 2",
        seen.display()
    )}]}]}));
    let rt = p.runtime();
    for agent in ["a1", "a1", "a2"] {
        dispatch(&rt, "SubagentStop", json!({"session_id": "s", "agent_id": agent, "agent_type": "Explore"})).await;
    }
    assert_eq!(std::fs::read_to_string(&seen).unwrap().lines().collect::<Vec<_>>(), ["False", "True", "False"]);
}

#[tokio::test]
async fn claude_env_file_round_trip() {
    let p = Project::new();
    let seen = p.path("envfile.path");
    p.claude(json!({"SessionStart": [{"hooks": [
        {"command": format!("echo \"$CLAUDE_ENV_FILE\" > {}; echo 'export NODE_ENV=production' >> \"$CLAUDE_ENV_FILE\"", seen.display())},
        {"command": "printf '%s\\n' 'export GREETING=\"hello world\"' 'rm -rf /' >> \"$CLAUDE_ENV_FILE\""}
    ]}], "PreToolUse": [{"hooks": [{"command": "echo \"[$CLAUDE_ENV_FILE]\""}]}]}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "SessionStart", json!({"source": "startup"})).await);
    assert_eq!(r["outcome"]["env"], json!({"GREETING": "hello world", "NODE_ENV": "production"}));
    let path = std::fs::read_to_string(&seen).unwrap();
    assert!(!path.trim().is_empty());
    assert!(!std::path::Path::new(path.trim()).exists(), "the env file is removed afterwards");
    // Other events get no env file.
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["runs"][0]["outcome"]["stdout"], "[]");
    assert!(r["outcome"].get("env").is_none());
}

#[tokio::test]
async fn plugin_hooks_use_their_root_and_data_dir() {
    let p = Project::new();
    let root = p.path("plugins/formatter");
    p.write(
        "plugins/formatter/hooks/hooks.json",
        &json!({"description": "fmt", "hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"}
        ]}]}})
        .to_string(),
    );
    p.write(
        "plugins/formatter/scripts/check.sh",
        "#!/bin/sh\necho \"checked by $(basename \"$CLAUDE_PLUGIN_ROOT\") data=$CLAUDE_PLUGIN_DATA\" >&2\nexit 2\n",
    );
    std::process::Command::new("chmod").arg("+x").arg(p.path("plugins/formatter/scripts/check.sh")).status().unwrap();
    // A plugin without hooks is skipped silently; a broken one is a diagnostic naming it.
    std::fs::create_dir_all(p.path("plugins/empty")).unwrap();
    p.write("plugins/broken/hooks/hooks.json", "{\"hooks\": ");
    let plugin =
        |dir: &str, data: Option<&str>| hookrt::PluginDir { root: p.path(dir), data_dir: data.map(|d| p.path(d)) };
    let opts = RuntimeOptions {
        plugins: vec![
            plugin("plugins/formatter", Some("data/fmt")),
            plugin("plugins/empty", None),
            plugin("plugins/broken", None),
        ],
        ..p.options()
    };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let l = rt.loaded();
    assert_eq!(l.diagnostics.len(), 1, "{:?}", l.diagnostics);
    assert!(l.diagnostics[0].message.starts_with("plugin broken: "), "{}", l.diagnostics[0].message);
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!(r["outcome"]["rawReason"], format!("checked by formatter data={}", p.path("data/fmt").display()));
    assert_eq!(l.sources.iter().find(|s| s.file.contains("formatter")).map(|s| s.scope.as_str()), Some("plugin"));
    assert!(root.exists());
}

#[tokio::test]
async fn installed_and_enabled_plugins_are_found_in_the_cache() {
    let p = Project::new();
    p.write(
        "home/.claude/plugins/cache/market/linter/1.2.0/hooks/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"command": "echo \"from $(basename $(dirname \"$CLAUDE_PLUGIN_ROOT\")) $CLAUDE_PLUGIN_DATA\" >&2; exit 2"}]}]}}).to_string(),
    );
    p.write(
        "home/.claude/plugins/cache/market/other/1.0.0/hooks/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"command": "exit 2"}]}]}}).to_string(),
    );
    p.write(
        "home/.claude/settings.json",
        &json!({"enabledPlugins": {"linter@market": true, "other@market": true}}).to_string(),
    );
    p.write("proj/.claude/settings.json", &json!({"enabledPlugins": {"other@market": false}}).to_string());
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "Stop", json!({})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 1);
    assert_eq!(
        r["outcome"]["reason"],
        format!("from linter {}", p.path("home/.claude/plugins/data/linter-market").display())
    );
}

#[tokio::test]
async fn managed_settings_allow_managed_hooks_only_and_win_disable_all() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": "echo project"}, {"command": "echo identical"}]}]}));
    p.write(
        "home/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "echo user"}]}]}}).to_string(),
    );
    let managed = |v: serde_json::Value| p.write("managed-settings.json", &v.to_string());
    let hooks = json!({"PreToolUse": [{"hooks": [{"command": "echo managed"}, {"command": "echo identical"}]}]});
    let outs = |r: &serde_json::Value| -> Vec<String> {
        r["runs"].as_array().unwrap().iter().map(|x| x["outcome"]["stdout"].as_str().unwrap().to_owned()).collect()
    };
    // Managed hooks load with the rest; an identical copy elsewhere is not merged away.
    managed(json!({"hooks": hooks}));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(outs(&r), ["managed", "identical", "user", "project", "identical"]);
    // allowManagedHooksOnly drops every other file's hooks, with a diagnostic saying how many.
    managed(json!({"hooks": hooks, "allowManagedHooksOnly": true}));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(outs(&r), ["managed", "identical"]);
    assert!(rt
        .loaded()
        .diagnostics
        .iter()
        .any(|d| d.message == "allowManagedHooksOnly: 3 hook(s) from other files are not loaded"));
    // A project's disableAllHooks cannot turn managed hooks off; managed disableAllHooks can.
    p.write("proj/.claude/settings.local.json", &json!({"disableAllHooks": true}).to_string());
    managed(json!({"hooks": hooks}));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(outs(&r), ["managed", "identical"]);
    managed(json!({"hooks": hooks, "disableAllHooks": true}));
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert!(outs(&r).is_empty());
}

#[tokio::test]
async fn enabled_false_is_loaded_listed_and_never_run() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"command": "echo off", "enabled": false}, {"command": "echo on", "enabled": "no"}]}]}));
    p.write(
        "proj/.codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "echo codex off", "enabled": false}]}]}}).to_string(),
    );
    let rt = p.runtime();
    let l = rt.loaded();
    let flags: Vec<(String, bool)> = l.table.hooks().iter().map(|h| (h.id.clone(), h.enabled)).collect();
    assert_eq!(flags.iter().filter(|(_, e)| !e).count(), 2, "{flags:?}");
    assert!(l.diagnostics.iter().any(|d| d.message.ends_with("enabled must be true or false; the hook stays enabled")));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    let outs: Vec<&str> =
        r["runs"].as_array().unwrap().iter().map(|x| x["outcome"]["stdout"].as_str().unwrap()).collect();
    assert_eq!(outs, ["on"]);
}

#[tokio::test]
async fn every_claude_and_codex_event_dispatches_and_reaches_its_hooks() {
    let p = Project::new();
    let names: Vec<&str> = hookrt::event_names(hookrt::Dialect::Claude);
    assert!(names.len() >= 34);
    let hooks: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| (n.to_string(), json!([{"hooks": [{"command": format!("cat > /dev/null; echo ran {n} >&2")}]}])))
        .collect();
    p.claude(serde_json::Value::Object(hooks));
    let rt = p.runtime();
    // Only the notice that the project's hooks are not approved (they still run).
    let loaded = rt.loaded();
    assert!(
        loaded.diagnostics.iter().all(|d| d.message.contains("project hook(s) not approved")),
        "{:?}",
        loaded.diagnostics
    );
    for n in &names {
        assert!(all_dispatch_names().contains(n), "{n}");
        let r = to_json(&dispatch(&rt, n, json!({"tool_name": "Bash"})).await);
        let runs = r["runs"].as_array().unwrap();
        assert!(runs.iter().any(|x| x["outcome"]["stderr"] == format!("ran {n}")), "{n}: {r}");
    }
}

#[tokio::test]
async fn worktree_create_path_and_stop_failure_output_discarded() {
    let p = Project::new();
    p.claude(json!({
        "WorktreeCreate": [{"hooks": [{"command": "echo /tmp/wt/feature"}]}],
        "StopFailure": [{"hooks": [{"command": "echo '{\"decision\":\"block\",\"systemMessage\":\"x\"}'; exit 2"}]}],
        "SessionStart": [{"hooks": [{"command": answer(json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "sessionTitle": "auth", "watchPaths": ["/p/.envrc"], "reloadSkills": true, "initialUserMessage": 5}}))}]}]
    }));
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "WorktreeCreate", json!({"name": "feature"})).await);
    assert_eq!(r["outcome"]["worktreePath"], "/tmp/wt/feature");
    let r = to_json(&dispatch(&rt, "StopFailure", json!({"error": "rate_limit"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["outcome"]["messages"], json!([]));
    assert!(r["outcome"].get("rawDecision").is_none());
    let r = to_json(&dispatch(&rt, "SessionStart", json!({"source": "startup"})).await);
    assert_eq!(r["outcome"]["sessionTitle"], "auth");
    assert_eq!(r["outcome"]["watchPaths"], json!(["/p/.envrc"]));
    assert_eq!(r["outcome"]["reloadSkills"], true);
    assert!(r["outcome"].get("initialUserMessage").is_none(), "a number is ignored");
}
