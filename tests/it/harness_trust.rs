//! `requireHookApproval: "harness"` (the default): each hook runs exactly when its own harness
//! would, read from that harness's real trust files (shapes as the real Codex 0.171.0, Copilot CLI
//! 1.0.102, Gemini CLI 0.61.0 and Hermes 0.19.0 write them), and editing a hook flips it back
//! where the harness keys its trust on the hook.

use crate::common::*;
use hookrt::{ApprovalScope, Runtime, RuntimeOptions};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// A runtime in `mode` (`None`: the default) with these environment variables.
fn runtime(p: &Project, mode: Option<ApprovalScope>, env: &[(&str, &str)]) -> Runtime {
    let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let opts = RuntimeOptions { require_hook_approval: mode, ..p.options() };
    Runtime::with_env(&opts, &move |k| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())).unwrap()
}

/// The commands of the hooks that would run, in load order.
fn running(rt: &Runtime) -> Vec<String> {
    rt.loaded()
        .table
        .hooks()
        .iter()
        .filter(|h| h.enabled)
        .filter_map(|h| h.command_text().map(|c| c.into_owned()))
        .collect()
}

fn warnings(rt: &Runtime) -> Vec<String> {
    rt.loaded().diagnostics.iter().map(|d| format!("{}: {}", d.file.as_deref().unwrap_or(""), d.message)).collect()
}

/// Codex's hash, written out by hand: SHA-256 of the identity JSON with sorted keys.
fn codex_hash(identity: &str) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(identity.as_bytes())))
}

fn codex_project(p: &Project, command: &str) {
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 5}]}]}});
    p.write("proj/.codex/hooks.json", &hooks.to_string());
}

#[tokio::test]
async fn codex_runs_a_hook_only_with_its_trusted_hash_in_a_trusted_project() {
    let p = Project::new();
    codex_project(&p, "echo no >&2; exit 2");
    let user = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}});
    p.write("home/.codex/hooks.json", &user.to_string());
    let proj = p.path("proj").display().to_string();
    let project_file = p.path("proj/.codex/hooks.json").display().to_string();
    let user_file = p.path("home/.codex/hooks.json").display().to_string();

    // No config.toml: Codex trusts nothing, user hooks included.
    let rt = runtime(&p, None, &[]);
    assert!(running(&rt).is_empty(), "{:?}", running(&rt));
    let w = warnings(&rt).join("\n");
    assert!(w.contains("Codex has no trusted hash for this hook"), "{w}");
    assert!(w.contains("is not a trusted project"), "{w}");
    assert!(w.contains("hookrt trust approve"), "{w}");

    // A trusted project and the hashes Codex's /hooks would record.
    let deny = codex_hash(
        r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo no >&2; exit 2","timeout":5,"type":"command"}],"matcher":"Bash"}"#,
    );
    let stop = codex_hash(
        r#"{"event_name":"stop","hooks":[{"async":false,"command":"echo stop","timeout":600,"type":"command"}]}"#,
    );
    let config = format!(
        "model = \"x\"\n[projects.\"{proj}\"]\ntrust_level = \"trusted\"\n\n[hooks.state.\"{project_file}:pre_tool_use:0:0\"]\ntrusted_hash = \"{deny}\"\n\n[hooks.state.\"{user_file}:stop:0:0\"]\ntrusted_hash = \"{stop}\"\n"
    );
    p.write("home/.codex/config.toml", &config);
    let rt = runtime(&p, None, &[]);
    assert_eq!(running(&rt), ["echo stop", "echo no >&2; exit 2"], "{:?}", warnings(&rt));
    assert!(warnings(&rt).is_empty(), "{:?}", warnings(&rt));
    let r = dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await;
    assert_eq!(to_json(&r)["outcome"]["decision"], "deny");

    // Editing the hook changes its hash: skipped again, with the reason.
    codex_project(&p, "echo no >&2; exit 2 # edited");
    let rt = runtime(&p, None, &[]);
    assert_eq!(running(&rt), ["echo stop"]);
    assert!(warnings(&rt).join("\n").contains("changed since Codex trusted it"), "{:?}", warnings(&rt));

    // The project layer needs project trust even with a matching hash.
    codex_project(&p, "echo no >&2; exit 2");
    p.write("home/.codex/config.toml", &config.replace("trust_level = \"trusted\"", "trust_level = \"untrusted\""));
    assert_eq!(running(&runtime(&p, None, &[])), ["echo stop"]);

    // `enabled = false` switches a hook off in every mode; `off` runs the rest untrusted.
    p.write(
        "home/.codex/config.toml",
        &format!("{config}\n[hooks.state.\"{user_file}:stop:0:0\"]\nenabled = false\n")
            .replace(&format!("[hooks.state.\"{user_file}:stop:0:0\"]\ntrusted_hash = \"{stop}\"\n\n"), ""),
    );
    assert_eq!(running(&runtime(&p, None, &[])), ["echo no >&2; exit 2"]);
    assert_eq!(running(&runtime(&p, Some(ApprovalScope::Off), &[])), ["echo no >&2; exit 2"]);
}

