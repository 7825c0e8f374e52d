//! The installer: where and how `hookrt install <harness>` writes the entries that make the
//! harness run hookrt as its hook, and the trust step those entries need (`inside/install`
//! plans and applies what it returns; docs/inside.md).

use crate::harness::install::{Change, InstallError, InstallScope, Target, TIMEOUT_SECS};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// How hookrt is installed inside a harness; the defaults are the Claude Code family's.
pub(crate) trait Installer {
    /// Its hook file for a scope; `None` when hookrt does not run inside this harness, an error
    /// when it cannot be installed in that scope.
    fn install_file(&self, _scope: InstallScope, _t: &Target) -> Option<Result<PathBuf, InstallError>> {
        None
    }

    /// Whether install puts an entry on this event name (Copilot: its camelCase ones).
    fn installs_on(&self, _event: &str) -> bool {
        true
    }

    /// The entry appended under `hooks.<event>` that runs `command`: a matcher group without a
    /// matcher (every tool) holding one command handler.
    fn install_entry(&self, command: &str) -> Value {
        json!({"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECS}]})
    }

    /// An entry calling `hookrt serve`'s endpoint at `url` with the token from `$token_var`
    /// instead of a command (`install --http`); `None` where the harness has no such hooks.
    fn http_entry(&self, _url: &str, _token_var: &str) -> Option<Value> {
        None
    }

    /// Fields its file needs beside `hooks` (Copilot's `version: 1`).
    fn prepare_root(&self, _root: &mut Map<String, Value>) {}

    /// The root once hookrt's entries left it with no `hooks` (Copilot drops a lone `version`).
    fn emptied_root(&self, _root: &mut Map<String, Value>) {}

    /// The trust step for the entries just written to `file` (its new `text`): the changes to
    /// the harness's own trust records, and notes on the trust hookrt does not give.
    fn install_trust(
        &self,
        _scope: InstallScope,
        _file: (&Path, &str),
        _t: &Target,
        _notes: &mut Vec<String>,
    ) -> Result<Vec<Change>, InstallError> {
        Ok(Vec::new())
    }

    /// The files the trust step writes, for uninstall.
    fn trust_files(&self, _t: &Target) -> Vec<PathBuf> {
        Vec::new()
    }

    /// One of its trust files without hookrt's records; `None` for a hook file.
    fn without_trust(&self, _path: &Path, _before: &str) -> Option<Result<String, InstallError>> {
        None
    }
}
