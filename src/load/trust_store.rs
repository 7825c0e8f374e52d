//! hookrt's own approvals (`hookrt trust approve`): each records a hook's dialect and event,
//! its command and the SHA-256 of the script the command runs, so an edited script needs
//! approval again. The store lives in `home/.config/hookrt/hermes-allowlist.json` (its name
//! from when only Hermes hooks needed approval).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One approved (event, command) pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrustEntry {
    pub event: String,
    pub command: String,
    /// SHA-256 of the script the command runs, when it runs a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
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

/// The allowlist file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TrustStore {
    #[serde(default)]
    pub approved: Vec<TrustEntry>,
}

/// Where the allowlist lives for a home directory.
pub fn store_path(home: &Path) -> PathBuf {
    home.join(".config/hookrt/hermes-allowlist.json")
}

impl TrustStore {
    /// Reads the allowlist; a missing or unreadable file is an empty list.
    pub fn load(path: &Path) -> Self {
        std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
    }

    /// Writes the allowlist atomically (temporary file, then rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&tmp, text + "\n")?;
        std::fs::rename(&tmp, path)
    }

    /// The approval recorded for an (event, command) pair, if any.
    pub fn entry(&self, event: &str, command: &str) -> Option<&TrustEntry> {
        self.approved.iter().find(|e| e.event == event && e.command == command)
    }

    pub fn status(&self, event: &str, command: &str, hash: Option<&str>) -> TrustStatus {
        match self.approved.iter().find(|e| e.event == event && e.command == command) {
            None => TrustStatus::Unapproved,
            Some(e) if e.sha256.as_deref() == hash => TrustStatus::Approved,
            Some(_) => TrustStatus::Changed,
        }
    }

    /// Approves (or re-approves with the current hash) an (event, command) pair.
    pub fn approve(&mut self, event: &str, command: &str, hash: Option<&str>) {
        self.approved.retain(|e| !(e.event == event && e.command == command));
        self.approved.push(TrustEntry {
            event: event.into(),
            command: command.into(),
            sha256: hash.map(str::to_owned),
        });
    }

    /// Removes every entry for a command; returns how many.
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
    fn approval_follows_the_script_content() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("hook.sh");
        std::fs::write(&script, "echo one").unwrap();
        let argv = vec![script.display().to_string()];
        let (_, h1) = script_hash(&argv, dir.path()).unwrap();
        let mut s = TrustStore::default();
        assert_eq!(s.status("pre_tool_call", "x", Some(&h1)), TrustStatus::Unapproved);
        s.approve("pre_tool_call", "x", Some(&h1));
        assert_eq!(s.status("pre_tool_call", "x", Some(&h1)), TrustStatus::Approved);
        std::fs::write(&script, "echo two").unwrap();
        let (_, h2) = script_hash(&argv, dir.path()).unwrap();
        assert_eq!(s.status("pre_tool_call", "x", Some(&h2)), TrustStatus::Changed);
        let path = store_path(dir.path());
        s.save(&path).unwrap();
        assert_eq!(TrustStore::load(&path).approved.len(), 1);
        assert_eq!(s.revoke("x"), 1);
        assert!(script_hash(&["echo".into(), "hi".into()], dir.path()).is_none());
    }
}