#[tokio::test]
async fn hookrt_approvals_add_to_the_harness_and_trust_list_shows_both() {
    let p = Project::new();
    codex_project(&p, "echo approved-in-hookrt");
    let proj = p.path("proj");
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = vec!["trust".into()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v.extend(["--cwd".into(), proj.display().to_string(), "--home".into(), p.path("home").display().to_string()]);
        v.extend(["--system-dir".into(), p.path("etc").display().to_string()]);
        v.extend(["--managed-settings".into(), p.path("m.json").display().to_string()]);
        v
    };
    let cli = |argv: Vec<String>| async move {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let io = hookrt::cli::Io { out: &mut out, err: &mut err };
        let code = hookrt::cli::run(argv, tokio_util::sync::CancellationToken::new(), io).await;
        (code, String::from_utf8(out).unwrap())
    };
    let (code, out) = cli(args(&["list", "--json"])).await;
    assert_eq!(code, 0);
    let listed: Value = serde_json::from_str(&out).unwrap();
    let entry = &listed[0];
    assert_eq!(entry["status"], "unapproved", "{listed}");
    assert_eq!(entry["harness"]["runs"], false, "{listed}");
    assert!(entry["harness"]["rule"].as_str().unwrap().contains("not a trusted project"), "{listed}");

    assert_eq!(cli(args(&["approve", "echo approved-in-hookrt"])).await.0, 0);
    let rt = runtime(&p, None, &[]);
    assert_eq!(running(&rt), ["echo approved-in-hookrt"]);
    assert!(warnings(&rt).is_empty(), "{:?}", warnings(&rt));
}

#[test]
fn copilot_runs_repository_hooks_in_trusted_folders_only() {
    let p = Project::new();
    let hooks =
        |cmd: &str| json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": cmd}]}}).to_string();
    p.write("proj/.github/hooks/repo.json", &hooks("echo repo"));
    p.write("home/.copilot/hooks/user.json", &hooks("echo user"));
    let rt = runtime(&p, None, &[]);
    assert_eq!(running(&rt), ["echo user"]);
    assert!(warnings(&rt).join("\n").contains("is not a trusted folder"), "{:?}", warnings(&rt));

    // Copilot's persisted folder trust covers the folder and everything below it.
    let parent = p.path("").display().to_string();
    p.write("home/.copilot/config.json", &json!({"trusted_folders": [parent]}).to_string());
    assert_eq!(running(&runtime(&p, None, &[])), ["echo user", "echo repo"]);
    p.write("home/.copilot/config.json", &json!({"trusted_folders": ["/elsewhere"]}).to_string());
    assert_eq!(running(&runtime(&p, None, &[])), ["echo user"]);
    assert_eq!(running(&runtime(&p, None, &[("COPILOT_ALLOW_ALL", "true")])), ["echo user", "echo repo"]);
    // $COPILOT_HOME moves the record, and the user hooks with it (~/.copilot/hooks is no longer read).
    let moved = p.path("copilot-home").display().to_string();
    p.write("copilot-home/config.json", &json!({"trustedFolders": [p.path("proj")]}).to_string());
    assert_eq!(running(&runtime(&p, None, &[("COPILOT_HOME", moved.as_str())])), ["echo repo"]);
}

