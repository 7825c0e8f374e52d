//! What one hook answered: the raw run before decoding ([`Raw`]), the decoded outcome of one
//! run ([`RunOutcome`], `runs[i].outcome` on the wire) and the event-specific answer fields both
//! a run and the folded outcome carry ([`EventFields`]). Each harness reads its own answer shapes
//! into these (`harness/<name>/`); `contract` decodes and folds.

use crate::vocab::decision::Decision;
use serde::Serialize;
use serde_json::Value;

/// What one process-like run produced, before decoding.
#[derive(Debug, Clone, Default)]
pub struct Raw {
    /// `Some(code)` on exit, `None` when ended by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Output beyond the capture cap was discarded.
    pub truncated: bool,
}

/// The decoded result of one run (`runs[i].outcome` on the wire).
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunOutcome {
    /// Absent after an infrastructure error; `null` after death by signal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<Option<i32>>,
    pub stderr: String,
    pub stdout: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub stop: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Structured contexts only; plain-stdout context is kept apart for the fold.
    pub contexts: Vec<String>,
    pub messages: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_input: Option<Value>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Event-specific answer fields (PermissionRequest's decision, `sessionTitle`, ...).
    #[serde(flatten)]
    pub fields: EventFields,
    /// Plain stdout of a clean exit 0 (candidate context on events that take it).
    #[serde(skip)]
    pub plain_stdout: Option<String>,
    /// An async hook still running: no outcome yet.
    #[serde(skip)]
    pub pending: bool,
    /// Its output held a JSON answer object (read whatever the exit code was).
    #[serde(skip)]
    pub answered: bool,
}

impl RunOutcome {
    /// An async hook that has not finished.
    pub fn is_pending(&self) -> bool {
        self.pending
    }

    /// Cuts every context and message longer than `cap` characters to `cap`, with a marker
    /// saying how much was cut (Claude Code's 10,000-character limit on hook output strings).
    pub fn cap_texts(&mut self, cap: usize) {
        for t in self.contexts.iter_mut().chain(self.messages.iter_mut()).chain(self.plain_stdout.iter_mut()) {
            cap_text(t, cap);
        }
    }
}

/// Cuts one text to `cap` characters plus a marker.
pub(crate) fn cap_text(t: &mut String, cap: usize) {
    let Some((cut_at, _)) = t.char_indices().nth(cap) else { return };
    let cut = t[cut_at..].chars().count();
    t.truncate(cut_at);
    t.push_str(&format!("\n[hookrt: {cut} more characters cut]"));
}

/// Default reason of an exit-2 run with empty stderr.
pub(crate) const BLOCKED_BY_HOOK: &str = "blocked by hook";
/// Default reason of `ok:false` without a reason.
pub(crate) const DENIED_BY_EVALUATION: &str = "denied by evaluation";

/// Event-specific fields, flattened into `runs[i].outcome` and `outcome` on the wire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventFields {
    /// PermissionRequest: the `hookSpecificOutput.decision` object (`behavior`,
    /// `updatedInput`, `updatedPermissions`, `message`, `interrupt`) of the winning run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission: Option<Value>,
    /// PostToolUse: replaces the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// SessionStart: the session's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_title: Option<String>,
    /// SessionStart: the first user message of a non-interactive session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_user_message: Option<String>,
    /// SessionStart, CwdChanged, FileChanged: absolute paths to watch for FileChanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
    /// SessionStart: re-scan skills after the hooks.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reload_skills: bool,
    /// PermissionDenied: the model may retry the denied call.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// WorktreeCreate: the created worktree's path (a command hook's stdout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult: `{action, content}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<Value>,
    /// MessageDisplay: the text shown instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_content: Option<String>,
    /// Any event: an allowlisted terminal escape sequence for the host to emit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminal_sequence: Option<String>,
}

impl EventFields {
    /// Folds a later run's fields in (configuration order): single values keep the first,
    /// watch lists are joined, flags are set by any run.
    pub fn merge(&mut self, later: &EventFields) {
        fn first<T: Clone>(a: &mut Option<T>, b: &Option<T>) {
            if a.is_none() {
                a.clone_from(b);
            }
        }
        first(&mut self.updated_tool_output, &later.updated_tool_output);
        first(&mut self.session_title, &later.session_title);
        first(&mut self.initial_user_message, &later.initial_user_message);
        first(&mut self.worktree_path, &later.worktree_path);
        first(&mut self.elicitation, &later.elicitation);
        first(&mut self.display_content, &later.display_content);
        first(&mut self.terminal_sequence, &later.terminal_sequence);
        if let Some(w) = &later.watch_paths {
            self.watch_paths.get_or_insert_with(Vec::new).extend(w.iter().cloned());
        }
        self.reload_skills |= later.reload_skills;
        self.retry |= later.retry;
    }
}

/// A hook's JSON answer object, with its `hookSpecificOutput` when that speaks about the
/// dispatched event (one naming another event is discarded as a whole; docs/events.md).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Answer<'a> {
    pub top: &'a serde_json::Map<String, Value>,
    pub hso: Option<&'a serde_json::Map<String, Value>>,
}

/// An async hook asks to wake the session (exit 2 with `asyncRewake`).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Rewake {
    pub reason: String,
}
