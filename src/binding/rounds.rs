//! Host rounds between their two crossings: kept here by number while the wrapper calls the
//! host's functions, and the wrapper's answers read back (`runtime/host_round.rs`).

use crate::handler::callback::Answer;
use crate::runtime::host_round::{HostRound, RoundCall};
use rustc_hash::FxHashMap;
use std::sync::Mutex;

/// The rounds the wrapper is running, by number.
#[derive(Default)]
pub(super) struct Rounds {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    open: FxHashMap<u64, HostRound>,
}

impl Rounds {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps a round and writes what the wrapper reads of it: `#<number>`, then per call a
    /// line `<function id> <timeout ms>` and a line of its input JSON (compact JSON holds no
    /// newline); when the host asked for progress reports, the first line ends in ` p` and a
    /// line of the call's start report follows.
    pub(super) fn put(&self, round: HostRound) -> String {
        let size = |c: &RoundCall| c.input_json.len() + c.progress.as_ref().map_or(0, |p| p.len() + 3) + 24;
        let mut text = String::with_capacity(64 + round.calls.iter().map(size).sum::<usize>());
        let mut inner = self.lock();
        inner.next += 1;
        let n = inner.next;
        // (`itoa`, not `write!`: the formatting machinery cost more than the rest of the text.)
        let mut num = itoa::Buffer::new();
        text.push('#');
        text.push_str(num.format(n));
        for c in &round.calls {
            // Numbers a JS number holds exactly; a longer wait is as good as none.
            let ms = c.timeout.as_millis().min(1 << 53) as u64;
            text.push('\n');
            text.push_str(num.format(c.id));
            text.push(' ');
            text.push_str(num.format(ms));
            if c.progress.is_some() {
                text.push_str(" p");
            }
            text.push('\n');
            text.push_str(&c.input_json);
            if let Some(p) = &c.progress {
                text.push('\n');
                text.push_str(p);
            }
        }
        inner.open.insert(n, round);
        text
    }

    /// Takes a round back: to finish it, or because the host gave up on it.
    pub(super) fn take(&self, n: u64) -> Option<HostRound> {
        self.lock().open.remove(&n)
    }

    /// Forgets every round (the runtime closed).
    pub(super) fn clear(&self) {
        self.lock().open.clear();
    }
}

/// The wrapper's answers, a line per call in order: `o` and the answer's JSON, `e` and the
/// thrown message as a JSON string, or `t` when its timeout passed first.
pub(super) fn answers(text: &str) -> impl Iterator<Item = Answer> + '_ {
    text.split('\n').map(|line| match line.split_at_checked(1) {
        Some(("o", json)) => Answer::Json(json.to_owned()),
        Some(("e", msg)) => Answer::Threw(serde_json::from_str(msg).unwrap_or_else(|_| msg.to_owned())),
        Some(("t", _)) => Answer::TimedOut,
        _ => Answer::Threw(format!("hookrt: an unreadable answer {line:?}")),
    })
}
