//! hookrt inside the harnesses that spawn a process per hook (Claude Code, Codex, Gemini CLI,
//! Copilot CLI, Hermes): [`hook`] is the command such a harness runs as its hook — it
//! dispatches the event to every hook file hookrt reads for the project, except the harness's
//! own files, and answers the way that harness reads a hook; [`install`] writes (and removes,
//! byte for byte) the entries that make the harness call it (docs/inside.md).

pub(crate) mod hook;
pub(crate) mod http;
pub(crate) mod install;

use crate::vocab::Dialect;
use std::path::{Path, PathBuf};

/// The harnesses hookrt can run inside, by the name the commands take.
pub(crate) const HOSTS: &[(&str, Dialect)] = &[
    ("claude", Dialect::Claude),
    ("codex", Dialect::Codex),
    ("gemini", Dialect::Gemini),
    ("copilot", Dialect::Copilot),
    ("hermes", Dialect::Hermes),
];

/// The harness a command names (`claude`, `codex`, `gemini`, `copilot`, `hermes`).
pub(crate) fn host(name: &str) -> Option<Dialect> {
    HOSTS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// The name a harness goes by in commands and history lines.
pub(crate) fn host_name(d: Dialect) -> &'static str {
    HOSTS.iter().find(|(_, x)| *x == d).map_or("hookrt", |(n, _)| n)
}

/// Where `hookrt hook` writes its history unless told otherwise, and where `hookrt history`
/// looks last: `$XDG_STATE_HOME/hookrt/history.jsonl`, else `~/.local/state/hookrt/`.
pub(crate) fn default_history(home: &Path, env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    let state = env("XDG_STATE_HOME").filter(|s| !s.is_empty()).map(PathBuf::from);
    state.unwrap_or_else(|| home.join(".local/state")).join("hookrt/history.jsonl")
}
