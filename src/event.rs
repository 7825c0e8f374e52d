//! Canonical lifecycle events and how each dialect spells them (SPEC §4).
//!
//! Every dialect-specific name resolves to one [`CanonicalEvent`]; a dispatch by any spelling
//! runs the groups of every dialect for that canonical event. The only refinement is for
//! after-tool events, where claude distinguishes success from failure ([`ToolResult`]).

use serde::{Deserialize, Serialize};

/// The ten events hookrt knows, independent of any dialect.
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

/// One row of the SPEC §4 table.
struct Row {
    canonical: CanonicalEvent,
    claude: &'static [&'static str],
    opencode: &'static str,
    hermes: Option<&'static str>,
}

const TABLE: [Row; 10] = [
    Row {
        canonical: CanonicalEvent::SessionStart,
        claude: &["SessionStart"],
        opencode: "session.created",
        hermes: Some("on_session_start"),
    },
    Row {
        canonical: CanonicalEvent::SessionEnd,
        claude: &["SessionEnd"],
        opencode: "session.deleted",
        hermes: Some("on_session_end"),
    },
    Row {
        canonical: CanonicalEvent::PromptSubmit,
        claude: &["UserPromptSubmit"],
        opencode: "chat.message",
        hermes: Some("pre_llm_call"),
    },
    Row {
        canonical: CanonicalEvent::ToolBefore,
        claude: &["PreToolUse"],
        opencode: "tool.execute.before",
        hermes: Some("pre_tool_call"),
    },
    Row {
        canonical: CanonicalEvent::ToolAfter,
        claude: &["PostToolUse", "PostToolUseFailure"],
        opencode: "tool.execute.after",
        hermes: Some("post_tool_call"),
    },
    Row {
        canonical: CanonicalEvent::TurnStop,
        claude: &["Stop"],
        opencode: "session.idle",
        hermes: Some("post_llm_call"),
    },
    Row {
        canonical: CanonicalEvent::SubagentStart,
        claude: &["SubagentStart"],
        opencode: "tool.execute.before.subagent",
        hermes: Some("subagent_start"),
    },
    Row {
        canonical: CanonicalEvent::SubagentEnd,
        claude: &["SubagentStop"],
        opencode: "tool.execute.after.subagent",
        hermes: Some("subagent_stop"),
    },
    Row { canonical: CanonicalEvent::Notice, claude: &["Notification"], opencode: "notification", hermes: None },
    Row {
        canonical: CanonicalEvent::CompactBefore,
        claude: &["PreCompact"],
        opencode: "experimental.session.compacting",
        hermes: None,
    },
];

/// Payload keys whose first string value is the tool name.
const TOOL_KEYS: &[&str] = &["tool_name", "tool", "name"];

impl CanonicalEvent {
    /// All canonical events, in table order.
    pub const ALL: [CanonicalEvent; 10] = [
        CanonicalEvent::SessionStart,
        CanonicalEvent::SessionEnd,
        CanonicalEvent::PromptSubmit,
        CanonicalEvent::ToolBefore,
        CanonicalEvent::ToolAfter,
        CanonicalEvent::TurnStop,
        CanonicalEvent::SubagentStart,
        CanonicalEvent::SubagentEnd,
        CanonicalEvent::Notice,
        CanonicalEvent::CompactBefore,
    ];

