//! A file that may hold hooks, as a harness's discovery rows name it.

use crate::vocab::{Dialect, Origin, Scope};
use std::path::{Path, PathBuf};

/// A file that may hold hooks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    pub path: PathBuf,
    /// `None`: recognise from location and content once read.
    pub dialect: Option<Dialect>,
    pub scope: Scope,
    pub origin: Origin,
    /// `${NAME}` values substituted into this file's commands and exported to its hooks.
    pub vars: Vec<(String, String)>,
}

impl Candidate {
    /// A file found by discovery or named explicitly.
    pub(crate) fn settings(path: PathBuf, dialect: Option<Dialect>, scope: Scope) -> Self {
        Candidate { path, dialect, scope, origin: Origin::Settings, vars: Vec::new() }
    }

    /// A discovery row of a known dialect.
    pub(crate) fn of(path: PathBuf, dialect: Dialect, scope: Scope) -> Self {
        Self::settings(path, Some(dialect), scope)
    }
}

/// A Claude Code plugin: its root and its persistent data directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginDir {
    pub root: PathBuf,
    pub data_dir: Option<PathBuf>,
}

/// Where discovery looks: the user's home, the project, the machine-wide directory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Roots<'a> {
    pub home: &'a Path,
    pub cwd: &'a Path,
    pub system: &'a Path,
    /// `$CODEX_HOME`, when set.
    pub codex_home: Option<&'a Path>,
    /// `$HERMES_HOME`, when set.
    pub hermes_home: Option<&'a Path>,
}

impl Roots<'_> {
    /// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
    pub(crate) fn codex(&self) -> PathBuf {
        self.codex_home.map(Path::to_path_buf).unwrap_or_else(|| self.home.join(".codex"))
    }

    /// Hermes' folder: `$HERMES_HOME`, else `~/.hermes`.
    pub(crate) fn hermes(&self) -> PathBuf {
        self.hermes_home.map(Path::to_path_buf).unwrap_or_else(|| self.home.join(".hermes"))
    }
}

/// A directory's entries in name order (none when it cannot be read).
pub(crate) fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

/// The parts of a path recognition looks at: base name, parent and grandparent names.
pub(crate) fn path_parts(path: &Path) -> (&str, &str, &str) {
    fn name(p: Option<&Path>) -> &str {
        p.and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("")
    }
    let parent = path.parent();
    (name(Some(path)), name(parent), name(parent.and_then(Path::parent)))
}
