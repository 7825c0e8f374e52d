//! Gemini CLI, Cursor, GitHub Copilot and Windsurf hook files with real hook processes:
//! discovery, their stdin, decisions, context, updated input, timeout units and exit-code rules.

use crate::common::*;
use serde_json::{json, Value};

fn runs(r: &Value) -> &Vec<Value> {
    r["runs"].as_array().unwrap()
}

fn read_json(p: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

// ---------- Gemini CLI ----------

#[tokio::test]
async fn gemini_discovery_stdin_deny_allow_context_and_exit_two() {
    let p = Project::new();
    let seen = p.path("gemini.in");
    let env = p.path("gemini.env");
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {
            "BeforeTool": [
                {"matcher": "run_shell_command", "hooks": [{"name": "guard", "type": "command", "command": format!(
                    "cat > {}; echo \"$GEMINI_PROJECT_DIR\" > {}; {}", seen.display(), env.display(),
                    answer(json!({"decision": "deny", "reason": "gemini says no"})))}]},
                {"matcher": "read_file", "hooks": [{"type": "command", "command": answer(json!({"decision": "allow"}))}]},
                {"matcher": "write_file", "hooks": [{"type": "command", "command": "echo no writes >&2; exit 2"}]}
            ],
            "AfterTool": [{"matcher": "replace", "hooks": [{"type": "command", "command": answer(json!(
                {"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "formatted"}}))}]}],
            "BeforeAgent": [{"hooks": [{"type": "command", "command": "echo plain text is a message"}]}]
        }})
        .to_string(),
    );
    p.write(
        "etc/gemini-cli/settings.json",
        &json!({"hooks": {"SessionStart": [{"hooks": [{"command": "echo sys"}]}]}}).to_string(),
    );
    p.write(
        "home/.gemini/extensions/ext1/hooks/hooks.json",
        &json!({"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "echo ${extensionPath}"}]}]}})
            .to_string(),
    );
    let rt = p.runtime();
    let sources: Vec<(String, String)> = rt
        .loaded()
        .sources
        .iter()
        .map(|s| (serde_json::to_value(s.dialect).unwrap().as_str().unwrap().to_owned(), s.scope.as_str().to_owned()))
        .collect();
    assert!(sources.contains(&("gemini".into(), "project".into())), "{sources:?}");
    assert!(sources.contains(&("gemini".into(), "system".into())), "{sources:?}");
    assert!(sources.contains(&("gemini".into(), "global".into())), "{sources:?}");

    // A Claude-style dispatch reaches the Gemini matcher through the tool-name table.
    let r = to_json(
        &dispatch(
            &rt,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "session_id": "g1"}),
        )
        .await,
    );
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("gemini says no"))
    );
    let input = read_json(&seen);
    assert_eq!(input["hook_event_name"], "BeforeTool");
    assert_eq!(input["tool_name"], "run_shell_command");
    assert_eq!(input["tool_input"]["command"], "rm -rf /");
    assert_eq!(input["session_id"], "g1");
    assert!(input["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(input.get("permission_mode").is_none());
    assert_eq!(std::fs::read_to_string(&env).unwrap().trim(), p.path("proj").display().to_string());

    // Gemini's own spelling dispatches too; allow is a decision.
    let r = to_json(&dispatch(&rt, "BeforeTool", json!({"tool_name": "read_file"})).await);
    assert_eq!(r["outcome"]["decision"], "allow");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Write"})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()), (Some("deny"), Some("no writes")));
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Edit"})).await);
    assert_eq!(r["outcome"]["contexts"], json!(["formatted"]));
    let r = to_json(&dispatch(&rt, "UserPromptSubmit", json!({"prompt": "hi"})).await);
    assert_eq!(r["outcome"]["messages"], json!(["plain text is a message"]));
    assert_eq!(r["outcome"]["contexts"], json!([]));
    let r = to_json(&dispatch(&rt, "SessionEnd", json!({"reason": "exit"})).await);
    assert_eq!(runs(&r)[0]["outcome"]["stdout"], p.path("home/.gemini/extensions/ext1").display().to_string());
}

#[tokio::test]
async fn gemini_timeouts_are_milliseconds_and_switches_turn_hooks_off() {
    let p = Project::new();
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooksConfig": {"disabled": ["noisy"]}, "hooks": {
            "BeforeTool": [{"hooks": [
                {"name": "slow", "type": "command", "command": "sleep 5", "timeout": 300},
                {"name": "noisy", "type": "command", "command": "echo noisy"}
            ]}]
        }})
        .to_string(),
    );
    let rt = p.runtime();
    let hooks = rt.loaded().table.hooks().to_vec();
    assert_eq!(hooks[0].timeout, Some(0.3));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(runs(&r).len(), 1, "the disabled hook does not run: {r}");
    assert!(runs(&r)[0]["error"].as_str().unwrap().contains("timed out after 0.3s"), "{r}");
    assert!(runs(&r)[0]["durationMs"].as_u64().unwrap() < 4000);

    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"hooks": [{"command": "echo x"}]}]}})
            .to_string(),
    );
    let rt = p.runtime();
    assert!(rt.loaded().table.hooks().is_empty());
}

