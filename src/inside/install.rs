//! `hookrt install <harness>` / `hookrt uninstall <harness>`: the entries that make a harness
//! run `hookrt hook <harness> --event <name>` on each event hookrt can answer, in the harness's
//! own file for the scope, plus exactly the trust step the harness needs for those entries
//! (Codex's trusted hashes, Hermes' allowlist) — never for the user's other hooks.
//!
//! Installing is idempotent (hookrt's old entries are replaced). The first install of a file
//! records the file as it was (`<state>/installs/`); uninstalling removes hookrt's entries and,
//! when what is left is what was there before, writes the recorded bytes back, so the file is
//! byte-identical (or removed when install created it). Edits made in between are kept.

mod entries;
mod record;

use crate::harness::install::read;
use crate::vocab::Dialect;
use std::path::PathBuf;

pub use crate::harness::install::{Change, InstallError, InstallScope, Target};

pub(crate) use record::apply;

/// What an install or uninstall does: the files, and what the user should know.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub changes: Vec<Change>,
    pub notes: Vec<String>,
    /// Whether applying it records the files' first state (install) or forgets it (uninstall).
    pub installing: bool,
}

/// The hookrt entries for a harness and scope, with their trust step.
pub(crate) fn install(harness: Dialect, scope: InstallScope, t: &Target) -> Result<Plan, InstallError> {
    let file = writable(entries::hook_file(harness, scope, t)?, scope, t)?;
    let before = read(&file)?;
    let after = entries::with_ours(harness, &file, before.as_deref(), t)?;
    let mut plan = Plan { installing: true, ..Plan::default() };
    let trust = entries::trust_step(harness, scope, (&file, &after), t, &mut plan.notes)?;
    let private = scope == InstallScope::User;
    plan.changes.push(Change { path: file, before, after: Some(after), private });
    plan.changes.extend(trust);
    plan.changes.retain(|c| c.before != c.after);
    Ok(plan)
}

/// Removes hookrt's entries (and its trust records) for a harness and scope, restoring each
/// file's recorded bytes when nothing else changed.
pub(crate) fn uninstall(harness: Dialect, scope: InstallScope, t: &Target) -> Result<Plan, InstallError> {
    let file = writable(entries::hook_file(harness, scope, t)?, scope, t)?;
    let mut plan = Plan::default();
    let mut files = vec![(file.clone(), scope)];
    files.extend(entries::trust_files(harness, t).into_iter().map(|f| (f, InstallScope::User)));
    for (path, scope) in files {
        let path = writable(path, scope, t)?;
        let Some(before) = read(&path)? else { continue };
        let cleaned = entries::without_ours(harness, &path, &before, t)?;
        let after = record::restore(&t.state, &path, cleaned, |a, b| entries::same(&path, a, b));
        plan.changes.push(Change { path, before: Some(before), after, private: scope == InstallScope::User });
    }
    plan.changes.retain(|c| c.before != c.after);
    if plan.changes.is_empty() {
        plan.notes.push(format!("no hookrt entries in {}", file.display()));
    }
    Ok(plan)
}

/// Where hookrt is installed for a harness: per scope, the file, its hookrt entries and the
/// programs they name that no longer exist.
pub(crate) fn status(harness: Dialect, t: &Target) -> Vec<(InstallScope, PathBuf, usize, Vec<String>)> {
    [InstallScope::Project, InstallScope::User]
        .into_iter()
        .filter_map(|scope| {
            let file = entries::hook_file(harness, scope, t).ok()?;
            let (n, missing) = entries::installed(harness, &file)?;
            Some((scope, file, n, missing))
        })
        .collect()
}

/// The path install reads and writes for a harness's file. A project's file is never read or
/// written through a link (a cloned repository could point `.claude/settings.json`, or its
/// folder, at any file of the user's); a user's own linked file (dotfiles) is written at its
/// target, so the link stays.
pub(crate) fn writable(path: PathBuf, scope: InstallScope, t: &Target) -> Result<PathBuf, InstallError> {
    if scope == InstallScope::Project {
        if let Some(link) = crate::vocab::files::link_below(&t.cwd, &path) {
            return Err(InstallError::Unsupported(format!(
                "{} is a symbolic link: hookrt does not write a project's files through links (a repository could point it anywhere)",
                link.display()
            )));
        }
        return Ok(path);
    }
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(&path).map_err(|e| InstallError::Read(path, e)),
        _ => Ok(path),
    }
}

/// The plan as a unified diff, for `--dry-run`.
pub(crate) fn diff(plan: &Plan) -> String {
    let mut out = String::new();
    for c in &plan.changes {
        let (a, b) = (c.before.as_deref().unwrap_or(""), c.after.as_deref().unwrap_or(""));
        let name = c.path.display().to_string();
        let old = if c.before.is_some() { format!("a{name}") } else { "/dev/null".into() };
        let new = if c.after.is_some() { format!("b{name}") } else { "/dev/null".into() };
        let d = similar::TextDiff::from_lines(a, b);
        out.push_str(&d.unified_diff().context_radius(3).header(&old, &new).to_string());
    }
    out
}
