//! Tool names across harnesses: each one spells the same tools differently (`Bash`,
//! `run_shell_command`, `bash`, `Shell`), and some declare hooks for a class of tools instead of
//! a name (Cursor's `beforeShellExecution`, Windsurf's `pre_write_code`). Claude's names are the
//! reference; each harness folder lists its own spellings of them (`Harness::tool_names`). Used by
//! planning (a `Bash` dispatch reaches a Gemini `run_shell_command` matcher), by the hook's
//! stdin (a Gemini hook reads Gemini's name) and by `hookrt convert`.

use crate::vocab::{Dialect, ToolClass};
use rustc_hash::FxHashMap;
use std::sync::LazyLock;

/// A harness's own names of tools, by Claude's name (hookrt's reference spelling); the first of
/// each list is the one its hooks read and `convert` writes. Each harness folder keeps its own.
pub(crate) type ToolNames = [(&'static str, &'static [&'static str])];

use ToolClass::*;

/// The tools every harness's names are mapped to: Claude's name, and the class of tools it is
/// in (for the harnesses that declare hooks for a class instead of a name).
const TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Bash", Some(Shell)),
    ("Read", Some(Read)),
    ("Write", Some(Write)),
    ("Edit", Some(Write)),
    ("MultiEdit", Some(Write)),
    ("NotebookEdit", Some(Write)),
    ("Grep", None),
    ("Glob", None),
    ("LS", None),
    ("WebFetch", None),
    ("WebSearch", None),
    ("TodoWrite", None),
    ("Task", None),
    ("AskUserQuestion", None),
];

/// Any harness's spelling → the tool of [`TOOLS`] it names (the first tool that has the name,
/// in the table's order).
static BY_NAME: LazyLock<FxHashMap<&'static str, usize>> = LazyLock::new(|| {
    let mut m = FxHashMap::default();
    for (i, (canonical, _)) in TOOLS.iter().enumerate() {
        m.entry(*canonical).or_insert(i);
        for h in crate::harness::HARNESSES {
            for n in own_names(h.tool_names(), canonical) {
                m.entry(*n).or_insert(i);
            }
        }
    }
    m
});

fn own_names(names: Option<&'static ToolNames>, canonical: &str) -> &'static [&'static str] {
    names.and_then(|t| t.iter().find(|(c, _)| *c == canonical)).map_or(&[], |(_, n)| n)
}

fn find(name: &str) -> Option<&'static (&'static str, Option<ToolClass>)> {
    BY_NAME.get(name).map(|i| &TOOLS[*i])
}

/// Claude's name of a tool spelled by any harness (`run_shell_command` → `Bash`); unknown
/// names are their own Claude name.
pub(crate) fn canonical_name(name: &str) -> &str {
    find(name).map(|t| t.0).unwrap_or(name)
}

/// How `dialect` spells a tool, when it differs from the name given.
pub(crate) fn spelling(dialect: Dialect, name: &str) -> Option<&'static str> {
    let (canonical, _) = find(name)?;
    match crate::harness::of(dialect).tool_names() {
        None => Some(*canonical).filter(|c| *c != name),
        Some(own) => own_names(Some(own), canonical).first().copied().filter(|n| *n != name),
    }
}

/// Replaces the tool name at `key` of a hook's stdin with `dialect`'s spelling, where it has one.
pub(crate) fn rename_in(m: &mut serde_json::Map<String, serde_json::Value>, dialect: Dialect, key: &str) {
    if let Some(n) = m.get(key).and_then(serde_json::Value::as_str).and_then(|n| spelling(dialect, n)) {
        m.insert(key.into(), serde_json::Value::String(n.to_owned()));
    }
}

/// The class of a tool, from any harness's spelling.
pub(crate) fn class_of(name: &str) -> Option<ToolClass> {
    if name.starts_with("mcp__") || name.starts_with("MCP:") {
        return Some(ToolClass::Mcp);
    }
    find(name).and_then(|t| t.1)
}

/// The tool a class stands for when a dispatch names no tool (`beforeShellExecution` → `Bash`).
pub(crate) fn class_matcher_name(class: ToolClass) -> &'static str {
    match class {
        ToolClass::Shell => "Bash",
        ToolClass::Read => "Read",
        ToolClass::Write => "Write",
        ToolClass::Mcp => "mcp__",
    }
}

/// Claude's names of the tools in a class (for `convert`, which writes class hooks as matchers).
pub(crate) fn class_matcher(class: ToolClass) -> &'static str {
    match class {
        ToolClass::Shell => "Bash",
        ToolClass::Read => "Read",
        ToolClass::Write => "Write|Edit|MultiEdit|NotebookEdit",
        ToolClass::Mcp => "mcp__.*",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_through_canonical_names() {
        assert_eq!(spelling(Dialect::Gemini, "Bash"), Some("run_shell_command"));
        assert_eq!(spelling(Dialect::Copilot, "Write"), Some("create"));
        assert_eq!(spelling(Dialect::Claude, "run_shell_command"), Some("Bash"));
        assert_eq!(spelling(Dialect::Gemini, "run_shell_command"), None);
        assert_eq!(canonical_name("view"), "Read");
        assert_eq!(canonical_name("Frobnicate"), "Frobnicate");
        assert_eq!(class_of("replace"), Some(ToolClass::Write));
        assert_eq!(class_of("mcp__github__issue"), Some(ToolClass::Mcp));
        assert_eq!(class_of("Grep"), None);
        assert_eq!(spelling(Dialect::Hermes, "Bash"), Some("terminal"));
        assert_eq!(canonical_name("terminal"), "Bash");
    }
}