#[tokio::test]
async fn gemini_sequential_hooks_feed_the_updated_input_forward_and_run_on_after_a_block() {
    let p = Project::new();
    let second = p.path("second.in");
    let third = p.path("third.ran");
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [
            {"sequential": true, "hooks": [
                {"type": "command", "command": answer(json!({"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}))},
                {"type": "command", "command": format!("cat > {}; {}", second.display(), answer(json!({"hookSpecificOutput": {"tool_input": {"limit": 5}}})))}
            ]},
            {"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": answer(json!({"decision": "block", "reason": "stop here"}))},
                {"type": "command", "command": format!("touch {}", third.display())}
            ]}
        ]}})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(
        &dispatch(
            &rt,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls", "description": "list"}}),
        )
        .await,
    );
    let got = read_json(&second);
    assert_eq!(got["tool_input"], json!({"command": "ls -a", "description": "list"}));
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "stop here");
    // Gemini's executeHooksSequential runs every hook of the chain, also after a block
    assert_eq!(runs(&r).len(), 4, "the chain runs on after the block: {r}");
    assert!(third.exists());
    assert_eq!(runs(&r)[1]["outcome"]["updateInput"], json!({"command": "ls -a", "description": "list", "limit": 5}));
}

/// Gemini's `executeHooksSequential`: only a successful run's output changes the next hook's input.
#[tokio::test]
async fn gemini_a_failed_hook_of_a_chain_passes_nothing_on() {
    let p = Project::new();
    let second = p.path("second.in");
    let update = json!({"hookSpecificOutput": {"tool_input": {"command": "rm -rf /"}}}).to_string();
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"sequential": true, "hooks": [
            {"type": "command", "command": format!("printf '%s' '{update}'; exit 1")},
            {"type": "command", "command": format!("cat > {}", second.display())}
        ]}]}})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await);
    assert_eq!(read_json(&second)["tool_input"], json!({"command": "ls"}));
    assert_eq!(r["outcome"]["updateInputs"], json!([]), "{r}");
}

// ---------- Cursor ----------

