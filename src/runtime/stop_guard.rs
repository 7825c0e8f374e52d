//! A loop guard for hosts that dispatch Stop again and again in one session: the payload gets
//! `stop_hook_active: true` when the previous Stop of the session was blocked (`false`
//! otherwise, as Claude sends it), and after a number of consecutive blocks further ones are
//! downgraded, so an always-blocking Stop hook cannot keep an agent running forever.
//! SubagentStop gets the same flag, per subagent (`agent_id`).

use crate::contract::Outcome;
use crate::vocab::{CanonicalEvent, Decision};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Mutex;

/// What [`StopGuard::prepare`] learnt about a dispatch, for [`StopGuard::settle`].
#[derive(Debug)]
pub(crate) struct StopTicket {
    /// The guard's key for this session (and subagent); `None`: not a stop event.
    key: Option<String>,
    /// Over-limit blocks are downgraded (Stop only; SubagentStop is never blocking here).
    downgrade: bool,
}

/// Sessions remembered at once; beyond this the oldest knowledge is dropped wholesale.
const MAX_SESSIONS: usize = 10_000;

/// Consecutive blocked Stops per session.
#[derive(Debug)]
pub(crate) struct StopGuard {
    limit: u32,
    blocks: Mutex<HashMap<String, u32>>,
}

impl StopGuard {
    pub(crate) fn new(limit: u32) -> Self {
        StopGuard { limit, blocks: Mutex::new(HashMap::new()) }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, u32>) -> T) -> T {
        match self.blocks.lock() {
            Ok(mut g) => f(&mut g),
            Err(p) => f(&mut p.into_inner()),
        }
    }

    /// Before a dispatch: fills `stop_hook_active` on Stop and SubagentStop payloads.
    pub(crate) fn prepare(&self, canonical: CanonicalEvent, payload: &mut Map<String, Value>) -> StopTicket {
        let str_of = |k: &str| payload.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let key = match canonical {
            CanonicalEvent::TurnStop => crate::harness::session_of(payload).to_owned(),
            CanonicalEvent::SubagentEnd => {
                format!("{}\u{0}subagent\u{0}{}", crate::harness::session_of(payload), str_of("agent_id"))
            }
            _ => return StopTicket { key: None, downgrade: false },
        };
        if !matches!(payload.get("stop_hook_active"), Some(Value::Bool(_))) {
            if payload.contains_key("stop_hook_active") {
                tracing::warn!("stop_hook_active in the payload is not a boolean; replaced");
            }
            payload.insert("stop_hook_active".into(), Value::Bool(self.was_blocked(&key)));
        } else if self.was_blocked(&key) {
            payload.insert("stop_hook_active".into(), Value::Bool(true));
        }
        StopTicket { key: Some(key), downgrade: canonical == CanonicalEvent::TurnStop }
    }

    /// After a dispatch: records whether it blocked; downgrades a block over the limit.
    pub(crate) fn settle(&self, ticket: &StopTicket, outcome: Option<&mut Outcome>) {
        let Some(key) = &ticket.key else { return };
        let Some(outcome) = outcome else {
            self.record(key, false);
            return;
        };
        let blocked = outcome.decision == Decision::Deny || outcome.raw_decision == Some(Decision::Deny);
        if self.record(key, blocked) && ticket.downgrade {
            tracing::warn!(session = %key, "Stop blocked more than {} times in a row; letting the turn stop", self.limit);
            outcome.decision = Decision::None;
            outcome.raw_decision = Some(Decision::Deny);
            outcome.raw_reason = outcome.reason.take();
            outcome.downgraded = true;
        }
    }

    /// How many Stops of this ticket's session (or subagent) in a row were blocked so far.
    pub(crate) fn count(&self, ticket: &StopTicket) -> u32 {
        let Some(key) = &ticket.key else { return 0 };
        self.with(|m| m.get(key).copied().unwrap_or(0))
    }

    /// Whether the previous Stop of this session was blocked.
    pub(crate) fn was_blocked(&self, session: &str) -> bool {
        self.with(|m| m.get(session).is_some_and(|n| *n > 0))
    }

    /// Records a Stop outcome; `true` when this block is over the limit and must be downgraded
    /// (the count then starts again).
    pub(crate) fn record(&self, session: &str, blocked: bool) -> bool {
        self.with(|m| {
            if !blocked {
                m.remove(session);
                return false;
            }
            if m.len() >= MAX_SESSIONS && !m.contains_key(session) {
                m.clear();
            }
            let n = m.entry(session.to_owned()).or_insert(0);
            *n += 1;
            if *n > self.limit {
                m.remove(session);
                true
            } else {
                false
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_over_the_limit_are_downgraded_then_counting_restarts() {
        let g = StopGuard::new(2);
        assert!(!g.was_blocked("s"));
        assert!(!g.record("s", true));
        assert!(g.was_blocked("s"));
        assert!(!g.record("s", true));
        assert!(g.record("s", true));
        assert!(!g.was_blocked("s"));
        assert!(!g.record("s", true));
        assert!(!g.record("s", false));
        assert!(!g.was_blocked("s"));
        assert!(!g.was_blocked("other"));
    }
}
