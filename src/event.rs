//! Canonical lifecycle events and how each dialect spells them (SPEC §4).
//!
//! Every dialect-specific name resolves to one [`CanonicalEvent`]; a dispatch by any spelling
//! runs the groups of every dialect for that canonical event. The only refinement is for
//! after-tool events, where claude distinguishes success from failure ([`ToolResult`]).

use serde::{Deserialize, Serialize};

/// The events hookrt knows, independent of any dialect: every Claude Code hook event of 2026
/// (v2.1.240), Codex's `Interrupt`, and the spellings of opencode and Hermes mapped onto them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum CanonicalEvent {
    #[serde(rename = "session:start")]
    SessionStart,
    #[serde(rename = "session:end")]
    SessionEnd,
    #[serde(rename = "prompt:submit")]
    PromptSubmit,
    #[serde(rename = "tool:before")]
    ToolBefore,
    #[serde(rename = "tool:after")]
    ToolAfter,
    #[serde(rename = "turn:stop")]
    TurnStop,
    #[serde(rename = "subagent:start")]
    SubagentStart,
    #[serde(rename = "subagent:end")]
    SubagentEnd,
    #[serde(rename = "notice")]
    Notice,
    #[serde(rename = "compact:before")]
    CompactBefore,
    #[serde(rename = "session:setup")]
    Setup,
    #[serde(rename = "prompt:expand")]
    PromptExpand,
    #[serde(rename = "permission:request")]
    PermissionRequest,
    #[serde(rename = "permission:denied")]
    PermissionDenied,
    #[serde(rename = "tool:batch")]
    ToolBatch,
    #[serde(rename = "message:display")]
    MessageDisplay,
    #[serde(rename = "task:create")]
    TaskCreate,
    #[serde(rename = "task:complete")]
    TaskComplete,
    #[serde(rename = "turn:fail")]
    TurnFail,
    #[serde(rename = "turn:interrupt")]
    TurnInterrupt,
    #[serde(rename = "teammate:idle")]
    TeammateIdle,
    #[serde(rename = "instructions:load")]
    InstructionsLoad,
    #[serde(rename = "config:change")]
    ConfigChange,
    #[serde(rename = "cwd:change")]
    CwdChange,
    #[serde(rename = "directory:add")]
    DirectoryAdd,
    #[serde(rename = "file:change")]
    FileChange,
    #[serde(rename = "worktree:create")]
    WorktreeCreate,
    #[serde(rename = "worktree:remove")]
    WorktreeRemove,
    #[serde(rename = "compact:after")]
    CompactAfter,
    #[serde(rename = "model:switch")]
    ModelSwitch,
    #[serde(rename = "model:switched")]
    ModelSwitched,
    #[serde(rename = "elicitation:request")]
    ElicitationRequest,
    #[serde(rename = "elicitation:result")]
    ElicitationResult,
    /// Gemini's `BeforeModel`: a request is about to go to the model.
    #[serde(rename = "model:before")]
    ModelBefore,
    /// Gemini's `AfterModel`: a response (chunk) came back from the model.
    #[serde(rename = "model:after")]
    ModelAfter,
    /// Gemini's `BeforeToolSelection`: the model is about to choose among tools.
    #[serde(rename = "tool:select")]
    ToolSelect,
    /// Cursor's `afterAgentResponse`, Windsurf's `post_cascade_response`.
    #[serde(rename = "agent:response")]
    AgentResponse,
    /// Cursor's `afterAgentThought`.
    #[serde(rename = "agent:thought")]
    AgentThought,
}

/// Which outcome of a tool an after-tool dispatch or group speaks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolResult {
    /// Not an after-tool event, or an after-tool name that covers both outcomes.
    Either,
    /// Claude's `PostToolUse`: the tool succeeded.
    Success,
    /// Claude's `PostToolUseFailure`: the tool failed.
    Failure,
}

impl ToolResult {
    /// Whether a group declared for `self` runs for a dispatch that reports `dispatched`.
    pub fn admits(self, dispatched: ToolResult) -> bool {
        match self {
            ToolResult::Either => true,
            ToolResult::Success => dispatched != ToolResult::Failure,
            ToolResult::Failure => dispatched != ToolResult::Success,
        }
    }
}

/// Where an event's matcher subject comes from. The one source of truth for the dispatcher,
/// the `listen` fast path and the JS wrapper's no-match shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// Payload keys whose first string value is the subject; empty: the event has none.
    pub keys: &'static [&'static str],
    /// The subject is the last path component of that value (FileChanged: `.envrc`).
    pub basename: bool,
}

