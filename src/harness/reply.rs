//! What hookrt answers when it runs as a harness's own hook (`hookrt hook <harness>`): the
//! folded outcome of every hook it ran, said the way that harness reads a hook's answer —
//! stdout JSON and exit code — as its recordings show it acting on (docs/harnesses/*.md,
//! "Answers, exit codes and what the harness did"). Each harness shapes it in its folder.

use crate::vocab::{CanonicalEvent, Decision};
use serde_json::{Map, Value};

/// The parts of an outcome a harness can act on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Said<'a> {
    pub event: CanonicalEvent,
    /// The event as the harness named it (`hookEventName`).
    pub spelling: &'a str,
    pub decision: Decision,
    pub reason: Option<&'a str>,
    pub contexts: &'a [String],
    pub messages: &'a [String],
    /// The tool's arguments as the hooks rewrote them (the last rewrite).
    pub update_input: Option<&'a Value>,
    /// A hook asked to end the session (`continue: false`).
    pub stop: bool,
    pub stop_reason: Option<&'a str>,
    /// PermissionRequest: the winning `decision` object.
    pub permission: Option<&'a Value>,
    /// The reason of a block the event could not honour (PostToolUse's `decision: "block"`):
    /// Claude Code and Codex still show it to the model, so a harness that does says it again.
    pub after_block: Option<&'a str>,
}

/// A hook's answer: what it prints and how it exits.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// The reason a deny carries when no hook gave one.
pub(crate) const NO_REASON: &str = "Blocked by a hook run through hookrt";

impl Said<'_> {
    pub(crate) fn reason_or_default(&self) -> &str {
        self.reason.filter(|r| !r.is_empty()).unwrap_or(NO_REASON)
    }

    pub(crate) fn context(&self) -> Option<String> {
        (!self.contexts.is_empty()).then(|| self.contexts.join("\n"))
    }

    pub(crate) fn message(&self) -> Option<String> {
        (!self.messages.is_empty()).then(|| self.messages.join("\n"))
    }
}

/// Exit 0 with `top` as JSON, or nothing when it is empty.
pub(crate) fn json(top: Map<String, Value>) -> Reply {
    let stdout = if top.is_empty() { String::new() } else { Value::Object(top).to_string() };
    Reply { stdout, stderr: String::new(), code: 0 }
}

/// `continue: false` and `systemMessage`, the fields the Claude Code family shares at the top.
pub(crate) fn common_top(s: &Said, top: &mut Map<String, Value>) {
    if let Some(m) = s.message() {
        top.insert("systemMessage".into(), m.into());
    }
    if s.stop {
        top.insert("continue".into(), false.into());
        if let Some(r) = s.stop_reason {
            top.insert("stopReason".into(), r.into());
        }
    }
}

/// `decision: "block"` with the reason: how the Claude Code family, Copilot and Hermes block an
/// event that is not a tool call.
pub(crate) fn block(s: &Said, top: &mut Map<String, Value>) {
    top.insert("decision".into(), "block".into());
    top.insert("reason".into(), s.reason_or_default().into());
}

/// Puts the event-specific fields under `hookSpecificOutput`, named by the harness's spelling
/// of the event, when there are any.
pub(crate) fn nest(s: &Said, top: &mut Map<String, Value>, hso: Map<String, Value>) {
    if hso.is_empty() {
        return;
    }
    let mut with_name = Map::new();
    with_name.insert("hookEventName".into(), s.spelling.into());
    with_name.extend(hso);
    top.insert("hookSpecificOutput".into(), Value::Object(with_name));
}
