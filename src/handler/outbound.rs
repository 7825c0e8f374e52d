//! Hermes outbound webhooks: notify-only deliveries, signed with HMAC-SHA256 of the raw body
//! (`X-Hermes-Signature-256: sha256=<hex>`), sent by one background worker from a bounded
//! queue with one retry. Enqueueing never waits, so a slow endpoint can neither delay nor
//! change a dispatch.

use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::sync::mpsc;

/// Deliveries waiting at most; more are dropped with a warning.
pub(crate) const QUEUE: usize = 256;
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
const RETRY_DELAY: Duration = Duration::from_millis(500);

/// One notification to send.
#[derive(Debug, Clone)]
pub(crate) struct Delivery {
    pub url: String,
    pub event: String,
    pub id: String,
    pub body: Vec<u8>,
    pub secret: Option<String>,
}

/// `sha256=<hex>` of the HMAC-SHA256 of `body` under `secret`.
pub(crate) fn signature(secret: &[u8], body: &[u8]) -> String {
    let mut mac = match <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(secret) {
        Ok(m) => m,
        Err(_) => return String::new(),
    };
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// A fresh delivery id (unique per process run).
pub(crate) fn delivery_id() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let seed = format!("{}:{}:{}", std::process::id(), nanos, N.fetch_add(1, Ordering::Relaxed));
    hex::encode(&Sha256::digest(seed.as_bytes())[..16])
}

/// The queue and its worker, started on first use.
#[derive(Default)]
pub(crate) struct Outbound {
    tx: OnceLock<mpsc::Sender<Delivery>>,
}

impl Outbound {
    /// Queues a delivery without waiting; drops it (with a warning) when the queue is full.
    pub(crate) fn enqueue(&self, http: &reqwest::Client, d: Delivery) {
        let tx = self.tx.get_or_init(|| {
            let (tx, rx) = mpsc::channel(QUEUE);
            tokio::spawn(worker(rx, http.clone()));
            tx
        });
        if let Err(e) = tx.try_send(d) {
            tracing::warn!("outbound webhook queue is full; delivery dropped: {}", e.into_inner().url);
        }
    }
}

impl Outbound {
    /// Queues the outbound webhooks subscribed to this event (never waits); each body carries
    /// the payload shaped as a hook of the target's file reads it. `cwd` is worked out only
    /// when a target wants the event.
    pub(crate) fn notify<'a>(
        &self,
        targets: impl Iterator<Item = &'a crate::config::OutboundTarget>,
        canonical: crate::vocab::CanonicalEvent,
        host: &serde_json::Map<String, serde_json::Value>,
        cwd: impl FnOnce() -> String,
        shared: &crate::handler::Resources,
    ) {
        use crate::harness::PayloadCtx;
        let mut targets = targets.peekable();
        if targets.peek().is_none() {
            return;
        }
        let stamp = crate::vocab::text::Stamp::default();
        let ts = stamp.iso();
        let cwd = cwd();
        let cwd = cwd.as_str();
        for t in targets {
            let Some((_, name)) = t.events.iter().find(|(c, _)| *c == canonical) else { continue };
            let session = Default::default();
            let pctx = PayloadCtx {
                host,
                canonical,
                spelling: name,
                cwd,
                model: None,
                turn_id: None,
                ts: &stamp,
                loop_count: 0,
                session: &session,
            };
            let id = delivery_id();
            let body = serde_json::json!({
                "event": name,
                "delivery_id": id,
                "timestamp": ts,
                "payload": crate::harness::of(t.dialect).input(&pctx),
            });
            let secret = t.secret_env.as_deref().and_then(|k| std::env::var(k).ok()).filter(|s| !s.is_empty());
            let d = Delivery {
                url: t.url.clone(),
                event: name.clone(),
                id,
                body: serde_json::to_vec(&body).unwrap_or_default(),
                secret,
            };
            self.enqueue(shared.http(), d);
        }
    }
}

async fn worker(mut rx: mpsc::Receiver<Delivery>, http: reqwest::Client) {
    while let Some(d) = rx.recv().await {
        for attempt in 0..2 {
            match send(&http, &d).await {
                Ok(()) => break,
                Err(e) => {
                    tracing::warn!("outbound webhook ({}): {e}", d.event);
                    if attempt == 0 {
                        tokio::time::sleep(RETRY_DELAY).await;
                    }
                }
            }
        }
    }
}

async fn send(http: &reqwest::Client, d: &Delivery) -> Result<(), crate::handler::Failure> {
    use crate::handler::failure::Endpoint;
    let who = || Endpoint::Webhook(d.url.clone());
    let mut req = http
        .post(&d.url)
        .timeout(ATTEMPT_TIMEOUT)
        .header("content-type", "application/json")
        .header("x-hermes-event", &d.event)
        .header("x-hermes-delivery", &d.id)
        .body(d.body.clone());
    if let Some(secret) = &d.secret {
        req = req.header("x-hermes-signature-256", signature(secret.as_bytes(), &d.body));
    }
    let resp = req
        .send()
        .await
        .map_err(|e| crate::handler::Failure::HttpFailed { who: who(), cause: crate::handler::http::cause(&e) })?;
    if resp.status().is_success() {
        Ok(())
    } else {
        Err(crate::handler::Failure::HttpStatus { who: who(), status: resp.status().as_u16(), body: String::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4231_case_2() {
        // HMAC-SHA256, key "Jefe", data "what do ya want for nothing?"
        assert_eq!(
            signature(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_ne!(delivery_id(), delivery_id());
    }
}
