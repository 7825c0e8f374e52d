//! Classes of tools: some harnesses hook a whole class instead of naming tools (Cursor's
//! `beforeShellExecution`, Windsurf's `pre_write_code`).

use serde::Serialize;

/// A class of tools some harnesses hook as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolClass {
    /// Shell commands (`Bash`).
    Shell,
    /// Reading a file (`Read`).
    Read,
    /// Writing or editing a file (`Write`, `Edit`).
    Write,
    /// Any MCP server's tool (`mcp__server__tool`).
    Mcp,
}
