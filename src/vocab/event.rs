//! Canonical lifecycle events and the rules that belong to an event whatever harness spells it:
//! where its matcher subject comes from, whether a deny can stop it, whether plain stdout is
//! context, what exit code 2 means and how output is read (docs/events.md). Each harness's
//! spellings live in its own folder under `harness/`.

use crate::vocab::tool::ToolClass;
use serde::{Deserialize, Serialize};

/// The events hookrt knows, independent of any dialect: every Claude Code hook event of 2026
/// (v2.1.240), Codex's `Interrupt`, and the spellings of opencode and Hermes mapped onto them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord, schemars::JsonSchema)]
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
    /// Copilot's `userPromptTransformed`: the prompt after Copilot expanded it.
    #[serde(rename = "prompt:transformed")]
    PromptTransformed,
    /// Claude Code's `PreSkillShellCommand`: a skill is about to run a shell command.
    #[serde(rename = "skill:shell")]
    SkillShell,
    /// Hermes' `transform_tool_result`: a tool's result before the model sees it.
    #[serde(rename = "tool:result")]
    ToolResultReady,
    /// Hermes' `transform_terminal_output`: the terminal tool's raw output.
    #[serde(rename = "terminal:output")]
    TerminalOutput,
    /// Hermes' `transform_llm_output`: the final response text before the user sees it.
    #[serde(rename = "response:transform")]
    ResponseTransform,
    /// Hermes' `on_session_finalize`: the session's process is shutting down.
    #[serde(rename = "session:finalize")]
    SessionFinalize,
    /// Hermes' `on_session_reset`: the conversation was reset (`/new`).
    #[serde(rename = "session:reset")]
    SessionReset,
    /// Hermes' `api_request_error`: a model request failed.
    #[serde(rename = "model:error")]
    ModelError,
    /// Hermes' `post_approval_response`: the user answered an approval prompt.
    #[serde(rename = "approval:response")]
    ApprovalResponse,
    /// Hermes' `pre_gateway_dispatch`: a messaging-gateway message is about to be handled.
    #[serde(rename = "gateway:dispatch")]
    GatewayDispatch,
    /// Hermes' `kanban_task_claimed`.
    #[serde(rename = "task:claim")]
    TaskClaim,
    /// Hermes' `kanban_task_blocked`.
    #[serde(rename = "task:block")]
    TaskBlock,
    /// Hermes' `on_stream_start`: a streamed model response began.
    #[serde(rename = "stream:start")]
    StreamStart,
    /// Hermes' `on_stream_delta`: a piece of a streamed response arrived.
    #[serde(rename = "stream:delta")]
    StreamDelta,
    /// Hermes' `on_stream_end`: a streamed response ended.
    #[serde(rename = "stream:end")]
    StreamEnd,
    /// Hermes' `on_interim_message`: a message shown while the turn goes on.
    #[serde(rename = "message:interim")]
    InterimMessage,
    /// Hermes' `transform_api_error_classification`: a failed model request is about to be classified.
    #[serde(rename = "model:error-classify")]
    ErrorClassify,
    /// Hermes' `on_skill_lifecycle`: a skill was created, changed or removed.
    #[serde(rename = "skill:lifecycle")]
    SkillLifecycle,
    /// Hermes' `pre_transcription`: audio is about to be transcribed.
    #[serde(rename = "transcription:before")]
    Transcribe,
    /// Hermes' `on_kanban_worker_spawned`.
    #[serde(rename = "task:worker-spawn")]
    TaskWorkerSpawn,
    /// Hermes' `on_kanban_worker_exited`.
    #[serde(rename = "task:worker-exit")]
    TaskWorkerExit,
    /// Hermes' `on_kanban_worker_stale_claim`.
    #[serde(rename = "task:stale-claim")]
    TaskStaleClaim,
    /// Hermes' `on_kanban_task_updated`.
    #[serde(rename = "task:update")]
    TaskUpdate,
    /// Hermes' `on_kanban_dispatch_tick`.
    #[serde(rename = "task:dispatch-tick")]
    TaskDispatchTick,
    /// Hermes' `gateway_platform_event`: a messaging platform reported an event (a reaction, an edit).
    #[serde(rename = "gateway:platform-event")]
    GatewayEvent,
    /// Hermes' `pre_command`: a slash command is about to run.
    #[serde(rename = "command:before")]
    CommandBefore,
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