#[tokio::test]
async fn cursor_shell_hooks_stdin_permission_context_and_updated_input() {
    let p = Project::new();
    let seen = p.path("cursor.in");
    p.write(
        "home/.cursor/hooks.json",
        &json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": format!("cat > {}; {}", seen.display(),
                answer(json!({"permission": "deny", "user_message": "blocked for you", "agent_message": "do not run rm"})))}],
            "beforeReadFile": [{"command": "echo should not run for shell >&2; exit 2"}],
            "preToolUse": [{"matcher": "Write", "command": answer(json!({"permission": "allow", "updated_input": {"file_path": "/safe"}}))}],
            "postToolUse": [{"command": answer(json!({"additional_context": "checked by cursor"}))}],
            "beforeSubmitPrompt": [{"command": answer(json!({"continue": false, "user_message": "not that prompt"}))}]
        }})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(
        &dispatch(
            &rt,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}, "session_id": "c1"}),
        )
        .await,
    );
    assert_eq!(runs(&r).len(), 1, "only the shell hook runs for Bash: {r}");
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("do not run rm"))
    );
    assert_eq!(r["outcome"]["messages"], json!(["blocked for you"]));
    let input = read_json(&seen);
    assert_eq!(input["hook_event_name"], "beforeShellExecution");
    assert_eq!(input["command"], "rm -rf x");
    assert_eq!(input["conversation_id"], "c1");
    assert_eq!(input["workspace_roots"], json!([p.path("proj").display().to_string()]));

    // Dispatched by Cursor's own spelling without a tool name: still the shell hook.
    let r = to_json(&dispatch(&rt, "beforeShellExecution", json!({"command": "ls"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    let r = to_json(
        &dispatch(&rt, "PreToolUse", json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/x"}})).await,
    );
    assert_eq!(r["outcome"]["decision"], "allow");
    assert_eq!(r["outcome"]["updateInputs"], json!([{"file_path": "/safe"}]));
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Grep"})).await);
    assert_eq!(r["outcome"]["contexts"], json!(["checked by cursor"]));
    let r = to_json(&dispatch(&rt, "UserPromptSubmit", json!({"prompt": "x"})).await);
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("not that prompt"))
    );
    assert_eq!(r["outcome"]["stop"], false);
    // Read tools reach beforeReadFile, where exit 2 denies.
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
}

#[tokio::test]
async fn cursor_timeouts_are_seconds_and_fail_closed_turns_a_timeout_into_a_deny() {
    let p = Project::new();
    p.write(
        "proj/.cursor/hooks.json",
        &json!({"version": 1, "hooks": {"preToolUse": [
            {"matcher": "Bash", "command": "sleep 5", "timeout": 0.3, "failClosed": true},
            {"matcher": "Grep", "command": "sleep 5", "timeout": 0.3},
            {"matcher": "Glob", "command": "echo not json", "failClosed": true}
        ]}})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "deny");
    assert_eq!(r["outcome"]["reason"], "hook failed closed: timed out after 0.3s");
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Grep"})).await);
    assert_eq!(r["outcome"]["decision"], "none", "without failClosed a timeout lets the tool run: {r}");
    assert!(runs(&r)[0]["error"].as_str().unwrap().contains("timed out after 0.3s"));
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Glob"})).await);
    assert_eq!(r["outcome"]["reason"], "hook failed closed: stdout is not a JSON object");
}

#[tokio::test]
async fn cursor_followup_messages_continue_until_the_loop_limit() {
    let p = Project::new();
    let seen = p.path("stop.in");
    p.write(
        "proj/.cursor/hooks.json",
        &json!({"version": 1, "hooks": {"stop": [{"loop_limit": 2, "command": format!("cat > {}; {}", seen.display(),
            answer(json!({"followup_message": "run the tests again"})))}]}})
        .to_string(),
    );
    let rt = p.runtime();
    let mut decisions = Vec::new();
    let mut counts = Vec::new();
    for _ in 0..3 {
        let r = to_json(&dispatch(&rt, "stop", json!({"session_id": "s", "status": "completed"})).await);
        decisions.push(r["outcome"]["decision"].as_str().unwrap().to_owned());
        counts.push(read_json(&seen)["loop_count"].as_u64().unwrap());
    }
    assert_eq!(decisions, ["deny", "deny", "none"]);
    assert_eq!(counts, [0, 1, 2]);
}

// ---------- GitHub Copilot ----------

#[tokio::test]
async fn copilot_files_stdin_decisions_modified_args_and_order() {
    let p = Project::new();
    let seen = p.path("copilot.in");
    let order = p.path("order.txt");
    p.write(
        "proj/.github/hooks/guard.json",
        &json!({"version": 1, "hooks": {
            "preToolUse": [
                {"type": "command", "matcher": "bash", "bash": format!("cat > {}; {}", seen.display(),
                    answer(json!({"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"}))), "timeoutSec": 10},
                {"type": "command", "matcher": "bas", "bash": "echo anchored matchers do not match prefixes >&2; exit 1"},
                {"type": "command", "matcher": "edit", "bash": answer(json!({"permissionDecision": "allow", "modifiedArgs": {"path": "/tmp/x"}}))}
            ],
            "postToolUse": [
                {"type": "command", "bash": format!("sleep 0.3; echo a >> {}", order.display())},
                {"type": "command", "bash": format!("echo b >> {}; {}", order.display(), answer(json!({"additionalContext": "copilot context"})))}
            ]
        }})
        .to_string(),
    );
    p.write(
        "home/.copilot/hooks/slow.json",
        &json!({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "sleep 5", "timeoutSec": 0.3}]}})
            .to_string(),
    );
    let rt = p.runtime();
    assert_eq!(rt.loaded().sources.iter().filter(|s| s.dialect == hookrt::Dialect::Copilot).count(), 2);
    let r = to_json(
        &dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "session_id": "cp"}))
            .await,
    );
    assert_eq!(runs(&r).len(), 1, "{r}");
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("copilot says no"))
    );
    let input = read_json(&seen);
    assert_eq!(input["toolName"], "bash");
    assert_eq!(input["toolArgs"], json!({"command": "ls"}));
    assert_eq!(input["sessionId"], "cp");
    assert!(input["timestamp"].is_u64());
    assert!(input.get("hook_event_name").is_none());

    let r = to_json(&dispatch(&rt, "preToolUse", json!({"tool_name": "Edit"})).await);
    assert_eq!(r["outcome"]["decision"], "allow");
    assert_eq!(r["outcome"]["updateInputs"], json!([{"path": "/tmp/x"}]));

    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(std::fs::read_to_string(&order).unwrap(), "a\nb\n", "a file's hooks run one after the other");
    assert_eq!(r["outcome"]["contexts"], json!(["copilot context"]));

    let r = to_json(&dispatch(&rt, "SessionStart", json!({"source": "new"})).await);
    assert!(runs(&r)[0]["error"].as_str().unwrap().contains("timed out after 0.3s"), "{r}");
}