#[test]
fn gemini_runs_no_hook_in_an_untrusted_folder() {
    let p = Project::new();
    let settings =
        |cmd: &str| json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": cmd}]}]}}).to_string();
    p.write("proj/.gemini/settings.json", &settings("echo project"));
    p.write("home/.gemini/settings.json", &settings("echo user"));
    let rt = runtime(&p, None, &[]);
    assert!(running(&rt).is_empty(), "user-level hooks are gated too: {:?}", running(&rt));
    assert!(warnings(&rt).join("\n").contains("does not trust"), "{:?}", warnings(&rt));

    let proj = p.path("proj").display().to_string();
    p.write("home/.gemini/trustedFolders.json", &json!({ proj.clone(): "TRUST_FOLDER" }).to_string());
    assert_eq!(running(&runtime(&p, None, &[])), ["echo user", "echo project"]);
    // The longest rule wins: a distrusted project inside a trusted parent.
    let parent = p.path("").display().to_string();
    p.write(
        "home/.gemini/trustedFolders.json",
        &json!({ parent: "TRUST_FOLDER", proj.clone(): "DO_NOT_TRUST" }).to_string(),
    );
    let rt = runtime(&p, None, &[]);
    assert!(running(&rt).is_empty());
    assert!(warnings(&rt).join("\n").contains("DO_NOT_TRUST"), "{:?}", warnings(&rt));
    // TRUST_PARENT on a sibling trusts its parent, and so the project.
    let sibling = p.path("other").display().to_string();
    p.write("home/.gemini/trustedFolders.json", &json!({ sibling: "TRUST_PARENT" }).to_string());
    assert_eq!(running(&runtime(&p, None, &[])).len(), 2);
    std::fs::remove_file(p.path("home/.gemini/trustedFolders.json")).unwrap();
    assert_eq!(running(&runtime(&p, None, &[("GEMINI_CLI_TRUST_WORKSPACE", "true")])).len(), 2);
    let off = json!({"security": {"folderTrust": {"enabled": false}}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user"}]}]}});
    p.write("home/.gemini/settings.json", &off.to_string());
    assert_eq!(running(&runtime(&p, None, &[])).len(), 2);
}

#[test]
fn hermes_runs_allowlisted_hooks_and_an_edited_command_needs_approval_again() {
    let p = Project::new();
    let config = |cmd: &str| format!("hooks:\n  pre_tool_call:\n    - command: \"{cmd}\"\n");
    p.write("home/.hermes/config.yaml", &config("echo guard #tag"));
    let rt = runtime(&p, None, &[]);
    assert!(running(&rt).is_empty());
    assert!(warnings(&rt).join("\n").contains("shell-hooks-allowlist.json"), "{:?}", warnings(&rt));

    // The allowlist as Hermes writes it: keyed by event and the command exactly as written.
    let approval = json!({"approvals": [{"event": "pre_tool_call", "command": "echo guard #tag", "approved_at": "2026-12-01T10:00:00Z", "script_mtime_at_approval": null}]});
    p.write("home/.hermes/shell-hooks-allowlist.json", &approval.to_string());
    assert_eq!(running(&runtime(&p, None, &[])), ["echo guard #tag"]);
    p.write("home/.hermes/config.yaml", &config("echo guard #other"));
    assert!(running(&runtime(&p, None, &[])).is_empty());
    for v in ["1", "yes", "ON", "true"] {
        assert_eq!(running(&runtime(&p, None, &[("HERMES_ACCEPT_HOOKS", v)])).len(), 1, "{v}");
    }
    assert!(running(&runtime(&p, None, &[("HERMES_ACCEPT_HOOKS", "no")])).is_empty());
    p.write("home/.hermes/config.yaml", &format!("hooks_auto_accept: true\n{}", config("echo guard #other")));
    assert_eq!(running(&runtime(&p, None, &[])).len(), 1);
    // $HERMES_HOME moves both files.
    let home = p.path("hh").display().to_string();
    p.write("hh/config.yaml", &config("echo elsewhere"));
    p.write(
        "hh/shell-hooks-allowlist.json",
        &json!({"approvals": [{"event": "pre_tool_call", "command": "echo elsewhere"}]}).to_string(),
    );
    assert_eq!(running(&runtime(&p, None, &[("HERMES_HOME", home.as_str())])), ["echo elsewhere"]);
}

#[test]
fn hooks_no_harness_gates_run_by_default() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "echo claude"}]}]}));
    p.write(
        "proj/.cursor/hooks.json",
        &json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "echo cursor"}]}}).to_string(),
    );
    let rt = runtime(&p, None, &[]);
    assert_eq!(running(&rt), ["echo claude", "echo cursor"]);
    assert!(warnings(&rt).is_empty(), "{:?}", warnings(&rt));
}