impl Subject {
    const NONE: Subject = Subject { keys: &[], basename: false };
    const fn keys(keys: &'static [&'static str]) -> Subject {
        Subject { keys, basename: false }
    }

    /// Derives the subject from one candidate value (already known to be a string).
    pub fn of<'a>(&self, value: &'a str) -> &'a str {
        if self.basename {
            value.rsplit('/').next().unwrap_or(value)
        } else {
            value
        }
    }
}

/// What exit code 2 means on an event (Claude's "Exit code 2 behavior per event").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitTwo {
    /// A deny with stderr as the reason (downgraded later where the event cannot block).
    Denies,
    /// Not honoured: the run decides nothing (PermissionRequest, Notification, ...).
    Ignored,
}

/// How a run's output is read on an event, beyond the common rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputRule {
    /// The common rules: JSON answers on exit 0, exit 2 per [`ExitTwo`].
    Standard,
    /// Output and exit code are ignored (StopFailure).
    Discarded,
    /// Any non-zero exit fails (denies); plain stdout is a path (WorktreeCreate).
    PathOrFail,
}

/// One row of the event table: every spelling and every per-event rule.
struct Row {
    canonical: CanonicalEvent,
    /// Claude Code spellings (after-tool has two).
    claude: &'static [&'static str],
    /// Whether Codex's hooks have the event (under the Claude spelling).
    codex: bool,
    opencode: Option<&'static str>,
    hermes: Option<&'static str>,
    subject: Subject,
    /// A deny can stop the action (otherwise it is downgraded).
    blockable: bool,
    /// Plain stdout of a clean run is context.
    plain_context: bool,
    exit_two: ExitTwo,
    output: OutputRule,
}

/// Payload keys whose first string value is the tool name.
const TOOL_KEYS: &[&str] = &["tool_name", "tool", "name"];
const TOOL: Subject = Subject::keys(TOOL_KEYS);

const fn row(canonical: CanonicalEvent, claude: &'static [&'static str], subject: Subject) -> Row {
    Row {
        canonical,
        claude,
        codex: false,
        opencode: None,
        hermes: None,
        subject,
        blockable: false,
        plain_context: false,
        exit_two: ExitTwo::Denies,
        output: OutputRule::Standard,
    }
}

use CanonicalEvent as E;

