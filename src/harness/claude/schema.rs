//! Claude Code's `settings.json` type, from which `hookrt schema claude` is generated: the
//! family's matcher groups under Claude's event names.

use crate::vocab::Dialect;
use schemars::JsonSchema;
use serde::Deserialize;

/// Claude Code's handler types and rules, for the family's schema.
pub(crate) struct ClaudeFamily;

impl crate::harness::family::schema::Family for ClaudeFamily {
    const NAME: &'static str = "Claude";
    const KINDS: &'static [&'static str] = &["command", "http", "prompt", "agent", "mcp_tool"];
    const FULL_HANDLERS: bool = true;
    const ENABLED_FLAG: bool = true;
    type Of = ClaudeDialect;
}

crate::harness::schema::dialect_marker!(ClaudeDialect, Dialect::Claude);

crate::harness::family::schema::events_object!(
    ClaudeEvents,
    ClaudeFamily,
    [
        SessionStart,
        SessionEnd,
        UserPromptSubmit,
        PreToolUse,
        PostToolUse,
        PostToolUseFailure,
        Stop,
        SubagentStart,
        SubagentStop,
        Notification,
        PreCompact,
        Setup,
        UserPromptExpansion,
        PermissionRequest,
        PermissionDenied,
        PostToolBatch,
        MessageDisplay,
        TaskCreated,
        TaskCompleted,
        StopFailure,
        Interrupt,
        TeammateIdle,
        InstructionsLoaded,
        ConfigChange,
        CwdChanged,
        DirectoryAdded,
        FileChanged,
        WorktreeCreate,
        WorktreeRemove,
        PostCompact,
        PreModelSwitch,
        PostModelSwitch,
        Elicitation,
        ElicitationResult,
        PreSkillShellCommand,
    ]
);

/// A Claude Code settings file: `hooks` (optional: a settings file may have none) beside the
/// rest of Claude's settings.
#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Claude Code settings (hooks)")]
pub(crate) struct ClaudeSettings {
    // Checked and described; the loader walks the events itself (unknown ones are warned about)
    // and reads each group through `Group`.
    #[allow(dead_code)]
    hooks: Option<ClaudeEvents>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_schema_knows_every_event_the_loader_reads() {
        assert_eq!(super::ClaudeEvents::NAMES, crate::harness::event_names(crate::vocab::Dialect::Claude));
    }
}
