//! The reader: a harness's hook file → hooks.

use crate::config::{Candidate, FileCtx, LoadSink};
use crate::vocab::Dialect;
use serde_json::{Map, Value};
use std::path::Path;

/// How a harness reads its files; loading (`load/`) asks it for each file it found.
pub(crate) trait Reader {
    /// Whether each of its files is itself a hook (an executable named after its event, Cline)
    /// rather than a configuration to parse; [`Reader::parse`] then gets an empty root.
    fn scripts(&self) -> bool {
        false
    }

    /// Whether the file is dedicated to hooks (a missing root member is then an error) rather
    /// than a general settings file that merely has no hooks.
    fn dedicated(&self, _path: &Path) -> bool {
        true
    }

    /// Whether its JSON files may carry comments and trailing commas.
    fn comments(&self) -> bool {
        false
    }

    /// The root member holding its events (named in diagnostics).
    fn member(&self, _root: &Map<String, Value>) -> &'static str {
        "hooks"
    }

    /// Reads a file's root; returns how many matcher groups (or hooks) it accepted.
    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize;

    /// Whether a file found where `read_as`'s files live is really this harness's, by its
    /// root's shape (Antigravity's named hooks in a `.agents/hooks.json`).
    fn takes_over(&self, _read_as: Dialect, _root: &Map<String, Value>) -> bool {
        false
    }

    /// Installed extensions a file switches on or off (Claude's `enabledPlugins`), in order.
    fn enabled_extensions(&self, _root: &Map<String, Value>) -> Vec<(String, bool)> {
        Vec::new()
    }

    /// The file of an installed extension by id, when it is installed.
    fn extension_file(&self, _home: &Path, _id: &str) -> Option<Candidate> {
        None
    }

    /// Whether it reads its files' event names in any case (Antigravity).
    fn event_names_any_case(&self) -> bool {
        false
    }

    /// Where its files live, as paths under a home `/h` and a project `/p`: the files the config
    /// fuzz target (and the corpus replayed in `cargo test`) reads with this harness.
    #[cfg_attr(not(feature = "fuzzing"), allow(dead_code))]
    fn sample_paths(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether a file's `disableAllHooks` switches every file's hooks off (otherwise it speaks
    /// for its own file only).
    fn switches_all(&self) -> bool {
        true
    }
}
