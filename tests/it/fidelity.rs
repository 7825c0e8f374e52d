//! Each harness's execution rules where the recorded scenarios (e2e/recordings/, replayed by
//! __test__/replay-*.test.mjs) do not reach: shells and guards, exit codes other than the
//! recorded ones, command-string substitution with awkward paths, the harness folders named by
//! environment variables, and the hook's own `env` over the harness's.

use crate::common::*;
use hookrt::{Runtime, RuntimeOptions};
use serde_json::{json, Value};

fn runtime_with(p: &Project, env: &[(&str, String)]) -> Runtime {
    let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    Runtime::with_env(&p.options(), &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())).unwrap()
}

fn gemini(p: &Project, event: &str, command: &str) {
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}}).to_string(),
    );
}

#[tokio::test]
async fn a_bash_guard_blocks_under_the_harnesses_that_run_bash() {
    // `[[ … ]]` is not sh: under /bin/sh the guard would print "[[: not found", exit 0, allow.
    let guard = r#"input=$(cat); [[ "$input" == *"rm -rf"* ]] && { echo "no rm -rf" >&2; exit 2; }; exit 0"#;
    let p = Project::new();
    p.write(
        "proj/.codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": guard}]}]}}).to_string(),
    );
    p.write(
        "proj/.github/hooks/guard.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": guard}]}}).to_string(),
    );
    gemini(&p, "BeforeTool", guard);
    let rt = p.runtime();
    let r = to_json(
        &dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})).await,
    );
    let dialects: Vec<&str> =
        r["runs"].as_array().unwrap().iter().map(|r| r["hook"]["dialect"].as_str().unwrap()).collect();
    assert_eq!(dialects, ["codex", "gemini", "copilot"]);
    for run in r["runs"].as_array().unwrap() {
        assert_eq!(run["outcome"]["decision"], "deny", "{run}");
    }
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await);
    assert_eq!(r["outcome"]["decision"], "none", "{r}");
}

#[tokio::test]
async fn gemini_denies_on_every_code_but_0_and_1_and_warns_on_1() {
    let p = Project::new();
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [
            {"matcher": "read_file", "hooks": [{"type": "command", "command": "echo crashed >&2; exit 3"}]},
            {"matcher": "write_file", "hooks": [{"type": "command", "command": "no-such-program-here"}]},
            {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "echo careful >&2; exit 1"}]},
            {"matcher": "glob", "hooks": [{"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"json wins\"}'; exit 5"}]}
        ]}})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()), (Some("deny"), Some("crashed")));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!(r["outcome"]["decision"], "deny", "exit 127 denies: {r}");
    assert!(r["outcome"]["reason"].as_str().unwrap().contains("not found"), "{r}");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "allow");
    assert_eq!(r["outcome"]["messages"], json!(["Warning: careful"]));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Glob"})).await);
    assert_eq!(r["outcome"]["reason"], "json wins");
}

#[tokio::test]
async fn gemini_substitutes_its_variables_quoted_before_bash_runs() {
    let p = Project::new();
    let proj = p.path("my project");
    std::fs::create_dir_all(proj.join(".gemini")).unwrap();
    std::fs::write(proj.join("marker.txt"), "found").unwrap();
    std::fs::write(
        proj.join(".gemini/settings.json"),
        json!({"hooks": {"BeforeAgent": [{"hooks": [{"type": "command",
            "command": "echo \"{\\\"systemMessage\\\":\\\"$(cat $GEMINI_PROJECT_DIR/marker.txt) $GEMINI_SESSION_ID $(basename $GEMINI_PLANS_DIR)\\\"}\""}]}]}})
        .to_string(),
    )
    .unwrap();
    let opts = RuntimeOptions { cwd: Some(proj.clone()), ..p.options() };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    let r = to_json(&dispatch(&rt, "UserPromptSubmit", json!({"session_id": "s-1", "prompt": "hi"})).await);
    assert_eq!(r["outcome"]["messages"], json!(["found s-1 plans"]), "{r}");
}

