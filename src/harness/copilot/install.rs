//! hookrt inside Copilot CLI: `.github/hooks/hookrt.json` (project) or
//! `$COPILOT_HOME/hooks/hookrt.json` (user), `{version: 1, hooks: {<event>: [{type, bash,
//! timeoutSec}]}}` on its camelCase events (its stdin does not name the event, so the entry
//! does). Copilot runs a project's hooks only in a folder it trusts, which hookrt does not give.

use crate::harness::install::{folder_trust_note, Change, InstallError, InstallScope, Target, TIMEOUT_SECS};
use crate::harness::parts::Installer;
use crate::vocab::Dialect;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

impl Installer for super::Copilot {
    fn install_file(&self, scope: InstallScope, t: &Target) -> Option<Result<PathBuf, InstallError>> {
        Some(Ok(match scope {
            InstallScope::Project => t.cwd.join(".github/hooks/hookrt.json"),
            InstallScope::User => t.homes.resolve(&t.home, super::HOME).join("hooks/hookrt.json"),
        }))
    }

    fn installs_on(&self, event: &str) -> bool {
        event.starts_with(|c: char| c.is_ascii_lowercase())
    }

    fn install_entry(&self, command: &str) -> Value {
        json!({"type": "command", "bash": command, "timeoutSec": TIMEOUT_SECS})
    }

    fn prepare_root(&self, root: &mut Map<String, Value>) {
        if !root.contains_key("version") {
            root.insert("version".into(), 1.into());
        }
    }

    fn emptied_root(&self, root: &mut Map<String, Value>) {
        if root.len() == 1 && root.contains_key("version") {
            root.clear();
        }
    }

    fn install_trust(
        &self,
        scope: InstallScope,
        _file: (&Path, &str),
        t: &Target,
        notes: &mut Vec<String>,
    ) -> Result<Vec<Change>, InstallError> {
        folder_trust_note(Dialect::Copilot, scope, t, notes)
    }
}
