//! hookrt inside Gemini CLI: `hooks.<Event>[]` groups in `.gemini/settings.json` (project or
//! user), each handler named `hookrt`, its timeout in milliseconds. Gemini runs a project's
//! hooks only in a folder it trusts, which hookrt does not give.

use crate::harness::install::{folder_trust_note, Change, InstallError, InstallScope, Target, TIMEOUT_SECS};
use crate::harness::parts::Installer;
use crate::vocab::Dialect;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

impl Installer for super::Gemini {
    fn install_file(&self, scope: InstallScope, t: &Target) -> Option<Result<PathBuf, InstallError>> {
        Some(Ok(match scope {
            InstallScope::Project => t.cwd.join(".gemini/settings.json"),
            InstallScope::User => t.home.join(".gemini/settings.json"),
        }))
    }

    fn install_entry(&self, command: &str) -> Value {
        json!({"hooks": [{"type": "command", "name": "hookrt", "command": command, "timeout": TIMEOUT_SECS * 1000}]})
    }

    fn install_trust(
        &self,
        scope: InstallScope,
        _file: (&Path, &str),
        t: &Target,
        notes: &mut Vec<String>,
    ) -> Result<Vec<Change>, InstallError> {
        folder_trust_note(Dialect::Gemini, scope, t, notes)
    }
}
