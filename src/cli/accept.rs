//! Accepting connections on `hookrt serve`'s doors (socket, HTTP): at most
//! [`MAX_CONNECTIONS`] served at once, and a back-off when accepting fails (descriptors
//! exhausted) instead of a loop that spins and floods the log.

use std::time::Duration;

/// Connections served at once (each holds at most one request); more wait to be accepted.
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// Waits after a failed accept (descriptors exhausted, ...), doubling up to a second, and
/// logs once per streak instead of once per attempt.
pub(crate) struct Backoff {
    wait: Duration,
    failures: u64,
}

impl Backoff {
    pub(crate) fn new() -> Self {
        Backoff { wait: Duration::ZERO, failures: 0 }
    }

    pub(crate) async fn failed(&mut self, door: &str, e: &std::io::Error) {
        if self.failures == 0 {
            tracing::warn!("hookrt serve: {door}: accept failed: {e}; backing off");
        }
        self.failures += 1;
        self.wait = (self.wait * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
        tokio::time::sleep(self.wait).await;
    }

    pub(crate) fn succeeded(&mut self, door: &str) {
        if self.failures > 0 {
            tracing::warn!("hookrt serve: {door}: accepting again after {} failed attempts", self.failures);
        }
        *self = Backoff::new();
    }
}
