//! A loop guard for hosts that dispatch Stop again and again in one session: the payload gets
//! `stop_hook_active: true` when the previous Stop of the session was blocked, and after a
//! number of consecutive blocks further ones are downgraded, so an always-blocking Stop hook
//! cannot keep an agent running forever.

use std::collections::HashMap;
use std::sync::Mutex;

/// Sessions remembered at once; beyond this the oldest knowledge is dropped wholesale.
const MAX_SESSIONS: usize = 10_000;

/// Consecutive blocked Stops per session.
#[derive(Debug)]
pub struct StopGuard {
    limit: u32,
    blocks: Mutex<HashMap<String, u32>>,
}

impl StopGuard {
    pub fn new(limit: u32) -> Self {
        StopGuard { limit, blocks: Mutex::new(HashMap::new()) }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, u32>) -> T) -> T {
        match self.blocks.lock() {
            Ok(mut g) => f(&mut g),
            Err(p) => f(&mut p.into_inner()),
        }
    }

    /// Whether the previous Stop of this session was blocked.
    pub fn was_blocked(&self, session: &str) -> bool {
        self.with(|m| m.get(session).is_some_and(|n| *n > 0))
    }

    /// Records a Stop outcome; `true` when this block is over the limit and must be downgraded
    /// (the count then starts again).
    pub fn record(&self, session: &str, blocked: bool) -> bool {
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
