//! hookrt inside the harnesses that spawn a process per hook (Claude Code, Codex, Gemini CLI,
//! Copilot CLI, Hermes): [`hook`] is the command such a harness runs as its hook — it
//! dispatches the event to every hook file hookrt reads for the project, except the harness's
//! own files, and answers the way that harness reads a hook; [`install`] writes (and removes,
//! byte for byte) the entries that make the harness call it (docs/inside.md).

pub(crate) mod hook;
pub(crate) mod http;
pub(crate) mod install;

use crate::vocab::{Dialect, HostHarness};
use std::path::{Path, PathBuf};

/// The harness a command names (`claude`, `codex`, `gemini`, `copilot`, `hermes`).
pub(crate) fn host(name: &str) -> Option<Dialect> {
    HostHarness::parse(name).and_then(HostHarness::dialect)
}

/// The name a harness goes by in commands and history lines.
pub(crate) fn host_name(d: Dialect) -> &'static str {
    HostHarness::of(d).map_or("hookrt", HostHarness::as_str)
}

/// Where `hookrt hook` writes its history unless told otherwise, and where `hookrt history`
/// looks last: `$XDG_STATE_HOME/hookrt/history.jsonl`, else `~/.local/state/hookrt/`.
pub(crate) fn default_history(home: &Path, env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    let state = env("XDG_STATE_HOME").filter(|s| !s.is_empty()).map(PathBuf::from);
    state.unwrap_or_else(|| home.join(".local/state")).join("hookrt/history.jsonl")
}
