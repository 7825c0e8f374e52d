//! hookrt's own approvals (`hookrt trust approve`), kept in `~/.config/hookrt/approvals.json`
//! (mode 0600). An approval is bound to what was approved:
//! - a hook whose command runs a script: the (dialect, event) and command, the script's path with
//!   its variables expanded and its SHA-256, and the project it was approved in (for a project's
//!   files) or the file (for user files) — so the same command in another project, or an edited
//!   script, is not approved;
//! - a hook whose command runs no script it can hash (`make -s guard`): the command and the file
//!   that declares it.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrustEntry {
    pub event: String,
    pub command: String,
    /// The script the command runs, variables expanded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<PathBuf>,
    /// SHA-256 of that script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The project the approval was given in (hooks of a project's files that run a script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// The file the approval was given for (user files, and every hook that runs no script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
}

/// What an approval is asked about: one hook as one file declares it.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub event: &'a str,
    pub command: &'a str,
    /// The script the command runs (expanded), when it runs one.
    pub script: Option<&'a Path>,
    /// The project, for a hook of a project's file.
    pub project: Option<&'a Path>,
    /// The file declaring the hook.
    pub file: &'a Path,
}

impl TrustEntry {
    /// Whether this approval was given for the subject's place: its project when it bound a
    /// script in a project, else the very file.
    fn covers(&self, s: &Subject) -> bool {
        if self.event != s.event || self.command != s.command {
            return false;
        }
        match (&self.sha256, s.project) {
            (Some(_), Some(project)) => self.project.as_deref() == Some(project),
            _ => self.file.as_deref() == Some(s.file),
        }
    }
}

/// Whether a hook may run without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustStatus {
    Approved,
    /// Never approved.
    Unapproved,
    /// Approved, but the script changed since.
    Changed,
}

impl TrustStatus {
    /// Why a hook that is not approved is not, for diagnostics.
    pub fn why_not(self) -> &'static str {
        if self == TrustStatus::Changed {
            "its script changed since it was approved"
        } else {
            "not approved"
        }
    }
}

/// The approvals file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TrustStore {
    #[serde(default)]
    pub approved: Vec<TrustEntry>,
}

/// Where the approvals live for a home directory.
pub fn store_path(home: &Path) -> PathBuf {
    home.join(".config/hookrt/approvals.json")
}

/// Where hookrt before 0.2 kept approvals that named only (event, command); they are not read.
pub fn legacy_store_path(home: &Path) -> PathBuf {
    home.join(".config/hookrt/hermes-allowlist.json")
}

impl TrustStore {
    /// Reads the approvals; a missing or unreadable file is none.
    pub fn load(path: &Path) -> Self {
        std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
    }

    /// Writes the approvals atomically, private to the user (0600 in a 0700 folder).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::vocab::files::write_private(path, (text + "\n").as_bytes())
    }

    /// Whether any approval covers the subject's (event, command) in its place.
    pub fn covers(&self, s: &Subject) -> bool {
        self.approved.iter().any(|e| e.covers(s))
    }

    /// The subject's status given its script's current hash.
    pub fn status(&self, s: &Subject, hash: Option<&str>) -> TrustStatus {
        let mut found = false;
        for e in self.approved.iter().filter(|e| e.covers(s)) {
            if e.script.as_deref() == s.script && e.sha256.as_deref() == hash {
                return TrustStatus::Approved;
            }
            found = true;
        }
        if found {
            TrustStatus::Changed
        } else {
            TrustStatus::Unapproved
        }
    }

    /// Approves (or re-approves with the current hash) a subject: bound to the script and the
    /// project when it runs a script it could hash, else to the file.
    pub fn approve(&mut self, s: &Subject, hash: Option<&str>) {
        self.approved.retain(|e| !e.covers(s));
        let bound = hash.is_some() && s.project.is_some();
        self.approved.push(TrustEntry {
            event: s.event.into(),
            command: s.command.into(),
            script: s.script.filter(|_| hash.is_some()).map(Path::to_path_buf),
            sha256: hash.map(str::to_owned),
            project: s.project.filter(|_| bound).map(Path::to_path_buf),
            file: (!bound).then(|| s.file.to_path_buf()),
        });
    }

    /// Removes every approval of a command; returns how many.
    pub fn revoke(&mut self, command: &str) -> usize {
        let before = self.approved.len();
        self.approved.retain(|e| e.command != command);
        before - self.approved.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::script::script_hash;

    #[test]
    fn approval_follows_the_script_content_and_stays_in_its_project() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("a/hook.sh");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "echo one").unwrap();
        let argv = vec![script.display().to_string()];
        let (_, h1) = script_hash(&argv, dir.path()).unwrap();
        let (project, file) = (dir.path().join("a"), dir.path().join("a/.claude/settings.json"));
        let s = Subject { event: "e", command: "x", script: Some(&script), project: Some(&project), file: &file };
        let mut store = TrustStore::default();
        assert_eq!(store.status(&s, Some(&h1)), TrustStatus::Unapproved);
        store.approve(&s, Some(&h1));
        assert_eq!(store.status(&s, Some(&h1)), TrustStatus::Approved);
        // Another file of the same project: the same approval.
        let local = dir.path().join("a/.claude/settings.local.json");
        assert_eq!(store.status(&Subject { file: &local, ..s }, Some(&h1)), TrustStatus::Approved);
        // Another project with the same command: not approved.
        let (other, other_file) = (dir.path().join("b"), dir.path().join("b/.claude/settings.json"));
        let elsewhere = Subject { project: Some(&other), file: &other_file, ..s };
        assert_eq!(store.status(&elsewhere, Some(&h1)), TrustStatus::Unapproved);
        std::fs::write(&script, "echo two").unwrap();
        let (_, h2) = script_hash(&argv, dir.path()).unwrap();
        assert_eq!(store.status(&s, Some(&h2)), TrustStatus::Changed);
        let path = store_path(dir.path());
        store.save(&path).unwrap();
        assert_eq!(TrustStore::load(&path).approved.len(), 1);
        assert_eq!(crate::vocab::files::mode_of(&path), Some(0o600));
        assert_eq!(store.revoke("x"), 1);
    }

    #[test]
    fn an_approval_without_a_script_is_bound_to_its_file() {
        let (a, b) = (Path::new("/p/a/.claude/settings.json"), Path::new("/p/b/.claude/settings.json"));
        let s =
            Subject { event: "e", command: "make -s guard", script: None, project: Some(Path::new("/p/a")), file: a };
        let mut store = TrustStore::default();
        store.approve(&s, None);
        assert_eq!(store.approved[0].file.as_deref(), Some(a));
        assert_eq!(store.status(&s, None), TrustStatus::Approved);
        let other = Subject { project: Some(Path::new("/p/b")), file: b, ..s };
        assert_eq!(store.status(&other, None), TrustStatus::Unapproved);
    }
}
