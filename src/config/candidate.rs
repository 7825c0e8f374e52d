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

/// Where discovery looks: the user's home, the project, the machine-wide directory, and the
/// harnesses' own folders that a variable moves.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Roots<'a> {
    pub home: &'a Path,
    pub cwd: &'a Path,
    pub system: &'a Path,
    pub homes: &'a HomeVars,
}

impl Roots<'_> {
    /// A harness's folder: its variable's value, else its default under the user's home.
    pub(crate) fn dir(&self, dir: HomeDir) -> PathBuf {
        self.homes.resolve(self.home, dir)
    }
}

/// A harness's own folder, which a variable moves (`$CODEX_HOME`, else `~/.codex`). Each
/// harness declares its own; hookrt reads the variables of all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HomeDir {
    pub var: &'static str,
    /// Its place under the user's home when the variable is unset or empty.
    pub default: &'static str,
}

/// The harness folders' variables as the environment set them (non-empty values only), read
/// once where options are resolved so every later step sees the same folders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HomeVars(Vec<(&'static str, PathBuf)>);

impl HomeVars {
    /// Reads each folder's variable from `env`.
    pub(crate) fn read(dirs: impl IntoIterator<Item = HomeDir>, env: &dyn Fn(&str) -> Option<String>) -> Self {
        HomeVars(
            dirs.into_iter()
                .filter_map(|d| env(d.var).filter(|v| !v.is_empty()).map(|v| (d.var, PathBuf::from(v))))
                .collect(),
        )
    }

    /// The folder: the variable's value, else `home/<default>`.
    pub(crate) fn resolve(&self, home: &Path, dir: HomeDir) -> PathBuf {
        self.0.iter().find(|(v, _)| *v == dir.var).map_or_else(|| home.join(dir.default), |(_, p)| p.clone())
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