/// The event table, in `CanonicalEvent` order. The first ten rows (all accepted in Codex files)
/// are the JavaScript
/// implementation's contract (SPEC §4) and keep its rules even where Claude's reference has
/// since changed (SubagentStop blocks in Claude; here it is downgraded, as the contract says).
const TABLE: [Row; 38] = [
    Row {
        codex: true,
        opencode: Some("session.created"),
        hermes: Some("on_session_start"),
        plain_context: true,
        ..row(E::SessionStart, &["SessionStart"], Subject::keys(&["source"]))
    },
    Row {
        codex: true,
        opencode: Some("session.deleted"),
        hermes: Some("on_session_end"),
        ..row(E::SessionEnd, &["SessionEnd"], Subject::keys(&["reason", "source"]))
    },
    Row {
        codex: true,
        opencode: Some("chat.message"),
        hermes: Some("pre_llm_call"),
        blockable: true,
        plain_context: true,
        ..row(E::PromptSubmit, &["UserPromptSubmit"], Subject::NONE)
    },
    Row {
        codex: true,
        opencode: Some("tool.execute.before"),
        hermes: Some("pre_tool_call"),
        blockable: true,
        ..row(E::ToolBefore, &["PreToolUse"], TOOL)
    },
    Row {
        codex: true,
        opencode: Some("tool.execute.after"),
        hermes: Some("post_tool_call"),
        ..row(E::ToolAfter, &["PostToolUse", "PostToolUseFailure"], TOOL)
    },
    Row {
        codex: true,
        opencode: Some("session.idle"),
        hermes: Some("post_llm_call"),
        blockable: true,
        ..row(E::TurnStop, &["Stop"], Subject::NONE)
    },
    Row {
        codex: true,
        opencode: Some("tool.execute.before.subagent"),
        hermes: Some("subagent_start"),
        plain_context: true,
        ..row(E::SubagentStart, &["SubagentStart"], Subject::keys(&["agent_type"]))
    },
    Row {
        codex: true,
        opencode: Some("tool.execute.after.subagent"),
        hermes: Some("subagent_stop"),
        ..row(E::SubagentEnd, &["SubagentStop"], Subject::keys(&["agent_type"]))
    },
    // Notification and PreCompact matchers have no effect in the contract (SPEC §5), although
    // Claude now matches them on `notification_type` and `trigger`.
    Row { codex: true, opencode: Some("notification"), ..row(E::Notice, &["Notification"], Subject::NONE) },
    Row {
        codex: true,
        opencode: Some("experimental.session.compacting"),
        plain_context: true,
        ..row(E::CompactBefore, &["PreCompact"], Subject::NONE)
    },
    row(E::Setup, &["Setup"], Subject::keys(&["trigger"])),
    Row {
        blockable: true,
        plain_context: true,
        ..row(E::PromptExpand, &["UserPromptExpansion"], Subject::keys(&["command_name"]))
    },
    Row {
        codex: true,
        opencode: Some("permission.ask"),
        blockable: true,
        exit_two: ExitTwo::Ignored,
        ..row(E::PermissionRequest, &["PermissionRequest"], TOOL)
    },
    Row { exit_two: ExitTwo::Ignored, ..row(E::PermissionDenied, &["PermissionDenied"], TOOL) },
    Row { blockable: true, ..row(E::ToolBatch, &["PostToolBatch"], Subject::NONE) },
    Row { exit_two: ExitTwo::Ignored, ..row(E::MessageDisplay, &["MessageDisplay"], Subject::NONE) },
    Row { blockable: true, ..row(E::TaskCreate, &["TaskCreated"], Subject::NONE) },
    Row { blockable: true, ..row(E::TaskComplete, &["TaskCompleted"], Subject::NONE) },
    Row {
        opencode: Some("session.error"),
        output: OutputRule::Discarded,
        exit_two: ExitTwo::Ignored,
        ..row(E::TurnFail, &["StopFailure"], Subject::keys(&["error"]))
    },
    Row { codex: true, exit_two: ExitTwo::Ignored, ..row(E::TurnInterrupt, &["Interrupt"], Subject::NONE) },
    Row { blockable: true, ..row(E::TeammateIdle, &["TeammateIdle"], Subject::NONE) },
    Row {
        exit_two: ExitTwo::Ignored,
        ..row(E::InstructionsLoad, &["InstructionsLoaded"], Subject::keys(&["load_reason"]))
    },
    Row { blockable: true, ..row(E::ConfigChange, &["ConfigChange"], Subject::keys(&["source"])) },
    row(E::CwdChange, &["CwdChanged"], Subject::NONE),
    row(E::DirectoryAdd, &["DirectoryAdded"], Subject::keys(&["source"])),
    Row {
        opencode: Some("file.watcher.updated"),
        ..row(E::FileChange, &["FileChanged"], Subject { keys: &["file_path", "file"], basename: true })
    },
    Row {
        blockable: true,
        output: OutputRule::PathOrFail,
        ..row(E::WorktreeCreate, &["WorktreeCreate"], Subject::NONE)
    },
    row(E::WorktreeRemove, &["WorktreeRemove"], Subject::NONE),
    Row {
        codex: true,
        opencode: Some("session.compacted"),
        ..row(E::CompactAfter, &["PostCompact"], Subject::keys(&["trigger"]))
    },
    Row { blockable: true, ..row(E::ModelSwitch, &["PreModelSwitch"], Subject::NONE) },
    row(E::ModelSwitched, &["PostModelSwitch"], Subject::NONE),
    Row { blockable: true, ..row(E::ElicitationRequest, &["Elicitation"], Subject::keys(&["mcp_server_name"])) },
    Row { blockable: true, ..row(E::ElicitationResult, &["ElicitationResult"], Subject::keys(&["mcp_server_name"])) },
    // Events of other harnesses that Claude Code does not have (no Claude spelling).
    Row { blockable: true, ..row(E::ModelBefore, &[], Subject::NONE) },
    Row { blockable: true, ..row(E::ModelAfter, &[], Subject::NONE) },
    row(E::ToolSelect, &[], Subject::NONE),
    row(E::AgentResponse, &[], Subject::NONE),
    row(E::AgentThought, &[], Subject::NONE),
];

impl CanonicalEvent {
    /// All canonical events, in table order.
    pub const ALL: [CanonicalEvent; 38] = {
        let mut all = [E::SessionStart; 38];
        let mut i = 0;
        while i < 38 {
            all[i] = TABLE[i].canonical;
            i += 1;
        }
        all
    };

    /// How many canonical events there are (the hook table's index size).
    pub const COUNT: usize = 38;

