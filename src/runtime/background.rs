//! Claude's `async` command hooks: the dispatch does not wait for them. When one finishes,
//! its contexts and messages wait for the next dispatch of the same session, which folds them
//! after its own (and an `asyncRewake` hook that exited 2 puts `rewake` on that outcome). A
//! host can also listen (`runtime.on('async', cb)`). Nothing is written to `hookrt listen`'s
//! stdout that a request did not ask for.

use crate::runtime::execute::Run;
pub use crate::vocab::answer::Rewake;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Sessions with undelivered results kept at most; beyond, the oldest knowledge is dropped.
const MAX_SESSIONS: usize = 1000;
/// Undelivered results kept per session at most.
const MAX_PER_SESSION: usize = 100;

/// A finished async run, as the listener receives it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finished {
    pub session_id: String,
    pub run: Run,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rewake: Option<Rewake>,
}

/// The host's callback for finished async runs.
#[derive(Clone)]
pub struct Listener(pub Arc<dyn Fn(&Finished) + Send + Sync>);

/// Finished async runs waiting for their session's next dispatch.
#[derive(Default)]
pub(crate) struct Background {
    pending: Mutex<HashMap<String, Vec<Finished>>>,
    count: AtomicUsize,
    listener: RwLock<Option<Listener>>,
}

impl Background {
    pub(crate) fn set_listener(&self, l: Option<Listener>) {
        match self.listener.write() {
            Ok(mut g) => *g = l,
            Err(p) => *p.into_inner() = l,
        }
    }

    /// Records a finished async run: keeps only what it tells the session (contexts,
    /// messages, a rewake), tells the listener, and queues it for the next dispatch.
    pub(crate) fn finished(&self, session_id: String, mut run: Run) {
        run.is_async = true;
        let o = &mut run.outcome;
        let rewake = (run.hook.family.async_rewake && o.exit_code == Some(Some(2)))
            .then(|| Rewake { reason: if o.stderr.is_empty() { o.stdout.clone() } else { o.stderr.clone() } });
        // What happened is reported; only contexts and messages reach the next outcome.
        o.decision = None;
        o.reason = None;
        o.stop = false;
        o.stop_reason = None;
        o.update_input = None;
        o.fields = Default::default();
        o.plain_stdout = None;
        let f = Finished { session_id, run, rewake };
        let listener = self.listener.read().ok().and_then(|g| g.clone());
        if let Some(Listener(cb)) = listener {
            cb(&f);
        }
        let mut m = match self.pending.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        if m.len() >= MAX_SESSIONS && !m.contains_key(&f.session_id) {
            self.count.fetch_sub(m.values().map(Vec::len).sum(), Ordering::Relaxed);
            m.clear();
        }
        let list = m.entry(f.session_id.clone()).or_default();
        if list.len() < MAX_PER_SESSION {
            list.push(f);
            self.count.fetch_add(1, Ordering::Relaxed);
        } else {
            tracing::warn!("too many undelivered async hook results for one session; one dropped");
        }
    }

    /// Whether any result waits (the no-match shortcuts must then take the full path).
    pub(crate) fn has_pending(&self) -> bool {
        self.count.load(Ordering::Relaxed) > 0
    }

    /// Takes the results waiting for a session.
    pub(crate) fn take(&self, session_id: &str) -> Vec<Finished> {
        if !self.has_pending() {
            return Vec::new();
        }
        let mut m = match self.pending.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        let v = m.remove(session_id).unwrap_or_default();
        self.count.fetch_sub(v.len(), Ordering::Relaxed);
        v
    }
}
