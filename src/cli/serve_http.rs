//! `hookrt serve`'s loopback HTTP endpoint for Claude Code's `type: "http"` hooks: `POST
//! /hook/claude` with the hook input as the body and `Authorization: Bearer <token>`; the
//! answer is the body Claude reads (the JSON a command hook would print). Bound to 127.0.0.1
//! only; a wrong or missing token is a 401 and runs nothing. Its hooks start from the server's
//! environment without anything named like a secret (an http hook call carries no environment).
//!
//! `GET /hookrt/whoami?nonce=<hex>` answers the HMAC-SHA256 of the nonce under the token, so
//! `hookrt doctor` can tell hookrt serve from another program holding the port without ever
//! sending the token. Connections are bounded, and a client that does not send its headers in
//! time is dropped.

use crate::cli::accept::{Backoff, MAX_CONNECTIONS};
use crate::cli::warm::{answer_call, Cache, Call};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

const MAX_BODY: usize = 16 << 20;
/// How long a client may take to send its request headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Accepts connections until shutdown.
pub(crate) async fn listen(
    listener: tokio::net::TcpListener,
    token: String,
    cache: Arc<Cache>,
    shutdown: CancellationToken,
) {
    let token = Arc::new(token);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut backoff = Backoff::new();
    loop {
        let permit = tokio::select! {
            _ = shutdown.cancelled() => return,
            p = slots.clone().acquire_owned() => p,
        };
        let Ok(permit) = permit else { return };
        let conn = tokio::select! {
            _ = shutdown.cancelled() => return,
            c = listener.accept() => c,
        };
        let (stream, peer) = match conn {
            Ok(c) => {
                backoff.succeeded("http");
                c
            }
            Err(e) => {
                backoff.failed("http", &e).await;
                continue;
            }
        };
        if !peer.ip().is_loopback() {
            continue;
        }
        let (token, cache, shutdown) = (token.clone(), cache.clone(), shutdown.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let (token, cache, shutdown) = (token.clone(), cache.clone(), shutdown.clone());
                async move { Ok::<_, std::convert::Infallible>(handle(req, &token, &cache, &shutdown).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(io, service)
                .await;
            drop(permit);
        });
    }
}

fn reply(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    r
}

/// One hook call: checked, answered on the warm runtime of the input's `cwd`.
async fn handle(
    req: Request<Incoming>,
    token: &str,
    cache: &Cache,
    shutdown: &CancellationToken,
) -> Response<Full<Bytes>> {
    if req.uri().path() == "/hookrt/whoami" {
        let nonce = req.uri().query().and_then(|q| q.strip_prefix("nonce=")).unwrap_or("");
        return reply(StatusCode::OK, crate::inside::http::proof(token, nonce));
    }
    // Only Claude Code has http hooks: the one door is `/hook/claude`.
    if req.uri().path() != "/hook/claude" {
        return reply(StatusCode::NOT_FOUND, String::new());
    }
    let presented = req.headers().get(hyper::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("");
    let ok = presented.strip_prefix("Bearer ").is_some_and(|t| crate::inside::http::token_matches(t, token));
    if req.method() != hyper::Method::POST || !ok {
        return reply(StatusCode::UNAUTHORIZED, String::new());
    }
    let Ok(body) = Limited::new(req.into_body(), MAX_BODY).collect().await else {
        return reply(StatusCode::PAYLOAD_TOO_LARGE, String::new());
    };
    let body = body.to_bytes();
    let env: BTreeMap<String, String> = std::env::vars().collect();
    let shared = crate::cli::args::Shared::default();
    let call = Call { harness: "claude", event: None, include_own: false, budget: 590.0 };
    let base = crate::cli::warm::server_env_without_secrets();
    let r = answer_call(&shared, call, &body, (&env, None, base), cache, shutdown).await;
    if !r.stderr.is_empty() {
        tracing::warn!("http hook call: {}", r.stderr.trim_end());
    }
    reply(StatusCode::OK, r.stdout)
}