#[tokio::test]
async fn validate_strict_passes_on_a_real_codex_config_with_hook_state() {
    let p = Project::new();
    // The shape Codex 0.171.0 writes when a hook is trusted in /hooks.
    let toml = "model_provider = \"mock\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo hi\"\n\n[hooks.state.\"/x/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\nenabled = true\n";
    let f = p.write("home/.codex/config.toml", toml);
    let argv: Vec<String> =
        ["validate", "--strict", "--config", f.to_str().unwrap()].iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let io = hookrt::cli::Io { out: &mut out, err: &mut err };
    let code = hookrt::cli::run(argv, tokio_util::sync::CancellationToken::new(), io).await;
    let text = String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap();
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("unknown event"), "{text}");
}

#[tokio::test]
async fn doctor_names_the_hooks_a_harness_would_skip_and_why() {
    let p = Project::new();
    codex_project(&p, "echo guard");
    let argv: Vec<String> =
        ["doctor", "--cwd", p.path("proj").to_str().unwrap(), "--home", p.path("home").to_str().unwrap()]
            .iter()
            .map(|s| s.to_string())
            .chain(["--system-dir".into(), p.path("etc").display().to_string()])
            .chain(["--managed-settings".into(), p.path("m.json").display().to_string()])
            .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let io = hookrt::cli::Io { out: &mut out, err: &mut err };
    let code = hookrt::cli::run(argv, tokio_util::sync::CancellationToken::new(), io).await;
    let out = String::from_utf8(out).unwrap();
    let file = p.path("proj/.codex/hooks.json").display().to_string();
    assert!(
        out.lines().any(|l| l.starts_with(&format!(
            "config: {file}: hook \"echo guard\" skipped: Codex skips the project's .codex/ layer"
        ))),
        "{out}"
    );
    // A guard that does not run is a problem, with the command that makes it run.
    assert!(out.contains(&format!("PROBLEM\tskipped \"echo guard\" ({file}, PreToolUse)")), "{out}");
    let approve = format!("hookrt trust approve --cwd {} 'echo guard'", p.path("proj").display());
    assert!(out.contains(&approve), "{out}");
    assert!(out.contains("1 hook(s), 1 with problems (1 skipped for trust)"), "{out}");
    assert_eq!(code, 1);
}

/// A file the user names (`configPath`, `--config`) is their own choice, as dsh's Codex bridge
/// runs the `hooks.json` it is pointed at: its hooks run without Codex's trusted hash, while the
/// same file found by discovery keeps Codex's rule.
#[tokio::test]
async fn an_explicitly_named_codex_file_runs_without_codex_trust() {
    let p = Project::new();
    codex_project(&p, "echo named");
    let file = p.path("proj/.codex/hooks.json");
    let opts = RuntimeOptions {
        config_path: Some(file.clone()),
        require_hook_approval: None,
        dialect: Some(hookrt::Dialect::Codex),
        ..p.options()
    };
    let rt = Runtime::with_env(&opts, &|_| None).unwrap();
    assert_eq!(running(&rt), ["echo named"], "{:?}", warnings(&rt));
    // Discovered, the same file is gated by Codex's trust.
    let rt = runtime(&p, None, &[]);
    assert!(running(&rt).is_empty(), "{:?}", running(&rt));
}
