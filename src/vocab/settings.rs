//! Setting types shared by the files that declare hooks and the options that run them.

use serde::{Deserialize, Serialize};

/// What an infrastructure error does to the run (docs/configuration.md "Failures").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    /// Log and continue.
    #[default]
    Warn,
    /// Turn the run into a deny with reason `hook failed: <error>`.
    Block,
    /// Continue quietly.
    Ignore,
}

impl OnError {
    pub fn parse(s: &str) -> Option<OnError> {
        match s {
            "warn" => Some(OnError::Warn),
            "block" => Some(OnError::Block),
            "ignore" => Some(OnError::Ignore),
            _ => None,
        }
    }
}

/// What Claude's per-hook `if` permission rules do.
///
/// `hookrt listen` is a drop-in for the JavaScript implementation, which never evaluated
/// them (and says so in a warning); everywhere else they are evaluated as Claude Code does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum IfRules {
    /// The hook runs only for tool calls its rule matches.
    #[default]
    Evaluate,
    /// The rule is reported and ignored: the hook runs whenever its matcher matches.
    Ignore,
}

impl IfRules {
    /// Reads a CLI or environment spelling.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "evaluate" => Some(Self::Evaluate),
            "ignore" => Some(Self::Ignore),
            _ => None,
        }
    }
}

/// The shell that runs a hook's command string, as its harness runs it (docs/harnesses/).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Shell {
    /// `/bin/sh -c` (Claude Code, and the files only hookrt reads).
    #[default]
    Sh,
    /// `bash -c` from `PATH` (Codex, Gemini CLI, Copilot): `[[ … ]]` guards work.
    Bash,
}

impl Shell {
    pub(crate) fn program(self) -> &'static str {
        match self {
            Shell::Sh => "/bin/sh",
            Shell::Bash => "bash",
        }
    }
}

/// Whether hookrt behaves as each harness does or as the JavaScript implementation's contract
/// says, where the two differ in what a host sees (`hookrt listen` keeps the contract unless
/// told `--harness-exact`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Fidelity {
    /// Each harness's own rules, and the run fields a host needs to present an outcome as the
    /// harness would (`runs[].hook.command`, `runs[].timedOut`).
    #[default]
    Harness,
    /// The `listen` contract: its wire shape exactly.
    Contract,
}

/// Whether matched hooks run at once or one after another.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Concurrency {
    #[default]
    Parallel,
    Serial,
}

/// How the hooks of one event run relative to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Concurrently (every dialect but the ones below).
    #[default]
    Parallel,
    /// One after the other, each getting the `tool_input` the previous successful one returned;
    /// every hook runs, also after a deny (Gemini `sequential: true`).
    Chain,
    /// One after the other, in file order, every one of them (Cline, Hermes).
    Sequential,
    /// One after the other, in file order, the first deny ending the rest (Copilot, recorded:
    /// S15).
    UntilDeny,
}

/// How a worker hook is configured (beyond its command).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerSettings {
    /// Requests written to the worker before it answers; more wait in a queue.
    pub max_in_flight: usize,
    /// Seconds without a request after which the worker is stopped.
    pub idle_timeout: f64,
    /// Started when the configuration loads instead of on the first match.
    pub warm: bool,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        WorkerSettings { max_in_flight: 16, idle_timeout: 300.0, warm: false }
    }
}

/// OpenAI-compatible endpoint for oracle hooks.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LlmOptions {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
}

/// Subagent runner for proxy hooks without their own command.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ProxyOptions {
    pub command: Option<String>,
}
