//! Why a run produced no answer. Each variant's text is the message hosts see in
//! `runs[i].error` and `hook failed: …` (docs/events.md "Failures"); history and outcomes read
//! the variant (a timeout is [`Failure::is_timeout`]), never the words.

use std::path::PathBuf;
use std::sync::Arc;

/// Which HTTP caller failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// A webhook or `http` hook, by URL.
    Webhook(String),
    /// The OpenAI-compatible endpoint of a `prompt` hook.
    Oracle,
}

/// A handler that cannot run where nothing provides what it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unconfigured {
    #[error("oracle handler: no LLM endpoint configured (set llm.baseUrl and llm.model)")]
    Llm,
    #[error("proxy handler: no subagent runner configured (set proxy.command or a per-hook command)")]
    Runner,
    #[error("mcp_tool hooks need the host's mcpCall callback (hookrt listen and the CLI have none)")]
    McpHost,
}

/// An oracle's answer that cannot be read; the start of the answer is the data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OracleAnswer {
    #[error("oracle endpoint answered an unexpected response shape")]
    Shape,
    #[error("oracle answer is not valid JSON: {0}")]
    NotJson(String),
    #[error("oracle answer is not a JSON object: {0}")]
    NotObject(String),
}

/// Why a run produced no answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Failure {
    /// The host aborted the dispatch (or the runtime closed).
    #[error("hook aborted by the host")]
    Aborted,
    /// The hook ran past its timeout and was killed; `label` is the timeout in seconds as
    /// written in messages (`0.4`).
    #[error("timed out after {label}s")]
    Timeout { label: String },
    /// The program could not be started.
    #[error("cannot start hook: {program}: {}", io_text(cause))]
    Start { program: String, cause: Arc<std::io::Error> },
    /// The working directory does not exist.
    #[error("cannot start hook: working directory {} does not exist", .0.display())]
    MissingCwd(PathBuf),
    #[error("cannot wait for hook: {0}")]
    Wait(Arc<std::io::Error>),
    /// The URL is not allowed by the runtime's allowlist (`webhookAllowlist`) or Claude's
    /// `allowedHttpHookUrls` (`http_hook`).
    #[error("{}", not_allowed(url, *http_hook))]
    NotAllowed { url: String, http_hook: bool },
    #[error("{} answered HTTP {status}: {body}", answered(who))]
    HttpStatus { who: Endpoint, status: u16, body: String },
    #[error("{} failed: {cause}", requested(who))]
    HttpFailed { who: Endpoint, cause: String },
    #[error("{} timed out after {label}s", requested(who))]
    HttpTimeout { who: Endpoint, label: String },
    #[error(transparent)]
    Unconfigured(#[from] Unconfigured),
    #[error(transparent)]
    OracleAnswer(#[from] OracleAnswer),
    #[error("mcp_tool {server}/{tool} failed: {cause}")]
    Mcp { server: String, tool: String, cause: String },
    #[error("mcp_tool {server}/{tool} timed out after {label}s")]
    McpTimeout { server: String, tool: String, label: String },
    /// A callback hook threw or its promise rejected; the cause is the thrown message.
    #[error("callback {name} failed: {cause}")]
    Callback { name: String, cause: String },
    #[error("callback {name} timed out after {label}s")]
    CallbackTimeout { name: String, label: String },
    /// A worker hook's process ended or is broken; the reason is the worker's.
    #[error("{0}")]
    Worker(String),
}

impl Failure {
    /// Whether the run was cut off by its timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            Failure::Timeout { .. }
                | Failure::HttpTimeout { .. }
                | Failure::McpTimeout { .. }
                | Failure::CallbackTimeout { .. }
        )
    }

    /// A program that could not start.
    pub fn start(program: impl Into<String>, cause: std::io::Error) -> Self {
        Failure::Start { program: program.into(), cause: Arc::new(cause) }
    }
}

impl PartialEq for Failure {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string() && std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// "No such file or directory (os error 2)" -> "No such file or directory".
fn io_text(e: &std::io::Error) -> String {
    let msg = e.to_string();
    msg.split(" (os error").next().unwrap_or(&msg).to_owned()
}

fn not_allowed(url: &str, http_hook: bool) -> String {
    if http_hook {
        format!("http hook {url} is not in allowedHttpHookUrls")
    } else {
        format!("webhook {url} is not in the webhook allowlist")
    }
}

fn answered(who: &Endpoint) -> String {
    match who {
        Endpoint::Webhook(url) => format!("webhook {url}"),
        Endpoint::Oracle => "oracle endpoint".into(),
    }
}

fn requested(who: &Endpoint) -> String {
    match who {
        Endpoint::Webhook(url) => format!("webhook {url}"),
        Endpoint::Oracle => "oracle request".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_contract_texts() {
        assert_eq!(Failure::Timeout { label: "0.4".into() }.to_string(), "timed out after 0.4s");
        let e = Failure::start("/bin/nope", std::io::Error::from_raw_os_error(2));
        assert_eq!(e.to_string(), "cannot start hook: /bin/nope: No such file or directory");
        let w = Endpoint::Webhook("http://x".into());
        let s = Failure::HttpStatus { who: w.clone(), status: 500, body: "b".into() };
        assert_eq!(s.to_string(), "webhook http://x answered HTTP 500: b");
        assert_eq!(
            Failure::HttpFailed { who: Endpoint::Oracle, cause: "c".into() }.to_string(),
            "oracle request failed: c"
        );
        assert_eq!(
            Failure::HttpTimeout { who: w, label: "1".into() }.to_string(),
            "webhook http://x timed out after 1s"
        );
        assert!(Failure::HttpTimeout { who: Endpoint::Oracle, label: "1".into() }.is_timeout());
        assert!(!Failure::Aborted.is_timeout());
    }
}