    /// The canonical spelling (`tool:before`), as used on the wire and in native files.
    pub fn as_str(self) -> &'static str {
        match self {
            E::SessionStart => "session:start",
            E::SessionEnd => "session:end",
            E::PromptSubmit => "prompt:submit",
            E::ToolBefore => "tool:before",
            E::ToolAfter => "tool:after",
            E::TurnStop => "turn:stop",
            E::SubagentStart => "subagent:start",
            E::SubagentEnd => "subagent:end",
            E::Notice => "notice",
            E::CompactBefore => "compact:before",
            E::Setup => "session:setup",
            E::PromptExpand => "prompt:expand",
            E::PermissionRequest => "permission:request",
            E::PermissionDenied => "permission:denied",
            E::ToolBatch => "tool:batch",
            E::MessageDisplay => "message:display",
            E::TaskCreate => "task:create",
            E::TaskComplete => "task:complete",
            E::TurnFail => "turn:fail",
            E::TurnInterrupt => "turn:interrupt",
            E::TeammateIdle => "teammate:idle",
            E::InstructionsLoad => "instructions:load",
            E::ConfigChange => "config:change",
            E::CwdChange => "cwd:change",
            E::DirectoryAdd => "directory:add",
            E::FileChange => "file:change",
            E::WorktreeCreate => "worktree:create",
            E::WorktreeRemove => "worktree:remove",
            E::CompactAfter => "compact:after",
            E::ModelSwitch => "model:switch",
            E::ModelSwitched => "model:switched",
            E::ElicitationRequest => "elicitation:request",
            E::ElicitationResult => "elicitation:result",
            E::ModelBefore => "model:before",
            E::ModelAfter => "model:after",
            E::ToolSelect => "tool:select",
            E::AgentResponse => "agent:response",
            E::AgentThought => "agent:thought",
        }
    }

    /// Parses only the canonical spelling.
    pub fn from_canonical(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == name)
    }

    fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// Claude / Codex spelling (the first one for after-tool); the canonical spelling for the
    /// events only other harnesses have.
    pub fn claude_name(self) -> &'static str {
        self.row().claude.first().copied().unwrap_or_else(|| self.as_str())
    }

    /// Whether Claude Code has this event.
    pub fn in_claude(self) -> bool {
        !self.row().claude.is_empty()
    }

    /// Whether Codex's hook files have this event.
    pub fn in_codex(self) -> bool {
        self.row().codex
    }

    /// opencode spelling, where opencode has the event.
    pub fn opencode_name(self) -> Option<&'static str> {
        self.row().opencode
    }

    /// Hermes spelling, where Hermes has the event.
    pub fn hermes_name(self) -> Option<&'static str> {
        self.row().hermes
    }

    /// Whether a deny on this event can stop the action (otherwise it is downgraded).
    pub fn blockable(self) -> bool {
        self.row().blockable
    }

    /// Whether plain stdout of a clean run becomes context on this event.
    pub fn plain_stdout_is_context(self) -> bool {
        self.row().plain_context
    }

    /// What exit code 2 does on this event.
    pub fn exit_two(self) -> ExitTwo {
        self.row().exit_two
    }

    /// How output is read on this event.
    pub fn output_rule(self) -> OutputRule {
        self.row().output
    }

    /// Where the matcher subject comes from.
    pub fn subject(self) -> Subject {
        self.row().subject
    }

    /// Payload keys that give the matcher subject, first string wins; empty when the event
    /// has no subject (a matcher on it has no effect).
    pub fn subject_keys(self) -> &'static [&'static str] {
        self.row().subject.keys
    }

    /// Whether a matcher can select anything on this event.
    pub fn has_subject(self) -> bool {
        !self.subject_keys().is_empty()
    }

    /// The matcher subject of a payload, when it has one.
    pub fn subject_of(self, payload: &serde_json::Map<String, serde_json::Value>) -> Option<&str> {
        let subject = self.subject();
        subject.keys.iter().find_map(|k| payload.get(*k).and_then(|v| v.as_str())).map(|v| subject.of(v))
    }

    /// Whether the hooks of this event get a `CLAUDE_ENV_FILE` to export variables through.
    pub fn takes_env_file(self) -> bool {
        matches!(self, E::SessionStart | E::Setup | E::CwdChange | E::FileChange)
    }
}

/// What a dispatched event name means: the canonical event plus, for after-tool events,
/// which tool outcome it reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DispatchEvent {
    pub canonical: CanonicalEvent,
    pub result: ToolResult,
    /// Dispatched by a tool-class spelling (`beforeShellExecution`): the tool is of that class
    /// even when the payload names no tool.
    pub class: Option<crate::harness::tools::ToolClass>,
}

