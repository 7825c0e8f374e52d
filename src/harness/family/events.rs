//! Claude Code's event names (docs/harnesses/claude.md). `PostToolUse` groups run when the
//! tool succeeded, `PostToolUseFailure` groups when it failed. `Interrupt` is Codex's, accepted
//! in Claude files as the JavaScript implementation did.

use crate::vocab::CanonicalEvent as E;
use crate::vocab::{EventSpec, ToolResult};

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

pub(crate) static EVENTS: [EventSpec; 35] = [
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("UserPromptSubmit", E::PromptSubmit),
    n("PreToolUse", E::ToolBefore),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Success),
    EventSpec::tool("PostToolUseFailure", E::ToolAfter, ToolResult::Failure),
    n("Stop", E::TurnStop),
    n("SubagentStart", E::SubagentStart),
    n("SubagentStop", E::SubagentEnd),
    n("Notification", E::Notice),
    n("PreCompact", E::CompactBefore),
    n("Setup", E::Setup),
    n("UserPromptExpansion", E::PromptExpand),
    n("PermissionRequest", E::PermissionRequest),
    n("PermissionDenied", E::PermissionDenied),
    n("PostToolBatch", E::ToolBatch),
    n("MessageDisplay", E::MessageDisplay),
    n("TaskCreated", E::TaskCreate),
    n("TaskCompleted", E::TaskComplete),
    n("StopFailure", E::TurnFail),
    n("Interrupt", E::TurnInterrupt),
    n("TeammateIdle", E::TeammateIdle),
    n("InstructionsLoaded", E::InstructionsLoad),
    n("ConfigChange", E::ConfigChange),
    n("CwdChanged", E::CwdChange),
    n("DirectoryAdded", E::DirectoryAdd),
    n("FileChanged", E::FileChange),
    n("WorktreeCreate", E::WorktreeCreate),
    n("WorktreeRemove", E::WorktreeRemove),
    n("PostCompact", E::CompactAfter),
    n("PreModelSwitch", E::ModelSwitch),
    n("PostModelSwitch", E::ModelSwitched),
    n("Elicitation", E::ElicitationRequest),
    n("ElicitationResult", E::ElicitationResult),
    n("PreSkillShellCommand", E::SkillShell),
];

/// Claude's name of a canonical event (the first one for after-tool), or the canonical spelling
/// for the events only other harnesses have; used in messages.
pub(crate) fn name_of(e: E) -> &'static str {
    EVENTS.iter().find(|s| s.canonical == e).map(|s| s.name).unwrap_or_else(|| e.as_str())
}

/// Whether Claude Code has a name for this canonical event.
pub(crate) fn has(e: E) -> bool {
    EVENTS.iter().any(|s| s.canonical == e)
}

/// Whether `name` is one of `events` and cannot be read as a Claude name (and is not the
/// `preToolUse` Cursor and Copilot share): the content test for an explicitly named file.
pub(crate) fn is_own_name(name: &str, events: &[EventSpec]) -> bool {
    events.iter().any(|e| e.name == name) && !EVENTS.iter().any(|e| e.name == name) && name != "preToolUse"
}