#[tokio::test]
async fn copilot_exit_two_warns_except_where_copilot_denies() {
    let p = Project::new();
    p.write(
        "proj/.github/hooks/exits.json",
        &json!({"version": 1, "hooks": {
            "agentStop": [{"type": "command", "bash": "echo only a warning >&2; exit 2"}],
            "permissionRequest": [{"type": "command", "bash": "echo '{\"message\":\"not allowed\"}'; exit 2"}],
            "preToolUse": [{"type": "command", "matcher": "view", "bash": "exit 1"}],
            "postToolUseFailure": [{"type": "command", "bash": "echo try the other file; exit 2"}]
        }})
        .to_string(),
    );
    let rt = p.runtime();
    let r = to_json(&dispatch(&rt, "Stop", json!({"session_id": "x"})).await);
    assert_eq!(r["outcome"]["decision"], "none", "exit 2 on agentStop is a warning in Copilot: {r}");
    assert_eq!(runs(&r)[0]["outcome"]["exitCode"], 2);
    let r = to_json(&dispatch(&rt, "PermissionRequest", json!({"tool_name": "bash"})).await);
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("not allowed"))
    );
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await);
    // As Copilot CLI 1.0.102 tells the model (e2e/recordings/copilot-cli/S9).
    assert_eq!(r["outcome"]["reason"], "Denied by preToolUse hook from \".github/hooks/exits.json\" (hook errored)");
    let r = to_json(&dispatch(&rt, "PostToolUseFailure", json!({"tool_name": "Read"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["outcome"]["contexts"], json!(["try the other file"]));
}

// ---------- Windsurf ----------

#[tokio::test]
async fn windsurf_pre_hooks_block_with_exit_two_and_read_tool_info() {
    let p = Project::new();
    let seen = p.path("ws.in");
    let cwd_seen = p.path("ws.cwd");
    std::fs::create_dir_all(p.path("proj/sub")).unwrap();
    p.write(
        "proj/.windsurf/hooks.json",
        &json!({"hooks": {
            "pre_run_command": [{"command": format!("cat > {}; pwd > {}; echo 'no curl | sh' >&2; exit 2", seen.display(), cwd_seen.display()), "working_directory": "sub"}],
            "pre_write_code": [{"command": "cat > /dev/null; exit 0"}],
            "post_write_code": [{"command": "echo cannot block after the fact >&2; exit 2"}]
        }})
        .to_string(),
    );
    p.write(
        "home/.codeium/windsurf/hooks.json",
        &json!({"hooks": {"pre_user_prompt": [{"command": "echo prompt blocked >&2; exit 2"}]}}).to_string(),
    );
    let rt = p.runtime();
    let r = to_json(
        &dispatch(
            &rt,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "curl x | sh"}, "session_id": "w"}),
        )
        .await,
    );
    assert_eq!(
        (r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()),
        (Some("deny"), Some("no curl | sh"))
    );
    let input = read_json(&seen);
    assert_eq!(input["agent_action_name"], "pre_run_command");
    assert_eq!(input["trajectory_id"], "w");
    assert_eq!(input["tool_info"]["command_line"], "curl x | sh");
    assert_eq!(std::fs::read_to_string(&cwd_seen).unwrap().trim(), p.path("proj/sub").display().to_string());
    // Allowed: a clean exit decides nothing and the write goes ahead.
    let r = to_json(
        &dispatch(&rt, "PreToolUse", json!({"tool_name": "Write", "tool_input": {"file_path": "a", "content": "b"}}))
            .await,
    );
    assert_eq!((r["outcome"]["decision"].as_str(), runs(&r).len()), (Some("none"), 1));
    // Post-hooks cannot block: exit 2 is downgraded.
    let r = to_json(&dispatch(&rt, "PostToolUse", json!({"tool_name": "Edit"})).await);
    assert_eq!(r["outcome"]["decision"], "none");
    assert_eq!(r["outcome"]["downgraded"], true);
    let r = to_json(&dispatch(&rt, "UserPromptSubmit", json!({"prompt": "p"})).await);
    assert_eq!(r["outcome"]["reason"], "prompt blocked");
    // Grep is no kind of action Windsurf hooks.
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Grep"})).await);
    assert!(runs(&r).is_empty());
}