/// Resolves any spelling a host may dispatch: canonical, claude/codex, opencode or hermes.
pub fn resolve_dispatch_name(name: &str) -> Option<DispatchEvent> {
    let plain = |canonical| Some(DispatchEvent { canonical, result: ToolResult::Either, class: None });
    let after = |result| Some(DispatchEvent { canonical: CanonicalEvent::ToolAfter, result, class: None });
    match name {
        "PostToolUse" => return after(ToolResult::Success),
        "PostToolUseFailure" => return after(ToolResult::Failure),
        _ => {}
    }
    if let Some(e) = CanonicalEvent::from_canonical(name) {
        return plain(e);
    }
    TABLE
        .iter()
        .find(|r| r.claude.contains(&name) || r.opencode == Some(name) || r.hermes == Some(name))
        .and_then(|r| plain(r.canonical))
        .or_else(|| {
            crate::harness::resolve_event(name).map(|s| DispatchEvent {
                canonical: s.canonical,
                result: s.result,
                class: s.class,
            })
        })
}

/// Resolves a `hookEventName` from a hook's answer: any dialect's spelling counts.
pub fn resolve_any_name(name: &str) -> Option<CanonicalEvent> {
    resolve_dispatch_name(name).map(|d| d.canonical)
}

/// Every name a host may dispatch, for help texts and error messages (other harnesses'
/// spellings last, each once).
pub fn all_dispatch_names() -> Vec<&'static str> {
    let mut v = Vec::new();
    for r in &TABLE {
        v.push(r.canonical.as_str());
        v.extend_from_slice(r.claude);
        v.extend(r.opencode);
        v.extend(r.hermes);
    }
    for n in crate::harness::event_names() {
        if !v.contains(&n) {
            v.push(n);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_resolves_to_its_row() {
        for r in &TABLE {
            assert_eq!(resolve_any_name(r.canonical.as_str()), Some(r.canonical));
            for c in r.claude {
                assert_eq!(resolve_any_name(c), Some(r.canonical));
            }
            if let Some(o) = r.opencode {
                assert_eq!(resolve_any_name(o), Some(r.canonical));
            }
            if let Some(h) = r.hermes {
                assert_eq!(resolve_any_name(h), Some(r.canonical));
            }
        }
        assert_eq!(resolve_any_name("Bogus"), None);
        assert_eq!(resolve_any_name("pretooluse"), None);
    }

    #[test]
    fn table_rows_are_in_enum_order_and_names_are_unique() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.canonical as usize, i, "{:?}", r.canonical);
        }
        let names = all_dispatch_names();
        let unique: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(names.contains(&"PermissionRequest") && names.contains(&"Interrupt"));
    }

    #[test]
    fn file_changed_subject_is_the_file_name() {
        let p: serde_json::Map<_, _> = serde_json::from_str(r#"{"file_path":"/p/.envrc"}"#).unwrap();
        assert_eq!(CanonicalEvent::FileChange.subject_of(&p), Some(".envrc"));
    }

    #[test]
    fn after_tool_refinement() {
        let s = resolve_dispatch_name("PostToolUse").unwrap();
        let f = resolve_dispatch_name("PostToolUseFailure").unwrap();
        let e = resolve_dispatch_name("tool.execute.after").unwrap();
        assert_eq!(s.result, ToolResult::Success);
        assert_eq!(f.result, ToolResult::Failure);
        assert_eq!(e.result, ToolResult::Either);
        assert!(ToolResult::Success.admits(s.result) && !ToolResult::Success.admits(f.result));
        assert!(ToolResult::Failure.admits(f.result) && !ToolResult::Failure.admits(s.result));
        assert!(ToolResult::Success.admits(e.result) && ToolResult::Failure.admits(e.result));
        assert!(ToolResult::Either.admits(f.result));
    }

    #[test]
    fn subject_takes_first_string_key() {
        let p: serde_json::Map<_, _> = serde_json::from_str(r#"{"tool_name":5,"tool":"Grep","name":"X"}"#).unwrap();
        assert_eq!(CanonicalEvent::ToolBefore.subject_of(&p), Some("Grep"));
        let p: serde_json::Map<_, _> = serde_json::from_str(r#"{"reason":"logout","source":"clear"}"#).unwrap();
        assert_eq!(CanonicalEvent::SessionEnd.subject_of(&p), Some("logout"));
        assert_eq!(CanonicalEvent::TurnStop.subject_of(&p), None);
    }
}
