//! What the files say about the whole configuration beyond their hooks: `disableAllHooks`
//! (the most specific file decides), managed settings' `disableAllHooks` and
//! `allowManagedHooksOnly` (they win over everything), and `HOOKS=0`.

use crate::config::Hook;
use crate::vocab::Diagnostic;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The switches read so far.
#[derive(Debug, Default)]
pub(crate) struct Switches {
    /// `disableAllHooks` of the settings files (the last one read wins).
    disabled: Option<bool>,
    /// `disableAllHooks` of managed settings: wins over everything.
    managed_disabled: bool,
    /// `allowManagedHooksOnly: true` in managed settings, and where it was said.
    managed_only: Option<PathBuf>,
}

impl Switches {
    /// Records a file's switches; `all`: its `disableAllHooks` speaks for every file.
    pub(crate) fn read(&mut self, root: &Map<String, Value>, file: &Path, managed: bool, all: bool) {
        let off = root.get("disableAllHooks").and_then(Value::as_bool);
        if managed {
            self.managed_disabled = off == Some(true);
            let only = root.get("allowManagedHooksOnly") == Some(&Value::Bool(true));
            self.managed_only = only.then(|| file.to_path_buf());
        } else if let Some(off) = off.filter(|_| all) {
            self.disabled = Some(off);
        }
    }

    /// Applies the switches to the loaded hooks; returns whether everything is off.
    pub(crate) fn apply(&self, hooks: &mut Vec<Hook>, hooks_off: bool, diags: &mut Vec<Diagnostic>) -> bool {
        let managed = |h: &Hook| crate::load::is_managed(h);
        let has_managed = hooks.iter().any(managed);
        if let Some(file) = &self.managed_only {
            let before = hooks.len();
            hooks.retain(managed);
            let dropped = before - hooks.len();
            let m = format!("allowManagedHooksOnly: {dropped} hook(s) from other files are not loaded");
            diags.push(Diagnostic::warning(file, None, m));
        }
        // A settings file's disableAllHooks cannot switch off managed hooks; managed settings' can.
        let user_off = self.disabled.unwrap_or(false);
        if user_off && has_managed && !self.managed_disabled {
            hooks.retain(managed);
        }
        hooks_off || self.managed_disabled || (user_off && !has_managed)
    }
}
