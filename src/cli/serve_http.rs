//! `hookrt serve`'s loopback HTTP endpoint for Claude Code's `type: "http"` hooks: `POST
//! /hook/claude` with the hook input as the body and `Authorization: Bearer <token>`; the
//! answer is the body Claude reads (the JSON a command hook would print). Bound to 127.0.0.1
//! only; a wrong or missing token is a 401 and runs nothing.

use crate::cli::warm::{answer_call, Cache, Call};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

const MAX_BODY: usize = 64 << 20;

/// Accepts connections until shutdown.
pub(crate) async fn listen(
    listener: tokio::net::TcpListener,
    token: String,
    cache: Arc<Cache>,
    shutdown: CancellationToken,
) {
    let token = Arc::new(token);
    loop {
        let conn = tokio::select! {
            _ = shutdown.cancelled() => return,
            c = listener.accept() => c,
        };
        let Ok((stream, peer)) = conn else { continue };
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
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
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
    let Some(harness) = req.uri().path().strip_prefix("/hook/").map(str::to_owned) else {
        return reply(StatusCode::NOT_FOUND, String::new());
    };
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
    let call = Call { harness: &harness, event: None, include_own: false, budget: 590.0 };
    let r = answer_call(&shared, call, &body, (&env, None), cache, shutdown).await;
    if !r.stderr.is_empty() {
        tracing::warn!("http hook call: {}", r.stderr.trim_end());
    }
    reply(StatusCode::OK, r.stdout)
}
