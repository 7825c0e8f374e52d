//! `hookrt trust list|approve|revoke`: hookrt's own approvals.

use crate::cli::args::TrustAction;
use crate::cli::Io;
use crate::load::{legacy_store_path, store_path, ListedHook, Subject, TrustStatus, TrustStore};
use crate::runtime::Runtime;
use std::path::Path;

pub(crate) fn trust(rt: &Runtime, action: TrustAction, io: Io<'_>) -> i32 {
    let home = &rt.options().load.home;
    let path = store_path(home);
    let legacy = legacy_store_path(home);
    if legacy.exists() && !path.exists() {
        let _ = writeln!(
            io.err,
            "hookrt: the approvals in {} named only (event, command) and are no longer used; approve again (they are now bound to the script and the project)",
            legacy.display()
        );
    }
    let listed: Vec<ListedHook> = rt.loaded().listed.iter().cloned().map(ListedHook::hashed).collect();
    match action {
        TrustAction::List { json } => list(&listed, json, io),
        TrustAction::Approve { all, scope, commands } => {
            approve(&path, &listed, (all, scope.as_deref(), &commands), io)
        }
        TrustAction::Revoke { command } => {
            let mut store = TrustStore::load(&path);
            let n = store.revoke(&command);
            save(&store, &path, io, &format!("revoked {n} approval(s)"))
        }
    }
}

fn list(listed: &[ListedHook], json: bool, io: Io<'_>) -> i32 {
    if json {
        let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(listed).unwrap_or_default());
        return 0;
    }
    for h in listed {
        let status = serde_json::to_value(h.status).ok().and_then(|v| v.as_str().map(str::to_owned));
        let hash = h.sha256.as_deref().map(|s| &s[..12.min(s.len())]).unwrap_or("-");
        let scope = h.scope.as_str();
        let harness = match &h.harness {
            Some(v) if v.disabled => format!("\tharness: disabled ({})", v.rule),
            Some(v) => format!("\tharness: {} ({})", if v.runs { "runs" } else { "skips" }, v.rule),
            None => String::new(),
        };
        let status = status.unwrap_or_default();
        let _ = writeln!(io.out, "{status}\t{scope}\t{}\t{hash}\t{}{harness}", h.event, h.command);
    }
    0
}

/// Approves hooks by command (all their events), or every listed hook with `--all` (only those
/// of files in one scope with `--scope`).
fn approve(
    path: &Path,
    listed: &[ListedHook],
    (all, scope, commands): (bool, Option<&str>, &[String]),
    io: Io<'_>,
) -> i32 {
    if !all && commands.is_empty() {
        let _ = writeln!(io.err, "hookrt: name the commands to approve, or pass --all");
        return 1;
    }
    if let Some(missing) = commands.iter().find(|c| !listed.iter().any(|h| &h.command == *c)) {
        let _ = writeln!(io.err, "hookrt: no listed hook runs {missing:?}");
        return 1;
    }
    let mut store = TrustStore::load(path);
    let mut n = 0;
    let in_scope = |h: &&ListedHook| scope.is_none_or(|s| h.scope.as_str() == s);
    for h in listed.iter().filter(in_scope).filter(|h| all || commands.contains(&h.command)) {
        if h.status != TrustStatus::Approved || all {
            let subject = Subject {
                event: &h.event,
                command: &h.command,
                script: h.script.as_deref(),
                project: h.project.as_deref(),
                file: Path::new(&h.file),
            };
            store.approve(&subject, h.sha256.as_deref());
            n += 1;
        }
    }
    save(&store, path, io, &format!("approved {n} hook(s) in {}", path.display()))
}

fn save(store: &TrustStore, path: &Path, io: Io<'_>, done: &str) -> i32 {
    if let Err(e) = store.save(path) {
        let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", path.display());
        return 1;
    }
    let _ = writeln!(io.out, "{done}");
    0
}
