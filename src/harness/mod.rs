//! The harnesses whose hook files hookrt reads beside Claude Code's family: Gemini CLI, Cursor,
//! GitHub Copilot CLI and Windsurf (Cascade). Each module says how that harness spells its
//! events, what its hooks read on stdin and how their answers are read; their files are parsed
//! in `config/<harness>.rs`.

pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod tools;
pub mod windsurf;

use crate::dialect::Dialect;
use crate::event::{CanonicalEvent, ToolResult};
use tools::ToolClass;

/// What one event name of a harness means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSpec {
    pub name: &'static str,
    pub canonical: CanonicalEvent,
    pub result: ToolResult,
    /// Hooks of this event run only for tools of this class (`beforeShellExecution`).
    pub class: Option<ToolClass>,
    /// Whether the event takes a matcher in this harness.
    pub matcher: bool,
}

const fn ev(name: &'static str, canonical: CanonicalEvent) -> EventSpec {
    EventSpec { name, canonical, result: ToolResult::Either, class: None, matcher: false }
}

const fn tool(name: &'static str, canonical: CanonicalEvent, result: ToolResult) -> EventSpec {
    EventSpec { name, canonical, result, class: None, matcher: true }
}

const fn class(name: &'static str, canonical: CanonicalEvent, class: ToolClass) -> EventSpec {
    EventSpec { name, canonical, result: ToolResult::Either, class: Some(class), matcher: false }
}

/// A harness's event table, or `None` for the dialects described in `event.rs`.
pub fn events(dialect: Dialect) -> Option<&'static [EventSpec]> {
    match dialect {
        Dialect::Gemini => Some(gemini::EVENTS),
        Dialect::Cursor => Some(cursor::EVENTS),
        Dialect::Copilot => Some(copilot::EVENTS),
        Dialect::Windsurf => Some(windsurf::EVENTS),
        _ => None,
    }
}

/// The harnesses with an event table.
pub const HARNESSES: [Dialect; 4] = [Dialect::Gemini, Dialect::Cursor, Dialect::Copilot, Dialect::Windsurf];

/// Resolves a harness's event spelling; one spelling means the same in every harness.
pub fn resolve_event(name: &str) -> Option<EventSpec> {
    HARNESSES.iter().filter_map(|d| events(*d)).flatten().find(|e| e.name == name).copied()
}

/// Every harness spelling, each once.
pub fn event_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for e in HARNESSES.iter().filter_map(|d| events(*d)).flatten() {
        if !v.contains(&e.name) {
            v.push(e.name);
        }
    }
    v
}

/// The name `dialect` gives a canonical event (and after-tool outcome); class events are not
/// chosen (they stand for a matcher, see `convert`).
pub fn name_for(dialect: Dialect, canonical: CanonicalEvent, result: ToolResult) -> Option<&'static str> {
    events(dialect)?
        .iter()
        .find(|e| e.canonical == canonical && e.result == result && e.class.is_none())
        .map(|e| e.name)
}

/// What the harnesses decide once their runs are in: Gemini's `tool_input` merges into the
/// arguments; a Cursor `followup_message` beyond the hook's `loop_limit` continues nothing.
pub fn settle_runs(
    runs: &mut [crate::execute::Run],
    payload: &serde_json::Map<String, serde_json::Value>,
    loop_count: u32,
) {
    for r in runs.iter_mut() {
        match r.hook.dialect {
            Dialect::Gemini => {
                if let Some(u) = r.outcome.update_input.take() {
                    r.outcome.update_input = Some(gemini::merge_input(payload.get("tool_input"), &u));
                }
            }
            Dialect::Cursor
                if matches!(r.hook.canonical, CanonicalEvent::TurnStop | CanonicalEvent::SubagentEnd)
                    && r.outcome.decision == Some(crate::decode::Decision::Deny)
                    && r.hook.harness.loop_limit.is_some_and(|n| loop_count >= n) =>
            {
                tracing::warn!(hook = %r.hook.id, "followup_message after {loop_count} follow-ups (loop_limit); the agent stops");
                r.outcome.decision = None;
                r.outcome.reason = None;
            }
            _ => {}
        }
    }
}

/// Sets the decision from an `allow` / `deny` / `ask` word at `key` (the harnesses spell their
/// decision fields differently but use the same three words); other values change nothing.
pub fn read_decision(obj: &serde_json::Map<String, serde_json::Value>, key: &str, out: &mut crate::decode::RunOutcome) {
    use crate::decode::Decision;
    match obj.get(key).and_then(serde_json::Value::as_str) {
        Some("allow") => out.decision = Some(Decision::Allow),
        Some("deny") => out.decision = Some(Decision::Deny),
        Some("ask") => out.decision = Some(Decision::Ask),
        _ => {}
    }
}

/// Reads a harness's own answer fields, after Claude's common ones.
pub fn apply_answer(
    dialect: Dialect,
    obj: &serde_json::Map<String, serde_json::Value>,
    event: CanonicalEvent,
    out: &mut crate::decode::RunOutcome,
) {
    match dialect {
        Dialect::Gemini => gemini::apply_answer(obj, out),
        Dialect::Cursor => cursor::apply_answer(obj, event, out),
        Dialect::Copilot => copilot::apply_answer(obj, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::resolve_dispatch_name;

    #[test]
    fn a_spelling_means_the_same_in_every_harness_and_in_dispatch() {
        for d in HARNESSES {
            for e in events(d).unwrap_or_default() {
                let r = resolve_dispatch_name(e.name).unwrap_or_else(|| panic!("{} does not resolve", e.name));
                assert_eq!((r.canonical, r.result), (e.canonical, e.result), "{} in {d:?}", e.name);
                assert_eq!(resolve_event(e.name).map(|x| x.class), Some(e.class), "{}", e.name);
            }
        }
    }
}