/// The per-event rules of one canonical event.
struct Rules {
    canonical: CanonicalEvent,
    /// The canonical spelling.
    name: &'static str,
    subject: Subject,
    /// A deny can stop the action (otherwise it is downgraded).
    blockable: bool,
    /// Plain stdout of a clean run is context.
    plain_context: bool,
    exit_two: ExitTwo,
    output: OutputRule,
}

/// Payload keys whose first string value is the tool name.
const TOOL_KEYS: &[&str] = &["tool_name", "toolName", "tool", "name"];
const TOOL: Subject = Subject::keys(TOOL_KEYS);

const fn rules(canonical: CanonicalEvent, name: &'static str, subject: Subject) -> Rules {
    Rules {
        canonical,
        name,
        subject,
        blockable: false,
        plain_context: false,
        exit_two: ExitTwo::Denies,
        output: OutputRule::Standard,
    }
}

const fn blocks(r: Rules) -> Rules {
    Rules { blockable: true, ..r }
}

const fn context(r: Rules) -> Rules {
    Rules { plain_context: true, ..r }
}

const fn ignores_two(r: Rules) -> Rules {
    Rules { exit_two: ExitTwo::Ignored, ..r }
}

use CanonicalEvent as E;

/// The rule table, in `CanonicalEvent` order. The first ten rows are the JavaScript
/// implementation's contract (docs/events.md) and keep its rules even where Claude's reference
/// has since changed (SubagentStop blocks in Claude; here it is downgraded, as the contract says;
/// Notification and PreCompact matchers have no effect).
const TABLE: [Rules; 64] = [
    context(rules(E::SessionStart, "session:start", Subject::keys(&["source"]))),
    rules(E::SessionEnd, "session:end", Subject::keys(&["reason", "source"])),
    context(blocks(rules(E::PromptSubmit, "prompt:submit", Subject::NONE))),
    blocks(rules(E::ToolBefore, "tool:before", TOOL)),
    rules(E::ToolAfter, "tool:after", TOOL),
    blocks(rules(E::TurnStop, "turn:stop", Subject::NONE)),
    context(rules(E::SubagentStart, "subagent:start", Subject::keys(&["agent_type"]))),
    rules(E::SubagentEnd, "subagent:end", Subject::keys(&["agent_type"])),
    rules(E::Notice, "notice", Subject::NONE),
    context(rules(E::CompactBefore, "compact:before", Subject::NONE)),
    rules(E::Setup, "session:setup", Subject::keys(&["trigger"])),
    context(blocks(rules(E::PromptExpand, "prompt:expand", Subject::keys(&["command_name"])))),
    ignores_two(blocks(rules(E::PermissionRequest, "permission:request", TOOL))),
    ignores_two(rules(E::PermissionDenied, "permission:denied", TOOL)),
    blocks(rules(E::ToolBatch, "tool:batch", Subject::NONE)),
    ignores_two(rules(E::MessageDisplay, "message:display", Subject::NONE)),
    blocks(rules(E::TaskCreate, "task:create", Subject::NONE)),
    blocks(rules(E::TaskComplete, "task:complete", Subject::NONE)),
    Rules { output: OutputRule::Discarded, ..ignores_two(rules(E::TurnFail, "turn:fail", Subject::keys(&["error"]))) },
    ignores_two(rules(E::TurnInterrupt, "turn:interrupt", Subject::NONE)),
    blocks(rules(E::TeammateIdle, "teammate:idle", Subject::NONE)),
    ignores_two(rules(E::InstructionsLoad, "instructions:load", Subject::keys(&["load_reason"]))),
    blocks(rules(E::ConfigChange, "config:change", Subject::keys(&["source"]))),
    rules(E::CwdChange, "cwd:change", Subject::NONE),
    rules(E::DirectoryAdd, "directory:add", Subject::keys(&["source"])),
    rules(E::FileChange, "file:change", Subject { keys: &["file_path", "file"], basename: true }),
    Rules { output: OutputRule::PathOrFail, ..blocks(rules(E::WorktreeCreate, "worktree:create", Subject::NONE)) },
    rules(E::WorktreeRemove, "worktree:remove", Subject::NONE),
    rules(E::CompactAfter, "compact:after", Subject::keys(&["trigger"])),
    blocks(rules(E::ModelSwitch, "model:switch", Subject::NONE)),
    rules(E::ModelSwitched, "model:switched", Subject::NONE),
    blocks(rules(E::ElicitationRequest, "elicitation:request", Subject::keys(&["mcp_server_name"]))),
    blocks(rules(E::ElicitationResult, "elicitation:result", Subject::keys(&["mcp_server_name"]))),
    blocks(rules(E::ModelBefore, "model:before", Subject::NONE)),
    blocks(rules(E::ModelAfter, "model:after", Subject::NONE)),
    rules(E::ToolSelect, "tool:select", Subject::NONE),
    rules(E::AgentResponse, "agent:response", Subject::NONE),
    rules(E::AgentThought, "agent:thought", Subject::NONE),
    rules(E::PromptTransformed, "prompt:transformed", Subject::NONE),
    blocks(rules(E::SkillShell, "skill:shell", TOOL)),
    rules(E::ToolResultReady, "tool:result", TOOL),
    rules(E::TerminalOutput, "terminal:output", Subject::NONE),
    rules(E::ResponseTransform, "response:transform", Subject::NONE),
    rules(E::SessionFinalize, "session:finalize", Subject::NONE),
    rules(E::SessionReset, "session:reset", Subject::NONE),
    rules(E::ModelError, "model:error", Subject::NONE),
    rules(E::ApprovalResponse, "approval:response", Subject::NONE),
    rules(E::GatewayDispatch, "gateway:dispatch", Subject::NONE),
    rules(E::TaskClaim, "task:claim", Subject::NONE),
    rules(E::TaskBlock, "task:block", Subject::NONE),
    rules(E::StreamStart, "stream:start", Subject::NONE),
    rules(E::StreamDelta, "stream:delta", Subject::NONE),
    rules(E::StreamEnd, "stream:end", Subject::NONE),
    rules(E::InterimMessage, "message:interim", Subject::NONE),
    rules(E::ErrorClassify, "model:error-classify", Subject::NONE),
    rules(E::SkillLifecycle, "skill:lifecycle", Subject::NONE),
    rules(E::Transcribe, "transcription:before", Subject::NONE),
    rules(E::TaskWorkerSpawn, "task:worker-spawn", Subject::NONE),
    rules(E::TaskWorkerExit, "task:worker-exit", Subject::NONE),
    rules(E::TaskStaleClaim, "task:stale-claim", Subject::NONE),
    rules(E::TaskUpdate, "task:update", Subject::NONE),
    rules(E::TaskDispatchTick, "task:dispatch-tick", Subject::NONE),
    rules(E::GatewayEvent, "gateway:platform-event", Subject::NONE),
    rules(E::CommandBefore, "command:before", Subject::NONE),
];

