//! Consent for every dialect's project hooks: skipped until approved under
//! `requireHookApproval: "project"`, run once approved, skipped again when the script changes;
//! global hooks unaffected; one notice per unapproved project file when approval is off.

use crate::common::*;
use hookrt::ApprovalScope;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use serde_json::json;

async fn cli(p: &Project, args: &[&str]) -> (i32, String, String) {
    let mut argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    argv.extend([
        "--cwd".into(),
        p.path("proj").display().to_string(),
        "--home".into(),
        p.path("home").display().to_string(),
    ]);
    argv.extend([
        "--managed-settings".into(),
        p.path("m.json").display().to_string(),
        "--system-dir".into(),
        p.path("etc").display().to_string(),
    ]);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = hookrt::cli::run(
        argv,
        tokio_util::sync::CancellationToken::new(),
        hookrt::cli::Io { out: &mut out, err: &mut err },
    )
    .await;
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn runtime(p: &Project, scope: ApprovalScope) -> Runtime {
    Runtime::with_env(&RuntimeOptions { require_hook_approval: Some(scope), ..p.options() }, &|_| None).unwrap()
}

#[tokio::test]
async fn project_hooks_of_claude_codex_and_native_need_approval() {
    let p = Project::new();
    p.write("proj/guard.sh", "echo guarded >&2; exit 2\n");
    p.claude(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "sh guard.sh"}]}]}));
    p.write(
        "proj/.codex/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"command": "echo codex"}]}]}}).to_string(),
    );
    p.write(
        "proj/.dsh-hooks.json",
        &json!({"version": 1, "events": {"session:start": [{"hooks": [{"type": "shell", "command": "echo native"}]}]}})
            .to_string(),
    );
    p.write(
        "home/.claude/settings.json",
        &json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"command": "echo global"}]}]}}).to_string(),
    );

    // Not set (the default): everything runs, one notice per project file; explicitly off: none.
    assert!(runtime(&p, ApprovalScope::Off).loaded().diagnostics.is_empty());
    let rt = runtime(&p, ApprovalScope::Unset);
    assert_eq!(rt.loaded().table.hooks().len(), 4);
    let notices = rt.loaded().diagnostics.iter().filter(|d| d.message.contains("project hook(s) not approved")).count();
    assert_eq!(notices, 3, "{:?}", rt.loaded().diagnostics);

    // "project": the three project hooks are skipped, the global one is not.
    let rt = runtime(&p, ApprovalScope::Project);
    let events: Vec<String> = rt.loaded().table.hooks().iter().map(|h| h.event.clone()).collect();
    assert_eq!(events, ["UserPromptSubmit"]);
    let loaded = rt.loaded();
    let skipped: Vec<&str> =
        loaded.diagnostics.iter().map(|d| d.message.as_str()).filter(|m| m.contains("skipped")).collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    let approve = format!("hookrt trust approve --cwd {} 'sh guard.sh'", p.path("proj").display());
    assert!(
        skipped.iter().any(|m| m.contains(&format!("hook \"sh guard.sh\" not approved; skipped (run `{approve}`)"))),
        "{skipped:?}"
    );
    assert_eq!(rt.loaded().skipped.len(), 3);
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!(r["outcome"]["decision"], "none");

    // Listed with their scope, approved by command and by scope.
    let (code, out, err) = cli(&p, &["trust", "list"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("unapproved\tproject\tclaude:PreToolUse\t")
            && l.ends_with("\tsh guard.sh\tharness: runs (Claude Code runs project hooks without a trust step in headless (-p) mode)")),
        "{out}"
    );
    assert_eq!(cli(&p, &["trust", "approve", "sh guard.sh"]).await.0, 0);
    let rt = runtime(&p, ApprovalScope::Project);
    let r = to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash"})).await);
    assert_eq!((r["outcome"]["decision"].as_str(), r["outcome"]["reason"].as_str()), (Some("deny"), Some("guarded")));
    assert_eq!(rt.loaded().table.hooks().len(), 2);

    // Editing the script it runs withdraws the approval.
    p.write("proj/guard.sh", "echo edited >&2; exit 2\n");
    let rt = runtime(&p, ApprovalScope::Project);
    assert!(rt.loaded().diagnostics.iter().any(|d| d.message.contains("its script changed since it was approved")));
    assert!(!rt.loaded().table.hooks().iter().any(|h| h.event == "PreToolUse"));

    let (code, out, _) = cli(&p, &["trust", "approve", "--all", "--scope", "project"]).await;
    assert_eq!(code, 0);
    assert!(out.starts_with("approved 3 hook(s)"), "{out}");
    let rt = runtime(&p, ApprovalScope::Project);
    assert_eq!(rt.loaded().table.hooks().len(), 4);
    assert!(!rt.loaded().diagnostics.iter().any(|d| d.message.contains("approved")), "{:?}", rt.loaded().diagnostics);

    // "all" gates the global file too; the CLI flag takes the scope.
    let rt = runtime(&p, ApprovalScope::All);
    assert_eq!(rt.loaded().table.hooks().len(), 3);
    let (code, out, _) = cli(&p, &["run", "--event", "UserPromptSubmit", "--require-hook-approval=all"]).await;
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["runs"], json!([]));
    assert_eq!(cli(&p, &["run", "--event", "Stop", "--require-hook-approval=maybe"]).await.0, 1);
}

