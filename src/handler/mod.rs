//! Handlers: how each kind of hook runs (docs/configuration.md "Handlers"). Every kind
//! produces a [`Raw`] result decoded the same way, or a [`Failure`].

pub(crate) mod callback;
pub(crate) mod failure;
pub(crate) mod http;
pub(crate) mod mcp;
pub(crate) mod oracle;
pub(crate) mod outbound;
pub(crate) mod process;
pub(crate) mod proxy;
pub(crate) mod shell;
pub(crate) mod webhook;
pub(crate) mod worker;

use crate::config::{HandlerSpec, Hook};
use crate::vocab::{LlmOptions, Raw, Shell};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub(crate) use failure::Failure;

/// What the runtime's options say about how handlers run.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Host variables removed from hook environments (`stripSecrets`).
    pub removed_env: Vec<String>,
    /// Bytes captured per output stream.
    pub output_cap: usize,
    /// Adopt and reap orphaned hook descendants.
    pub reap_orphans: bool,
    /// Only webhook URLs starting with one of these prefixes are called.
    pub webhook_allowlist: Option<Vec<String>>,
    /// Claude's `allowedHttpHookUrls`.
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// Claude's `httpHookAllowedEnvVars`.
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
    pub llm: LlmOptions,
    /// Subagent runner for proxy hooks without their own command.
    pub proxy_command: Option<String>,
}

/// Resources shared by every dispatch of one runtime (clones share them too).
#[derive(Debug, Clone)]
pub(crate) struct Resources {
    /// One permit per hook process running at once.
    pub process_slots: Arc<tokio::sync::Semaphore>,
    /// Built on first use: loading the TLS roots costs more than a whole no-match session.
    http: Arc<OnceLock<reqwest::Client>>,
    /// The host's MCP client for `mcp_tool` hooks (the JS API's `mcpCall`); none in `listen`
    /// and the CLI.
    pub mcp: Option<mcp::McpHost>,
    /// The host's functions for callback hooks (the JS API's `hooks`); none in `listen` and the
    /// CLI.
    pub callbacks: Option<callback::CallbackHost>,
    /// The runtime's persistent worker processes.
    pub workers: Arc<worker::Pool>,
    /// Where worker answers are read: the host's own event loop (the Node addon), or tokio.
    pub answer_loop: Option<worker::HostLoop>,
}

impl Resources {
    pub(crate) fn new(max_processes: usize) -> Self {
        Resources {
            process_slots: Arc::new(tokio::sync::Semaphore::new(max_processes)),
            http: Arc::new(OnceLock::new()),
            mcp: None,
            callbacks: None,
            workers: Arc::default(),
            answer_loop: None,
        }
    }

    /// The HTTP client for webhooks, oracles and outbound notifications.
    pub(crate) fn http(&self) -> &reqwest::Client {
        self.http.get_or_init(http::client)
    }
}

/// Everything one run needs besides the hook itself: what the dispatcher prepared for it
/// ([`RunParts`], read through this context) and the runtime's policy, resources and cancel
/// token it runs under.
pub(crate) struct RunCtx<'a> {
    pub policy: &'a Policy,
    pub shared: &'a Resources,
    pub cancel: &'a CancellationToken,
    pub run: RunParts,
}

impl std::ops::Deref for RunCtx<'_> {
    type Target = RunParts;

    fn deref(&self) -> &RunParts {
        &self.run
    }
}

/// The owned part of a [`RunCtx`], prepared by the dispatcher; it can move into a background
/// task (async hooks) and become a context there.
#[derive(Debug, Clone)]
pub(crate) struct RunParts {
    /// The JSON the hook reads (dialect-shaped), without any trailing newline.
    pub input_json: String,
    /// Exact stdin bytes for process kinds.
    pub stdin: Vec<u8>,
    pub cwd: PathBuf,
    pub timeout: Duration,
    /// The timeout as configured, in seconds: what a timeout's message says (written only then).
    pub timeout_secs: f64,
    /// Variables added to a process hook's environment (the harness's, `CLAUDE_ENV_FILE`, the
    /// hook's own).
    pub env: Vec<(String, String)>,
    /// Host variables the hook's harness keeps from it.
    pub env_remove: Vec<String>,
    /// The shell of a command string.
    pub shell: Shell,
    /// The command string as the harness passes it to the shell (after its substitutions).
    pub command: Option<String>,
    /// The environment a process starts from, when not this process's (`hookrt serve`).
    pub base_env: Option<BaseEnv>,
}

/// An environment hook processes start from instead of this process's.
pub type BaseEnv = Arc<[(String, String)]>;

impl RunParts {
    /// The timeout as messages write it (`0.4`, `30`).
    pub(crate) fn timeout_label(&self) -> String {
        crate::vocab::text::secs_label(self.timeout_secs)
    }

    /// The context of one run under a runtime's policy, shared resources and a cancel token.
    pub(crate) fn ctx<'a>(
        self,
        policy: &'a Policy,
        shared: &'a Resources,
        cancel: &'a CancellationToken,
    ) -> RunCtx<'a> {
        RunCtx { policy, shared, cancel, run: self }
    }
}

/// Runs one hook.
pub(crate) async fn run(hook: &Hook, ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    match &hook.handler {
        HandlerSpec::Shell { command, args, env } => shell::run(command, args.as_deref(), env, ctx).await,
        HandlerSpec::Webhook { url, headers } => webhook::run(url, headers, None, ctx).await,
        HandlerSpec::Http { url, headers, allowed_env_vars } => {
            webhook::run(url, headers, Some(allowed_env_vars), ctx).await
        }
        HandlerSpec::McpTool { server, tool, input } => mcp::run(server, tool, input, ctx).await,
        HandlerSpec::Worker { command, args, env, settings } => {
            let key = worker::KeyRef::of(command, args.as_deref(), env, ctx);
            ctx.shared.workers.request(hook, key, *settings, ctx).await
        }
        HandlerSpec::Oracle { prompt, model } => oracle::run(prompt, model.as_deref(), ctx).await,
        HandlerSpec::Proxy { prompt, command, env } => proxy::run(prompt, command.as_deref(), env, ctx).await,
        HandlerSpec::Callback { id, name } => callback::run(*id, name, ctx).await,
    }
}

/// Waits for `fut` unless the deadline passes or the host aborts first.
pub(crate) async fn bounded<T>(
    fut: impl std::future::Future<Output = T>,
    ctx: &RunCtx<'_>,
    on_timeout: impl FnOnce() -> Failure,
) -> Result<T, Failure> {
    tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => Err(Failure::Aborted),
        r = tokio::time::timeout(ctx.timeout, fut) => r.map_err(|_| on_timeout()),
    }
}

/// `$ARGUMENTS` → the JSON the hook would read on stdin.
pub(crate) fn render_prompt(prompt: &str, input_json: &str) -> String {
    prompt.replace("$ARGUMENTS", input_json)
}

/// Waits for a free hook-process slot (the runtime's concurrency limit), or the host's abort.
pub(crate) async fn slot<'a>(ctx: &'a RunCtx<'_>) -> Result<tokio::sync::SemaphorePermit<'a>, Failure> {
    tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => Err(Failure::Aborted),
        p = ctx.shared.process_slots.acquire() => p.map_err(|_| Failure::Aborted),
    }
}