#[tokio::test]
async fn a_hooks_own_env_wins_over_the_harness_variables() {
    let p = Project::new();
    // `${GEMINI_CWD}`: Gemini substitutes `$GEMINI_CWD` in the command string itself, from its
    // own value, but not the braced form, which the shell reads from the environment.
    let show = |v: &str| format!("printf '{{\"systemMessage\":\"%s\"}}' \"${{{v}}}\"");
    p.claude(json!({"PreToolUse": [{"hooks": [{"type": "command", "command": show("CLAUDE_PROJECT_DIR"), "env": {"CLAUDE_PROJECT_DIR": "/mine"}}]}]}));
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": show("GEMINI_CWD"), "env": {"GEMINI_CWD": "/ours"}}]}]}})
            .to_string(),
    );
    let r = to_json(&dispatch(&p.runtime(), "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["messages"], json!(["/mine", "/ours"]), "{r}");
}

#[tokio::test]
async fn copilot_hooks_find_their_own_folder_and_copilot_shaped_payloads_match() {
    let p = Project::new();
    p.write(
        "proj/.github/hooks/policy.sh",
        "#!/bin/sh\necho '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"policy\"}'\n",
    );
    std::process::Command::new("chmod").arg("+x").arg(p.path("proj/.github/hooks/policy.sh")).status().unwrap();
    p.write(
        "proj/.github/hooks/a.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "matcher": "bash", "bash": "\"$COPILOT_HOOK_DIR/policy.sh\""}]}})
            .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(
        &dispatch(&rt, "preToolUse", json!({"sessionId": "s", "toolName": "bash", "toolArgs": {"command": "ls"}}))
            .await,
    );
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("policy")),
        "{r}"
    );
}

/// Copilot CLI 1.0.102 as recorded (S11–S15, S11-pascal): a camelCase `preToolUse` hook is
/// read by Copilot's own fields, exit 2 takes the reason of a JSON answer on stdout, and the
/// first deny ends the hooks after it.
#[tokio::test]
async fn copilot_reads_its_own_fields_and_the_first_deny_ends_the_rest() {
    let p = Project::new();
    let say = |answer: Value, code: i32| format!("printf '%s' '{answer}'; exit {code}");
    let hso = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "claude"}});
    let entry = |bash: String| json!({"type": "command", "bash": bash});
    p.write(
        "proj/.github/hooks/a.json",
        &json!({"version": 1, "hooks": {
            "preToolUse": [
                entry(say(hso.clone(), 0)),
                entry(say(json!({"decision": "block", "reason": "legacy"}), 0)),
                entry(say(json!({"continue": false, "stopReason": "stop"}), 0)),
                entry(say(json!({"permissionDecision": "deny", "permissionDecisionReason": "first"}), 2)),
                entry(say(json!({"permissionDecision": "deny", "permissionDecisionReason": "second"}), 0)),
            ],
        }})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "preToolUse", json!({"sessionId": "s", "toolName": "bash", "toolArgs": {}})).await);
    let o = &r["outcome"];
    assert_eq!(
        (o["decision"].as_str(), o["reason"].as_str(), o["stop"].as_bool()),
        (Some("deny"), Some("first"), Some(false)),
        "{r}"
    );
    assert_eq!(r["runs"].as_array().unwrap().len(), 4, "the hook after the first deny does not run: {r}");
    let p = Project::new();
    p.write(
        "proj/.github/hooks/a.json",
        &json!({"version": 1, "hooks": {"PreToolUse": [entry(say(hso, 0))]}}).to_string(),
    );
    let rt = p.runtime();
    let r =
        to_json(&dispatch(&rt, "PreToolUse", json!({"session_id": "s", "tool_name": "bash", "tool_input": {}})).await);
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("claude")),
        "{r}"
    );
}