impl CanonicalEvent {
    /// All canonical events, in table order.
    pub const ALL: [CanonicalEvent; 64] = {
        let mut all = [E::SessionStart; 64];
        let mut i = 0;
        while i < 64 {
            all[i] = TABLE[i].canonical;
            i += 1;
        }
        all
    };

    /// How many canonical events there are (the hook table's index size).
    pub const COUNT: usize = 64;

    /// The canonical spelling (`tool:before`), as used on the wire and in native files.
    pub const fn as_str(self) -> &'static str {
        self.rules().name
    }

    /// Parses only the canonical spelling.
    pub fn from_canonical(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == name)
    }

    const fn rules(self) -> &'static Rules {
        &TABLE[self as usize]
    }

    /// Whether a deny on this event can stop the action (otherwise it is downgraded).
    pub const fn blockable(self) -> bool {
        self.rules().blockable
    }

    /// Whether plain stdout of a clean run becomes context on this event.
    pub fn plain_stdout_is_context(self) -> bool {
        self.rules().plain_context
    }

    /// What exit code 2 does on this event.
    pub fn exit_two(self) -> ExitTwo {
        self.rules().exit_two
    }

    /// How output is read on this event.
    pub fn output_rule(self) -> OutputRule {
        self.rules().output
    }

    /// Where the matcher subject comes from.
    pub const fn subject(self) -> Subject {
        self.rules().subject
    }

    /// Payload keys that give the matcher subject, first string wins; empty when the event
    /// has no subject (a matcher on it has no effect).
    pub fn subject_keys(self) -> &'static [&'static str] {
        self.rules().subject.keys
    }

    /// Whether a matcher can select anything on this event.
    pub const fn has_subject(self) -> bool {
        !self.rules().subject.keys.is_empty()
    }

    /// The matcher subject of a payload, when it has one.
    pub fn subject_of(self, payload: &serde_json::Map<String, serde_json::Value>) -> Option<&str> {
        let subject = self.subject();
        subject.keys.iter().find_map(|k| super::field(payload, k).and_then(|v| v.as_str())).map(|v| subject.of(v))
    }

    /// Whether the hooks of this event get a `CLAUDE_ENV_FILE` to export variables through.
    pub fn takes_env_file(self) -> bool {
        matches!(self, E::SessionStart | E::Setup | E::CwdChange | E::FileChange)
    }

    /// Whether this is one of the tool events an `if` permission rule can match.
    pub fn is_tool_call(self) -> bool {
        matches!(self, E::ToolBefore | E::ToolAfter | E::PermissionRequest | E::PermissionDenied | E::SkillShell)
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
    pub class: Option<ToolClass>,
}

