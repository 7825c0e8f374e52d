//! Claude Code 2.1.332's workspace trust, read-only: the folder is trusted when its global config
//! (`$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`) holds
//! `projects["<dir>"].hasTrustDialogAccepted: true` for the folder or a folder above it up to its
//! git repository's root (to `/` outside a repository), or when `CLAUDE_CODE_SANDBOXED` is set;
//! `CLAUDE_CODE_IGNORE_PERSISTED_TRUST` makes no record count. Claude writes the record when the
//! user accepts the trust dialog of an interactive session (read from the CLI's bundle:
//! `sD`/`Oh`/`xh`). Headless (`-p`) sessions run Claude's own project hooks without it, but
//! hookrt inside Claude Code asks it before running a project's other hook files.

use crate::harness::trust::{read_json, ProjectCtx, TrustEnv, Verdict};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The variables Claude Code's workspace trust reads.
pub(super) const VARS: &[&str] = &[CONFIG_DIR, SANDBOXED, IGNORE_TRUST];
const CONFIG_DIR: &str = "CLAUDE_CONFIG_DIR";
const SANDBOXED: &str = "CLAUDE_CODE_SANDBOXED";
const IGNORE_TRUST: &str = "CLAUDE_CODE_IGNORE_PERSISTED_TRUST";

/// `CLAUDE_CODE_SANDBOXED` set: Claude Code trusts every workspace.
fn sandboxed(env: &TrustEnv) -> bool {
    !env.word(SANDBOXED).is_empty()
}

/// `CLAUDE_CODE_IGNORE_PERSISTED_TRUST` set: no workspace trust record counts.
fn ignores_records(env: &TrustEnv) -> bool {
    !matches!(env.word(IGNORE_TRUST).as_str(), "" | "0" | "false")
}

/// Claude Code's global config file (`$CLAUDE_CONFIG_DIR/.claude.json`).
fn config_file(p: &ProjectCtx) -> PathBuf {
    match p.env.var(CONFIG_DIR).filter(|v| !v.is_empty()) {
        Some(dir) => Path::new(dir).join(".claude.json"),
        None => p.roots.home.join(".claude.json"),
    }
}

/// The folders whose record covers `dir`: it and those above it, up to its git root.
fn covering(dir: &Path) -> Vec<PathBuf> {
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let root = real.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf);
    let mut out = vec![dir.to_path_buf()];
    for d in real.ancestors() {
        out.push(d.to_path_buf());
        if root.as_deref() == Some(d) {
            break;
        }
    }
    out
}

/// Whether Claude Code trusts the project folder.
pub(crate) fn project(p: &ProjectCtx) -> Verdict {
    if sandboxed(p.env) {
        return Verdict::trusted("CLAUDE_CODE_SANDBOXED is set: Claude Code trusts the workspace");
    }
    let file = config_file(p);
    let dir = p.roots.cwd.display();
    let approve = format!("accept the workspace trust dialog of an interactive `claude` session in {dir}");
    if ignores_records(p.env) {
        let m = "CLAUDE_CODE_IGNORE_PERSISTED_TRUST is set: no workspace trust record counts";
        return Verdict::refused(m, approve);
    }
    let config = read_json(&file).unwrap_or(Value::Null);
    let projects = config.get("projects").and_then(Value::as_object);
    let accepted = |d: &Path| {
        projects
            .and_then(|m| m.get(&d.display().to_string()))
            .and_then(|e| e.get("hasTrustDialogAccepted"))
            .and_then(Value::as_bool)
            == Some(true)
    };
    match covering(p.roots.cwd).into_iter().find(|d| accepted(d)) {
        Some(d) => Verdict::trusted(format!("Claude Code trusts {} ({})", d.display(), file.display())),
        None => Verdict::refused(
            format!("Claude Code has no workspace trust record for {dir} in {}", file.display()),
            approve,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Roots;

    fn verdict(home: &Path, cwd: &Path, env: &TrustEnv) -> Verdict {
        let roots = Roots { home, cwd, system: Path::new("/etc"), homes: &Default::default() };
        project(&ProjectCtx { roots, env })
    }

    #[test]
    fn a_record_of_the_folder_or_one_above_it_within_the_repository_trusts_it() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let repo = t.path().join("repo");
        let sub = repo.join("pkg/sub");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let env = TrustEnv::default();
        assert!(!verdict(&home, &sub, &env).runs, "no config at all");
        let write = |key: &Path, accepted: bool| {
            let v = serde_json::json!({"projects": {key.display().to_string(): {"hasTrustDialogAccepted": accepted}}});
            std::fs::write(home.join(".claude.json"), v.to_string()).unwrap();
        };
        write(&repo, false);
        assert!(!verdict(&home, &sub, &env).runs, "a record that says false");
        write(&repo, true);
        let v = verdict(&home, &sub, &env);
        assert!(v.runs && v.gated, "{v:?}");
        // A record above the repository's root does not reach into it.
        write(t.path(), true);
        assert!(!verdict(&home, &sub, &env).runs);
        // CLAUDE_CONFIG_DIR moves the file; the variables override the record.
        write(&repo, true);
        let elsewhere = t.path().join("elsewhere").display().to_string();
        let moved = TrustEnv::of(&[(CONFIG_DIR, &elsewhere)]);
        assert!(!verdict(&home, &sub, &moved).runs);
        let ignore = TrustEnv::of(&[(IGNORE_TRUST, "1")]);
        assert!(verdict(&home, &sub, &TrustEnv::of(&[(IGNORE_TRUST, "false")])).runs);
        assert!(!verdict(&home, &sub, &ignore).runs);
        let sandboxed = TrustEnv::of(&[(SANDBOXED, "1")]);
        assert!(verdict(&home, &sub, &sandboxed).runs);
    }
}
