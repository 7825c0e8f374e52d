//! hookrt inside Codex: `hooks.<Event>[]` groups in `.codex/hooks.json` (project) or
//! `$CODEX_HOME/hooks.json` (user). Codex runs a hook only under a
//! `[hooks.state."<file>:<event>:<group>:<handler>"]` `trusted_hash` in `$CODEX_HOME/config.toml`:
//! install writes them for hookrt's entries alone, between marker lines that uninstall removes.

use super::trust::{current_hash, snake};
use crate::harness::install::{is_ours, parse, read, Change, InstallError, InstallScope, Target};
use crate::harness::parts::Installer;
use crate::vocab::Dialect;
use serde_json::Value;
use std::path::{Path, PathBuf};

const BEGIN: &str = "# hookrt install: begin (trust for hookrt's own hooks; `hookrt uninstall codex` removes it)";
const END: &str = "# hookrt install: end";

fn config(t: &Target) -> PathBuf {
    t.homes.resolve(&t.home, super::HOME).join("config.toml")
}

impl Installer for super::Codex {
    fn install_file(&self, scope: InstallScope, t: &Target) -> Option<Result<PathBuf, InstallError>> {
        Some(Ok(match scope {
            InstallScope::Project => t.cwd.join(".codex/hooks.json"),
            InstallScope::User => t.homes.resolve(&t.home, super::HOME).join("hooks.json"),
        }))
    }

    fn install_trust(
        &self,
        scope: InstallScope,
        file: (&Path, &str),
        t: &Target,
        notes: &mut Vec<String>,
    ) -> Result<Vec<Change>, InstallError> {
        trusted_hashes(scope, file, t, notes).map(|c| vec![c])
    }

    fn trust_files(&self, t: &Target) -> Vec<PathBuf> {
        vec![config(t)]
    }

    fn without_trust(&self, path: &Path, before: &str) -> Option<Result<String, InstallError>> {
        path.file_name().is_some_and(|n| n == "config.toml").then(|| Ok(strip_block(before)))
    }
}

/// The marked block of trusted hashes for hookrt's entries in `file`, replacing an earlier one.
fn trusted_hashes(
    scope: InstallScope,
    (file, text): (&Path, &str),
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Change, InstallError> {
    let config = config(t);
    let before = read(&config)?;
    let root = parse(file, Some(text))?;
    let mut block = format!("{BEGIN}\n");
    for (event, list) in root.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        for (g, group) in list.as_array().into_iter().flatten().enumerate() {
            for (i, handler) in group.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let ours = handler.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(Dialect::Codex, c));
                if let Some(hash) = current_hash(event, group, handler).filter(|_| ours) {
                    let key = serde_json::to_string(&format!("{}:{}:{g}:{i}", file.display(), snake(event)))
                        .unwrap_or_default();
                    block.push_str(&format!("[hooks.state.{key}]\ntrusted_hash = \"{hash}\"\n"));
                }
            }
        }
    }
    block.push_str(END);
    block.push('\n');
    let kept = strip_block(before.as_deref().unwrap_or(""));
    let sep = if kept.is_empty() || kept.ends_with("\n\n") {
        ""
    } else if kept.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let after = format!("{kept}{sep}{block}");
    if let Err(e) = toml::from_str::<toml::Value>(&after) {
        return Err(InstallError::Parse(config, format!("cannot add hookrt's trusted hashes: {}", e.message())));
    }
    notes.push(format!("Codex trusts hookrt's hooks by their hashes in {} (hookrt's entries only)", config.display()));
    if scope == InstallScope::Project {
        notes.push(format!(
            "Codex reads a project's .codex/ only in a trusted project: trust {} in codex if it is not",
            t.cwd.display()
        ));
    }
    Ok(Change { path: config, before, after: Some(after), private: true })
}

/// The text without the marked block install appended (and the blank line before it).
fn strip_block(text: &str) -> String {
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else { return text.to_owned() };
    let end = end + END.len();
    let end = if text[end..].starts_with('\n') { end + 1 } else { end };
    let start = if text[..start].ends_with("\n\n") { start - 1 } else { start };
    format!("{}{}", &text[..start], &text[end..])
}