#[test]
fn require_hook_approval_reads_booleans_and_scopes() {
    let parse = |v: serde_json::Value| serde_json::from_value::<RuntimeOptions>(json!({"requireHookApproval": v}));
    assert_eq!(parse(json!(true)).unwrap().require_hook_approval, Some(ApprovalScope::Project));
    assert_eq!(parse(json!(false)).unwrap().require_hook_approval, Some(ApprovalScope::Off));
    assert_eq!(parse(json!("all")).unwrap().require_hook_approval, Some(ApprovalScope::All));
    assert!(parse(json!("everything")).unwrap_err().to_string().contains("requireHookApproval must be"));
}

/// An approval is about the script a hook runs, not the interpreter named before it: written
/// `/bin/sh ./hooks/g.sh`, the approval records the script's SHA-256, holds while only other
/// files change, and goes stale when the script is edited.
#[tokio::test]
async fn an_approval_is_bound_to_the_script_not_the_interpreter() {
    use sha2::{Digest, Sha256};
    let p = Project::new();
    let script = p.write("proj/hooks/g.sh", "echo v1 >&2; exit 2\n");
    p.write("proj/hooks/other.sh", "true\n");
    p.claude(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "/bin/sh ./hooks/g.sh"}]}]}));
    let (code, out, err) =
        cli(&p, &["trust", "approve", "/bin/sh ./hooks/g.sh", "--require-hook-approval=project"]).await;
    assert_eq!(code, 0, "{out}{err}");
    let store = hookrt::TrustStore::load(&hookrt::store_path(&p.path("home")));
    let recorded = store.approved[0].sha256.clone().unwrap();
    assert_eq!(recorded, hex::encode(Sha256::digest(b"echo v1 >&2; exit 2\n")));
    assert_ne!(recorded, hex::encode(Sha256::digest(std::fs::read("/bin/sh").unwrap())));

    let blocked = |rt: Runtime| async move {
        let r =
            to_json(&dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).await);
        (r["outcome"]["decision"] == "deny", rt.loaded().listed[0].status)
    };
    assert_eq!(blocked(runtime(&p, ApprovalScope::Project)).await, (true, hookrt::TrustStatus::Approved));
    // Another file of the project changes: the approval holds.
    std::fs::write(p.path("proj/hooks/other.sh"), "false\n").unwrap();
    assert_eq!(blocked(runtime(&p, ApprovalScope::Project)).await, (true, hookrt::TrustStatus::Approved));
    // The script changes: stale, skipped, and the warning says why.
    std::fs::write(&script, "echo v2 >&2; exit 2\n").unwrap();
    let rt = runtime(&p, ApprovalScope::Project);
    assert!(rt.loaded().diagnostics.iter().any(|d| d.message.contains("its script changed since it was approved")));
    assert_eq!(blocked(rt).await, (false, hookrt::TrustStatus::Changed));
}
