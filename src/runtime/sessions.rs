//! What a harness repeats from earlier events of a session: Claude Code's `prompt_id` on every
//! event after `UserPromptSubmit` (made up here when the host sends none) and the turn's prompt,
//! which Gemini's `AfterAgent` carries.

use crate::harness::SessionFacts;
use crate::vocab::CanonicalEvent;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Mutex;

/// Sessions remembered at once; beyond this the oldest knowledge is dropped wholesale.
const MAX_SESSIONS: usize = 10_000;

#[derive(Debug, Default)]
pub(crate) struct Sessions {
    facts: Mutex<HashMap<String, SessionFacts>>,
    last: Mutex<Option<String>>,
}

impl Sessions {
    /// Learns from a dispatch and returns what its hooks' stdin may repeat. A prompt that
    /// follows a blocked Stop (`continuing`) carries on the turn: the turn's prompt stays, as
    /// Gemini's `AfterAgent` reports it.
    pub(crate) fn observe(
        &self,
        canonical: CanonicalEvent,
        payload: &Map<String, Value>,
        continuing: bool,
    ) -> SessionFacts {
        let text = |keys: &[&str]| keys.iter().find_map(|k| payload.get(*k).and_then(Value::as_str)).map(str::to_owned);
        let id = crate::harness::session_of(payload).to_owned();
        let mut facts = match self.facts.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        match canonical {
            CanonicalEvent::SessionStart => {
                facts.remove(&id);
            }
            CanonicalEvent::PromptSubmit if continuing && facts.contains_key(&id) => {}
            CanonicalEvent::PromptSubmit => {
                if facts.len() >= MAX_SESSIONS {
                    facts.clear();
                }
                let prompt_id = text(&["prompt_id"]).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
                facts.insert(
                    id.clone(),
                    SessionFacts {
                        prompt: text(&["prompt", "user_message"]),
                        prompt_id: Some(prompt_id),
                        last_session: None,
                    },
                );
            }
            _ => {}
        }
        let mut known = facts.get(&id).cloned().unwrap_or_default();
        drop(facts);
        let mut last = match self.last.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        if !id.is_empty() {
            *last = Some(id);
        }
        known.last_session = last.clone();
        known
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn a_prompt_is_remembered_for_its_session_until_it_starts_again() {
        let s = Sessions::default();
        let see = |e, v: Value| s.observe(e, &obj(v), false);
        assert_eq!(see(CanonicalEvent::ToolBefore, json!({"session_id": "a"})).prompt, None);
        let f = see(CanonicalEvent::PromptSubmit, json!({"session_id": "a", "prompt": "hi", "prompt_id": "p1"}));
        assert_eq!((f.prompt.as_deref(), f.prompt_id.as_deref()), (Some("hi"), Some("p1")));
        assert_eq!(see(CanonicalEvent::TurnStop, json!({"session_id": "a"})).prompt_id.as_deref(), Some("p1"));
        let next =
            s.observe(CanonicalEvent::PromptSubmit, &obj(json!({"session_id": "a", "prompt": "keep going"})), true);
        assert_eq!(next.prompt.as_deref(), Some("hi"));
        assert_eq!(see(CanonicalEvent::TurnStop, json!({"session_id": "b"})).prompt_id, None);
        let made = see(CanonicalEvent::PromptSubmit, json!({"session_id": "b", "prompt": "x"}));
        assert_eq!(made.prompt_id.map(|p| p.len()), Some(36));
        assert_eq!(see(CanonicalEvent::SessionStart, json!({"session_id": "a"})).prompt_id, None);
        assert_eq!(see(CanonicalEvent::ToolAfter, json!({})).last_session.as_deref(), Some("a"));
    }
}
