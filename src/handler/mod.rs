//! Handlers: how each kind of hook runs (SPEC §6). Every kind produces a [`Raw`] result
//! decoded the same way, or a [`Failure`].

pub mod mcp;
pub mod oracle;
pub mod outbound;
pub mod process;
pub mod proxy;
pub mod shell;
pub mod webhook;
pub mod worker;

use crate::config::{HandlerSpec, Hook};
use crate::decode::Raw;
use crate::options::{RunPolicy, Shared};
use std::path::PathBuf;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Why a run produced no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Could not run: spawn failure, timeout, HTTP error... (subject to `onError`).
    Infra(String),
    /// The host aborted the dispatch.
    Aborted,
}

/// Everything one run needs besides the hook itself.
pub struct RunCtx<'a> {
    pub policy: &'a RunPolicy,
    pub shared: &'a Shared,
    /// The JSON the hook reads (dialect-shaped), without any trailing newline.
    pub input_json: String,
    /// Exact stdin bytes for process kinds.
    pub stdin: Vec<u8>,
    pub cwd: PathBuf,
    /// `CLAUDE_PROJECT_DIR` for the hook environment.
    pub project_dir: String,
    pub timeout: Duration,
    pub timeout_label: String,
    pub cancel: &'a CancellationToken,
    /// Variables added to a process hook's environment (`CLAUDE_ENV_FILE`, plugin roots).
    pub env: Vec<(String, String)>,
}

/// The owned part of a [`RunCtx`], prepared by the dispatcher; it can move into a background
/// task (async hooks) and become a context there.
#[derive(Debug, Clone)]
pub struct RunParts {
    pub input_json: String,
    pub stdin: Vec<u8>,
    pub cwd: PathBuf,
    pub project_dir: String,
    pub timeout: Duration,
    pub timeout_label: String,
    pub env: Vec<(String, String)>,
}

impl RunParts {
    /// The context of one run under a runtime's policy, shared resources and a cancel token.
    pub fn ctx<'a>(self, policy: &'a RunPolicy, shared: &'a Shared, cancel: &'a CancellationToken) -> RunCtx<'a> {
        RunCtx {
            policy,
            shared,
            input_json: self.input_json,
            stdin: self.stdin,
            cwd: self.cwd,
            project_dir: self.project_dir,
            timeout: self.timeout,
            timeout_label: self.timeout_label,
            cancel,
            env: self.env,
        }
    }
}

/// Writes a timeout in seconds as the shortest decimal (`0.4`, `1`, `2.5`).
pub fn secs_label(t: f64) -> String {
    format!("{t}")
}

/// Runs one hook.
pub async fn run(hook: &Hook, ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    match &hook.handler {
        HandlerSpec::Shell { command, args, env } => shell::run(command, args.as_deref(), env, ctx).await,
        HandlerSpec::Webhook { url, headers } => webhook::run(url, headers, None, ctx).await,
        HandlerSpec::Http { url, headers, allowed_env_vars } => {
            webhook::run(url, headers, Some(allowed_env_vars), ctx).await
        }
        HandlerSpec::McpTool { server, tool, input } => mcp::run(server, tool, input, ctx).await,
        HandlerSpec::Worker { command, args, env, settings } => {
            let key = worker::WorkerKey::of(command, args.as_deref(), env, ctx);
            ctx.shared.workers.request(hook, key, *settings, ctx).await
        }
        HandlerSpec::Oracle { prompt, model } => oracle::run(prompt, model.as_deref(), ctx).await,
        HandlerSpec::Proxy { prompt, command, env } => proxy::run(prompt, command.as_deref(), env, ctx).await,
    }
}

/// Waits for `fut` unless the deadline passes or the host aborts first.
pub async fn bounded<T>(
    fut: impl std::future::Future<Output = T>,
    ctx: &RunCtx<'_>,
    on_timeout: impl FnOnce() -> String,
) -> Result<T, Failure> {
    tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => Err(Failure::Aborted),
        r = tokio::time::timeout(ctx.timeout, fut) => r.map_err(|_| Failure::Infra(on_timeout())),
    }
}

/// `$ARGUMENTS` → the JSON the hook would read on stdin.
pub fn render_prompt(prompt: &str, input_json: &str) -> String {
    prompt.replace("$ARGUMENTS", input_json)
}

/// Waits for a free hook-process slot (the runtime's concurrency limit), or the host's abort.
pub async fn slot<'a>(ctx: &'a RunCtx<'_>) -> Result<tokio::sync::SemaphorePermit<'a>, Failure> {
    tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => Err(Failure::Aborted),
        p = ctx.shared.process_slots.acquire() => p.map_err(|_| Failure::Aborted),
    }
}

/// Reads an HTTP body up to `cap` bytes; returns the text and whether it was cut.
pub async fn read_body(mut resp: reqwest::Response, cap: usize) -> Result<(String, bool), reqwest::Error> {
    let mut kept: Vec<u8> = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        let room = cap.saturating_sub(kept.len());
        if chunk.len() > room {
            kept.extend_from_slice(&chunk[..room]);
            return Ok((String::from_utf8_lossy(&kept).into_owned(), true));
        }
        kept.extend_from_slice(&chunk);
    }
    Ok((String::from_utf8_lossy(&kept).into_owned(), false))
}

/// The first `n` characters of a text, for error messages.
pub fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A plain cause for a failed HTTP request: `connection refused`, `connection reset`,
/// `too many redirects`, `dns error: ...`, else the innermost error text.
pub fn http_cause(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    if e.is_redirect() {
        return "too many redirects".into();
    }
    let mut src: Option<&(dyn std::error::Error + 'static)> = e.source();
    let mut innermost = e.to_string();
    while let Some(s) = src {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => return "connection refused".into(),
                std::io::ErrorKind::ConnectionReset => return "connection reset".into(),
                std::io::ErrorKind::ConnectionAborted => return "connection aborted".into(),
                _ => {}
            }
        }
        let text = s.to_string();
        if text.starts_with("dns error") {
            return text;
        }
        innermost = text;
        src = s.source();
    }
    let lower = innermost.to_ascii_lowercase();
    if lower.contains("connection refused") {
        "connection refused".into()
    } else if lower.contains("connection reset") {
        "connection reset".into()
    } else {
        innermost
    }
}
