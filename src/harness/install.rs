//! What `hookrt install` writes into a harness's files, shared by the harnesses' [`Installer`]
//! parts: the target and the changes (the `inside/install` face plans and applies them), the
//! command an entry runs, reading and writing a hook file, and telling hookrt's entries from the
//! user's own.
//!
//! [`Installer`]: crate::harness::parts::Installer

use crate::config::HomeVars;
use crate::vocab::{CanonicalEvent as E, Dialect, HostHarness};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Which of the harness's files: the user's (every project) or this project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallScope {
    User,
    Project,
}

/// Where the harness's files are, and the command that starts hookrt.
#[derive(Debug, Clone)]
pub struct Target {
    pub home: PathBuf,
    pub cwd: PathBuf,
    /// The harnesses' folder variables (`$CODEX_HOME`, ...).
    pub homes: HomeVars,
    /// The hookrt executable as the entries name it (shell-quoted when needed).
    pub program: String,
    /// Flags the entries pass after the event (`--fail-closed PreToolUse`).
    pub extra: String,
    /// `type: "http"` entries to `hookrt serve`'s endpoint on this port, for a harness whose
    /// installer writes them.
    pub http_port: Option<u16>,
    /// Where install records are kept.
    pub state: PathBuf,
}

/// One file's change: its text before and after (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: Option<String>,
    /// Whether a file install creates is the user's own (0600: their harness's user settings,
    /// Codex's `config.toml`) rather than a project's (0644). An existing file keeps its mode.
    pub private: bool,
}

/// Why an install or uninstall cannot be planned.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("cannot read {path}: {1}", path = .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    #[error("{path}: {1}; fix or remove it first", path = .0.display())]
    Parse(PathBuf, String),
    #[error("cannot write {path}: {1}", path = .0.display())]
    Write(PathBuf, #[source] std::io::Error),
    #[error("{0}")]
    Unsupported(String),
}

/// The events whose answers hookrt can say in every harness's terms.
const ROUTED: &[E] = &[
    E::SessionStart,
    E::SessionEnd,
    E::PromptSubmit,
    E::ToolBefore,
    E::ToolAfter,
    E::TurnStop,
    E::SubagentStart,
    E::SubagentEnd,
    E::Notice,
    E::CompactBefore,
    E::PermissionRequest,
];

/// How long a harness gives hookrt (seconds); `hookrt hook` answers a little before.
pub(crate) const TIMEOUT_SECS: u64 = 600;

/// The name a harness goes by in commands (`hookrt hook codex`).
pub(crate) fn name(h: Dialect) -> &'static str {
    HostHarness::of(h).map_or("hookrt", HostHarness::as_str)
}

/// The harness's event names hookrt is installed on.
pub(crate) fn events(h: Dialect) -> Vec<&'static str> {
    let harness = crate::harness::of(h);
    let mut names: Vec<&'static str> = Vec::new();
    for spec in harness.events() {
        if ROUTED.contains(&spec.canonical) && harness.installs_on(spec.name) && !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names
}

/// The command an entry runs for one event.
pub(crate) fn command(h: Dialect, event: &str, t: &Target) -> String {
    format!("{} hook {} --event {event}{}", t.program, name(h), t.extra)
}

/// Whether a command is one hookrt's install wrote for this harness (exactly its shape: a
/// user's own `hookrt-guard hook claude` is not).
pub(crate) fn is_ours(h: Dialect, command: &str) -> bool {
    crate::vocab::hookrt_entry(command).is_some_and(|host| host.dialect() == Some(h))
}

/// Whether a URL is the `hookrt serve` endpoint install wrote for this harness.
pub(crate) fn is_our_url(h: Dialect, url: &str) -> bool {
    crate::vocab::hookrt_url(url).is_some_and(|host| host.dialect() == Some(h))
}

/// A file's text, `None` when it does not exist.
pub(crate) fn read(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InstallError::Read(path.to_path_buf(), e)),
    }
}

/// The file's root (an empty or missing file is an empty object).
pub(crate) fn parse(path: &Path, text: Option<&str>) -> Result<Map<String, Value>, InstallError> {
    let text = text.unwrap_or("");
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match crate::config::file::parse_root(text, path, true) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(InstallError::Parse(path.to_path_buf(), "the root is not an object".into())),
        Err(e) => Err(InstallError::Parse(path.to_path_buf(), e.to_string())),
    }
}

/// The file's text for a root (YAML or pretty JSON, by its extension).
pub(crate) fn serialize(path: &Path, root: &Map<String, Value>) -> String {
    if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        return serde_saphyr::to_string(&Value::Object(root.clone())).unwrap_or_default();
    }
    serde_json::to_string_pretty(root).unwrap_or_default() + "\n"
}

/// The trust step of a harness that runs a project's hooks only in a folder it trusts: hookrt
/// gives no such trust, so a project install says so and changes nothing.
pub(crate) fn folder_trust_note(
    h: Dialect,
    scope: InstallScope,
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<Change>, InstallError> {
    if scope == InstallScope::Project {
        let name = name(h);
        notes.push(format!(
            "{name} runs a project's hooks only in a trusted folder: trust {} in {name}",
            t.cwd.display()
        ));
    }
    Ok(Vec::new())
}