/// What one event name of a harness means: the canonical event, which tool outcomes its groups
/// are for, the tool class it stands for (`beforeShellExecution`), and whether it takes a matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EventSpec {
    pub name: &'static str,
    pub canonical: CanonicalEvent,
    pub result: ToolResult,
    /// Hooks of this event run only for tools of this class (`beforeShellExecution`).
    pub class: Option<ToolClass>,
    /// Whether the event takes a matcher in this harness.
    pub matcher: bool,
}

impl EventSpec {
    /// A name whose matcher works exactly where the canonical event has a subject (the
    /// Claude Code family's rule).
    pub(crate) const fn named(name: &'static str, canonical: CanonicalEvent) -> Self {
        EventSpec { name, canonical, result: ToolResult::Either, class: None, matcher: canonical.has_subject() }
    }

    /// A lifecycle event that takes no matcher.
    pub(crate) const fn plain(name: &'static str, canonical: CanonicalEvent) -> Self {
        EventSpec { name, canonical, result: ToolResult::Either, class: None, matcher: false }
    }

    /// A tool event with a matcher, for the given tool outcomes.
    pub(crate) const fn tool(name: &'static str, canonical: CanonicalEvent, result: ToolResult) -> Self {
        EventSpec { name, canonical, result, class: None, matcher: true }
    }

    /// A tool-class event (`beforeShellExecution`): no matcher, one class of tools.
    pub(crate) const fn class(name: &'static str, canonical: CanonicalEvent, class: ToolClass) -> Self {
        EventSpec { name, canonical, result: ToolResult::Either, class: Some(class), matcher: false }
    }

    /// The same name with a matcher.
    pub(crate) const fn with_matcher(self) -> Self {
        EventSpec { matcher: true, ..self }
    }

    /// What a dispatch under this name means.
    pub(crate) const fn dispatch(self) -> DispatchEvent {
        DispatchEvent { canonical: self.canonical, result: self.result, class: self.class }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_enum_order() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.canonical as usize, i, "{:?}", r.canonical);
        }
        for e in CanonicalEvent::ALL {
            assert_eq!(CanonicalEvent::from_canonical(e.as_str()), Some(e));
        }
    }

    #[test]
    fn file_changed_subject_is_the_file_name() {
        let p: serde_json::Map<_, _> = serde_json::from_str(r#"{"file_path":"/p/.envrc"}"#).unwrap();
        assert_eq!(CanonicalEvent::FileChange.subject_of(&p), Some(".envrc"));
    }

    #[test]
    fn after_tool_refinement() {
        assert!(ToolResult::Success.admits(ToolResult::Either) && !ToolResult::Success.admits(ToolResult::Failure));
        assert!(ToolResult::Failure.admits(ToolResult::Failure) && !ToolResult::Failure.admits(ToolResult::Success));
        assert!(ToolResult::Either.admits(ToolResult::Failure));
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