#[tokio::test]
async fn hermes_reads_hermes_home_keeps_hash_words_and_blocks_on_exit_two() {
    let p = Project::new();
    let hermes_home = p.path("elsewhere/hermes");
    let seen = p.path("argv.txt");
    p.write(
        "elsewhere/hermes/config.yaml",
        &format!(
            "hooks:\n  pre_tool_call:\n    - command: \"sh -c 'echo \\\"$@\\\" > {}; exit 2' sh #tag\"\n      matcher: terminal\n    - command: \"sh -c 'echo \\\"{{\\\\\\\"decision\\\\\\\":\\\\\\\"block\\\\\\\",\\\\\\\"reason\\\\\\\":\\\\\\\"second\\\\\\\"}}\\\"; exit 1'\"\n      matcher: term\n  post_tool_call:\n    - command: \"sh -c 'echo {{\\\\\\\"decision\\\\\\\":\\\\\\\"block\\\\\\\"}}'\"\n",
            seen.display()
        ),
    );
    p.write("home/.hermes/config.yaml", "hooks:\n  pre_tool_call:\n    - command: \"sh -c 'exit 0'\"\n");
    let rt =
        runtime_with(&p, &[("HERMES_HOME", hermes_home.display().to_string()), ("HERMES_ACCEPT_HOOKS", "1".into())]);
    let sources: Vec<String> = rt.loaded().sources.iter().map(|s| s.file.clone()).collect();
    assert_eq!(sources, [hermes_home.join("config.yaml").display().to_string()]);
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await);
    // Exit 2 blocks (from Hermes 0.20.1; 0.19.0's rules in hermes_engine.rs); `term` does not
    // match the whole name `terminal`.
    assert_eq!(r["outcome"]["reason"], "Blocked by shell hook.", "{r}");
    assert_eq!(r["runs"].as_array().unwrap().len(), 1);
    assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), "#tag");
    let r =
        to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Bash", "tool_response": {"stdout": "x"}})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["rawDecision"].as_str()), (Some("none"), None), "{r}");
}

#[tokio::test]
async fn codex_reads_codex_home() {
    let p = Project::new();
    let codex_home = p.path("codex-home");
    p.write(
        "codex-home/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}).to_string(),
    );
    let rt = runtime_with(&p, &[("CODEX_HOME", codex_home.display().to_string())]);
    let r = to_json(&dispatch(&rt, "Stop", json!({"session_id": "s"})).await);
    assert_eq!(r["runs"][0]["hook"]["id"], "codex:hooks.json:Stop:0:0", "{r}");
}

#[tokio::test]
async fn copilot_reads_its_user_hooks_under_copilot_home() {
    let p = Project::new();
    let hooks = json!({"version": 1, "hooks": {"sessionEnd": [{"type": "command", "bash": "true"}]}}).to_string();
    p.write("copilot-home/hooks/a.json", &hooks);
    p.write("home/.copilot/hooks/b.json", &hooks);
    let rt = runtime_with(&p, &[("COPILOT_HOME", p.path("copilot-home").display().to_string())]);
    let r = to_json(&dispatch(&rt, "sessionEnd", json!({"session_id": "s"})).await);
    assert_eq!(r["runs"].as_array().unwrap().len(), 1, "{r}");
    assert!(r["runs"][0]["hook"]["id"].as_str().is_some_and(|id| id.contains("a.json")), "{r}");
}

#[tokio::test]
async fn claude_skill_shell_commands_are_an_event_of_their_own() {
    let p = Project::new();
    p.claude(json!({"PreSkillShellCommand": [{"matcher": "Bash", "hooks": [{"type": "command", "command": answer(json!(
        {"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "not in skills"}}))}]}]}));
    let r = to_json(
        &dispatch(
            &p.runtime(),
            "PreSkillShellCommand",
            json!({"tool_name": "Bash", "tool_input": {"command": "make"}}),
        )
        .await,
    );
    assert_eq!(r["canonical"], "skill:shell");
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("not in skills"))
    );
    let cmd: &Value = &r["runs"][0]["hook"]["command"];
    assert!(cmd.as_str().unwrap().starts_with("printf"), "runs name their command: {r}");
}
