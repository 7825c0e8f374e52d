//! hookrt inside Hermes: `hooks.<event>[] = {command, timeout}` in `$HERMES_HOME/config.yaml`
//! (Hermes reads no project file, so user scope only), and each (event, command) pair approved
//! in its `shell-hooks-allowlist.json` — hookrt's entries only.

use crate::harness::install::{
    command, events, is_ours, parse, read, serialize, Change, InstallError, InstallScope, Target, TIMEOUT_SECS,
};
use crate::harness::parts::Installer;
use crate::vocab::Dialect;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const ALLOWLIST: &str = "shell-hooks-allowlist.json";

fn allowlist(t: &Target) -> PathBuf {
    t.homes.resolve(&t.home, super::HOME).join(ALLOWLIST)
}

impl Installer for super::Hermes {
    fn install_file(&self, scope: InstallScope, t: &Target) -> Option<Result<PathBuf, InstallError>> {
        Some(match scope {
            InstallScope::User => Ok(t.homes.resolve(&t.home, super::HOME).join("config.yaml")),
            InstallScope::Project => Err(InstallError::Unsupported(
                "Hermes reads hooks only from $HERMES_HOME/config.yaml: use --scope user".into(),
            )),
        })
    }

    fn install_entry(&self, command: &str) -> Value {
        json!({"command": command, "timeout": TIMEOUT_SECS})
    }

    fn install_trust(
        &self,
        _scope: InstallScope,
        _file: (&Path, &str),
        t: &Target,
        notes: &mut Vec<String>,
    ) -> Result<Vec<Change>, InstallError> {
        approve(t, notes).map(|c| vec![c])
    }

    fn trust_files(&self, t: &Target) -> Vec<PathBuf> {
        vec![allowlist(t)]
    }

    fn without_trust(&self, path: &Path, before: &str) -> Option<Result<String, InstallError>> {
        if path.file_name().is_none_or(|n| n != ALLOWLIST) {
            return None;
        }
        Some(parse(path, Some(before)).map(|mut root| {
            if let Some(list) = root.get_mut("approvals").and_then(Value::as_array_mut) {
                list.retain(|a| !a.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(Dialect::Hermes, c)));
                if list.is_empty() {
                    root.remove("approvals");
                }
            }
            serialize(path, &root)
        }))
    }
}

/// hookrt's (event, command) pairs in the allowlist, replacing earlier ones.
fn approve(t: &Target, notes: &mut Vec<String>) -> Result<Change, InstallError> {
    let path = allowlist(t);
    let before = read(&path)?;
    let mut root = parse(&path, before.as_deref())?;
    let list = root.entry("approvals").or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return Err(InstallError::Parse(path, "`approvals` is not a list".into()));
    };
    list.retain(|a| !a.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(Dialect::Hermes, c)));
    let now = crate::vocab::text::iso_now();
    for event in events(Dialect::Hermes) {
        list.push(json!({"event": event, "command": command(Dialect::Hermes, event, t), "approved_at": now}));
    }
    notes.push(format!("Hermes runs hookrt's hooks: approved in {} (hookrt's entries only)", path.display()));
    Ok(Change { path: path.clone(), before, after: Some(serialize(&path, &root)), private: true })
}