    /// The canonical spelling (`tool:before`), as used on the wire and in native files.
    pub fn as_str(self) -> &'static str {
        match self {
            CanonicalEvent::SessionStart => "session:start",
            CanonicalEvent::SessionEnd => "session:end",
            CanonicalEvent::PromptSubmit => "prompt:submit",
            CanonicalEvent::ToolBefore => "tool:before",
            CanonicalEvent::ToolAfter => "tool:after",
            CanonicalEvent::TurnStop => "turn:stop",
            CanonicalEvent::SubagentStart => "subagent:start",
            CanonicalEvent::SubagentEnd => "subagent:end",
            CanonicalEvent::Notice => "notice",
            CanonicalEvent::CompactBefore => "compact:before",
        }
    }

    /// Parses only the canonical spelling.
    pub fn from_canonical(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == name)
    }

    fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// Claude / Codex spelling (the first one for after-tool).
    pub fn claude_name(self) -> &'static str {
        self.row().claude[0]
    }

    /// opencode spelling.
    pub fn opencode_name(self) -> &'static str {
        self.row().opencode
    }

    /// Hermes spelling, where Hermes has the event.
    pub fn hermes_name(self) -> Option<&'static str> {
        self.row().hermes
    }

    /// Whether a deny on this event can stop the action (otherwise it is downgraded).
    pub fn blockable(self) -> bool {
        matches!(self, CanonicalEvent::PromptSubmit | CanonicalEvent::ToolBefore | CanonicalEvent::TurnStop)
    }

    /// Whether plain stdout of a clean run becomes context on this event.
    pub fn plain_stdout_is_context(self) -> bool {
        matches!(
            self,
            CanonicalEvent::SessionStart
                | CanonicalEvent::PromptSubmit
                | CanonicalEvent::SubagentStart
                | CanonicalEvent::CompactBefore
        )
    }

    /// Payload keys that give the matcher subject, first string wins; empty when the event
    /// has no subject (a matcher on it has no effect).
    pub fn subject_keys(self) -> &'static [&'static str] {
        match self {
            CanonicalEvent::SessionStart => &["source"],
            CanonicalEvent::SessionEnd => &["reason", "source"],
            CanonicalEvent::ToolBefore | CanonicalEvent::ToolAfter => TOOL_KEYS,
            CanonicalEvent::SubagentStart | CanonicalEvent::SubagentEnd => &["agent_type"],
            CanonicalEvent::PromptSubmit
            | CanonicalEvent::TurnStop
            | CanonicalEvent::Notice
            | CanonicalEvent::CompactBefore => &[],
        }
    }

    /// Whether a matcher can select anything on this event.
    pub fn has_subject(self) -> bool {
        !self.subject_keys().is_empty()
    }

    /// The matcher subject of a payload, when it has one.
    pub fn subject_of(self, payload: &serde_json::Map<String, serde_json::Value>) -> Option<&str> {
        self.subject_keys().iter().find_map(|k| payload.get(*k).and_then(|v| v.as_str()))
    }
}

/// What a dispatched event name means: the canonical event plus, for after-tool events,
/// which tool outcome it reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DispatchEvent {
    pub canonical: CanonicalEvent,
    pub result: ToolResult,
}

/// Resolves any spelling a host may dispatch: canonical, claude/codex, opencode or hermes.
pub fn resolve_dispatch_name(name: &str) -> Option<DispatchEvent> {
    let plain = |canonical| Some(DispatchEvent { canonical, result: ToolResult::Either });
    match name {
        "PostToolUse" => {
            return Some(DispatchEvent { canonical: CanonicalEvent::ToolAfter, result: ToolResult::Success })
        }
        "PostToolUseFailure" => {
            return Some(DispatchEvent { canonical: CanonicalEvent::ToolAfter, result: ToolResult::Failure })
        }
        _ => {}
    }
    if let Some(e) = CanonicalEvent::from_canonical(name) {
        return plain(e);
    }
    TABLE
        .iter()
        .find(|r| r.claude.contains(&name) || r.opencode == name || r.hermes == Some(name))
        .and_then(|r| plain(r.canonical))
}

/// Resolves a `hookEventName` from a hook's answer: any dialect's spelling counts.
pub fn resolve_any_name(name: &str) -> Option<CanonicalEvent> {
    resolve_dispatch_name(name).map(|d| d.canonical)
}

/// Every name a host may dispatch, for help texts and error messages.
pub fn all_dispatch_names() -> Vec<&'static str> {
    let mut v = Vec::new();
    for r in &TABLE {
        v.push(r.canonical.as_str());
        v.extend_from_slice(r.claude);
        v.push(r.opencode);
        v.extend(r.hermes);
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
            assert_eq!(resolve_any_name(r.opencode), Some(r.canonical));
            if let Some(h) = r.hermes {
                assert_eq!(resolve_any_name(h), Some(r.canonical));
            }
        }
        assert_eq!(resolve_any_name("Bogus"), None);
        assert_eq!(resolve_any_name("pretooluse"), None);
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
