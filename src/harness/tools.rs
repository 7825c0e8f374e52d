//! Tool names across harnesses: each one spells the same tools differently (`Bash`,
//! `run_shell_command`, `bash`, `Shell`), and some declare hooks for a class of tools instead of
//! a name (Cursor's `beforeShellExecution`, Windsurf's `pre_write_code`). One table, used by
//! planning (a `Bash` dispatch reaches a Gemini `run_shell_command` matcher), by the hook's
//! stdin (a Gemini hook reads Gemini's name) and by `hookrt convert`.

use crate::vocab::{Dialect, ToolClass};

/// One tool: Claude's name (hookrt's reference spelling), then the other harnesses', in the
/// order of [`Tool::names`]'s columns.
struct Tool {
    claude: &'static str,
    class: Option<ToolClass>,
    /// Gemini, Copilot, Cursor, Hermes, Qwen Code, Droid, Cline, Auggie, Antigravity, Kiro.
    others: [Names; 10],
}

type Names = &'static [&'static str];

const fn t(claude: &'static str, class: Option<ToolClass>, others: [Names; 10]) -> Tool {
    Tool { claude, class, others }
}

use ToolClass::*;

/// The first spelling in each list is the one written by `convert` and sent on stdin. Columns:
/// Gemini, Copilot, Cursor, Hermes, Qwen Code, Droid, Cline, Auggie, Antigravity, Kiro.
#[rustfmt::skip]
const TOOLS: &[Tool] = &[
    t("Bash", Some(Shell), [&["run_shell_command"], &["bash", "powershell"], &["Shell"], &["terminal"], &["run_shell_command"], &["Execute"], &["run_commands"], &["launch-process"], &["run_command"], &["execute_bash"]]),
    t("Read", Some(Read), [&["read_file", "read_many_files"], &["view"], &["Read"], &["read_file"], &["read_file"], &["Read"], &["read_files"], &["view"], &["view_file"], &["fs_read"]]),
    t("Write", Some(Write), [&["write_file"], &["create"], &["Write"], &["write_file"], &["write_file"], &["Create"], &["editor"], &["save-file"], &["write_to_file"], &["fs_write"]]),
    t("Edit", Some(Write), [&["replace"], &["edit", "str_replace_editor", "apply_patch"], &["Edit"], &["patch"], &["edit"], &["Edit"], &[], &["str-replace-editor", "apply_patch"], &["replace_file_content"], &["fs_write"]]),
    t("MultiEdit", Some(Write), [&[], &[], &["MultiEdit"], &[], &[], &[], &[], &[], &[], &[]]),
    t("NotebookEdit", Some(Write), [&[], &[], &["NotebookEdit"], &[], &["notebook_edit"], &[], &[], &[], &[], &[]]),
    t("Grep", None, [&["search_file_content", "grep_search"], &["grep", "rg"], &["Grep"], &["search_files"], &["grep_search"], &["Grep"], &[], &["grep-search"], &[], &[]]),
    t("Glob", None, [&["glob"], &["glob"], &["Glob"], &[], &["glob"], &["Glob"], &[], &[], &[], &[]]),
    t("LS", None, [&["list_directory"], &[], &["LS"], &[], &["list_directory"], &["LS"], &[], &[], &[], &[]]),
    t("WebFetch", None, [&["web_fetch"], &["web_fetch"], &["WebFetch"], &["web_extract"], &["web_fetch"], &["FetchUrl"], &[], &["web-fetch"], &[], &[]]),
    t("WebSearch", None, [&["google_web_search"], &["web_search"], &["WebSearch"], &["web_search"], &["web_search"], &["WebSearch"], &[], &["web-search"], &[], &[]]),
    t("TodoWrite", None, [&["write_todos"], &["update_todo"], &["TodoWrite"], &["todo"], &["todo_write"], &["TodoWrite"], &[], &[], &[], &[]]),
    t("Task", None, [&[], &["task"], &["Task"], &["delegate_task"], &["agent"], &["Task"], &[], &[], &[], &[]]),
    t("AskUserQuestion", None, [&[], &["ask_user"], &[], &["clarify"], &["ask_user_question"], &[], &[], &[], &[], &[]]),
];

/// The column of a harness that names tools its own way.
fn column(dialect: Dialect) -> Option<usize> {
    Some(match dialect {
        Dialect::Gemini => 0,
        Dialect::Copilot => 1,
        Dialect::Cursor => 2,
        Dialect::Hermes => 3,
        Dialect::Qwen => 4,
        Dialect::Droid => 5,
        Dialect::Cline => 6,
        Dialect::Auggie => 7,
        Dialect::Antigravity => 8,
        Dialect::Kiro => 9,
        _ => return None,
    })
}

fn names(tool: &Tool, dialect: Dialect) -> &'static [&'static str] {
    column(dialect).map_or(&[], |c| tool.others[c])
}

fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.claude == name || t.others.iter().any(|n| n.contains(&name)))
}

/// Claude's name of a tool spelled by any harness (`run_shell_command` → `Bash`); unknown
/// names are their own Claude name.
pub(crate) fn claude_name(name: &str) -> &str {
    find(name).map(|t| t.claude).unwrap_or(name)
}

/// How `dialect` spells a tool, when it differs from the name given.
pub(crate) fn spelling(dialect: Dialect, name: &str) -> Option<&'static str> {
    if column(dialect).is_none() {
        return find(name).map(|t| t.claude).filter(|c| *c != name);
    }
    let tool = find(name)?;
    names(tool, dialect).first().copied().filter(|n| *n != name)
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
    find(name).and_then(|t| t.class)
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
    fn spellings_round_trip_through_claude_names() {
        assert_eq!(spelling(Dialect::Gemini, "Bash"), Some("run_shell_command"));
        assert_eq!(spelling(Dialect::Copilot, "Write"), Some("create"));
        assert_eq!(spelling(Dialect::Claude, "run_shell_command"), Some("Bash"));
        assert_eq!(spelling(Dialect::Gemini, "run_shell_command"), None);
        assert_eq!(claude_name("view"), "Read");
        assert_eq!(claude_name("Frobnicate"), "Frobnicate");
        assert_eq!(class_of("replace"), Some(ToolClass::Write));
        assert_eq!(class_of("mcp__github__issue"), Some(ToolClass::Mcp));
        assert_eq!(class_of("Grep"), None);
        assert_eq!(spelling(Dialect::Hermes, "Bash"), Some("terminal"));
        assert_eq!(claude_name("terminal"), "Bash");
    }
}
