//! hookrt inside Claude Code: `hooks.<Event>[]` groups in `.claude/settings.json` (project) or
//! `~/.claude/settings.json` (user), and with `install --http` `type: "http"` hooks to
//! `hookrt serve`'s endpoint, the token sent from the environment.

use crate::harness::install::{InstallError, InstallScope, Target, TIMEOUT_SECS};
use crate::harness::parts::Installer;
use serde_json::{json, Value};
use std::path::PathBuf;

impl Installer for super::Claude {
    fn install_file(&self, scope: InstallScope, t: &Target) -> Option<Result<PathBuf, InstallError>> {
        Some(Ok(match scope {
            InstallScope::Project => t.cwd.join(".claude/settings.json"),
            InstallScope::User => t.home.join(".claude/settings.json"),
        }))
    }

    fn http_entry(&self, url: &str, var: &str) -> Option<Value> {
        Some(json!({"hooks": [{
            "type": "http",
            "url": url,
            "headers": {"Authorization": format!("Bearer ${var}")},
            "allowedEnvVars": [var],
            "timeout": TIMEOUT_SECS,
        }]}))
    }
}