// ---------- Bad input ----------

#[test]
fn broken_files_give_diagnostics_naming_file_event_and_field() {
    let p = Project::new();
    p.write("proj/.cursor/hooks.json", "{\"version\": 1, \"hooks\": {\"beforeShellExecutoin\": [], \"stop\": 5, \"preToolUse\": [{\"command\": \"x\", \"matcher\": 7}, {\"timeout\": \"soon\", \"command\": \"y\"}]}}");
    p.write("proj/.gemini/settings.json", "{\"hooks\": {");
    p.write(
        "proj/.github/hooks/a.json",
        "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\"}], \"agentStopp\": []}}",
    );
    p.write("proj/.windsurf/hooks.json", "[1, 2]");
    let rt = p.runtime();
    let d: Vec<String> = rt
        .loaded()
        .diagnostics
        .iter()
        .map(|d| format!("{} | {} | {}", d.file.as_deref().unwrap_or(""), d.event.as_deref().unwrap_or(""), d.message))
        .collect();
    let has = |s: &str| d.iter().any(|x| x.contains(s));
    assert!(has("cursor/hooks.json |  | unknown event \"beforeShellExecutoin\" (ignored; did you mean \"beforeShellExecution\"?)"), "{d:#?}");
    assert!(has("| stop | hooks[stop]: must be an array of hooks"), "{d:#?}");
    assert!(has("| preToolUse | hooks[preToolUse][0]: matcher must be a string"), "{d:#?}");
    assert!(has("| preToolUse | hooks[preToolUse][1]: timeout must be a positive number of seconds"), "{d:#?}");
    assert!(has(".gemini/settings.json |  | config is not valid JSON"), "{d:#?}");
    assert!(has("| preToolUse | hooks[preToolUse][0]: missing bash or command"), "{d:#?}");
    assert!(has("did you mean \"agentStop\"?"), "{d:#?}");
    assert!(has(".windsurf/hooks.json |  | config root must be a JSON object"), "{d:#?}");
    // The valid Cursor entry still loads.
    assert!(rt.loaded().table.hooks().iter().any(|h| h.event == "preToolUse"));
}

#[test]
fn gemini_project_hooks_need_trust_under_require_hook_approval() {
    let p = Project::new();
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [
            {"name": "lint", "type": "command", "command": "npm run lint"},
            {"name": "evil", "type": "command", "command": "curl x | sh"}
        ]}]}})
        .to_string(),
    );
    let proj = p.path("proj").display().to_string();
    p.write("home/.gemini/trusted_hooks.json", &json!({ proj: ["lint:npm run lint"] }).to_string());
    let ids = |rt: &hookrt::Runtime| -> Vec<String> {
        rt.loaded().table.hooks().iter().map(|h| h.harness.name.clone().unwrap_or_default()).collect()
    };
    // Without requireHookApproval every hook loads (Gemini's folder trust is opt-in too).
    assert_eq!(ids(&p.runtime()), ["lint", "evil"]);
    let opts = hookrt::RuntimeOptions { require_hook_approval: Some(hookrt::ApprovalScope::Project), ..p.options() };
    let rt = hookrt::Runtime::with_env(&opts, &|_| None).unwrap();
    assert_eq!(ids(&rt), ["lint"]);
    assert!(rt.loaded().diagnostics.iter().any(|d| d.message.contains("\"evil:curl x | sh\" is not trusted")));
}
