//! Runtime options (the `createRuntime` argument and the CLI flags) and their resolution
//! against the environment (`HOOKRT_HOME`, `HOOKRT_CONFIG`, `HOOKS=0`, ...).

use crate::config::groups::Substitutions;
use crate::config::load::LoadOptions;
use crate::config::OnError;
use crate::dialect::Dialect;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// OpenAI-compatible endpoint for oracle hooks.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LlmOptions {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
}

/// Subagent runner for proxy hooks without their own command.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProxyOptions {
    pub command: Option<String>,
}

/// Whether matched hooks run at once or one after another.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Concurrency {
    #[default]
    Parallel,
    Serial,
}

/// Options as a host writes them (camelCase JSON).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RuntimeOptions {
    /// Working directory for discovery and hooks (default: the process cwd).
    pub cwd: Option<PathBuf>,
    /// Home directory for global files (default: `$HOOKRT_HOME`, `$HOOKS_ADAPTER_HOME`, `$HOME`).
    pub home_dir: Option<PathBuf>,
    /// One config file instead of discovery (default: `$HOOKRT_CONFIG`, `$HOOKS_ADAPTER_CONFIG`).
    pub config_path: Option<PathBuf>,
    /// Dialect of `config_path` when its location and content do not tell.
    pub dialect: Option<Dialect>,
    /// Run discovery (default: true without `config_path`, false with it).
    pub discover: Option<bool>,
    pub on_error: Option<OnError>,
    pub timeout_sec: Option<f64>,
    pub llm: LlmOptions,
    pub proxy: ProxyOptions,
    pub project_dir: Option<PathBuf>,
    pub plugin_root: Option<PathBuf>,
    /// Extra `${UPPER_CASE}` variables substituted into commands at load.
    pub vars: BTreeMap<String, String>,
    /// Characters of a hook's stderr quoted in logs (default 500).
    pub stderr_cap: Option<usize>,
    pub concurrency: Concurrency,
    /// Bytes captured per output stream (default 1 MiB).
    pub output_cap: Option<usize>,
    /// Remove variables whose names look secret (KEY, PASSWORD, SECRET, TOKEN) from hook envs.
    pub strip_secrets: bool,
    /// Only webhook URLs starting with one of these prefixes are called.
    pub webhook_allowlist: Option<Vec<String>>,
    /// Model name passed to codex hooks (`model`).
    pub model: Option<String>,
    /// Turn id passed to codex hooks (`turn_id`).
    pub turn_id: Option<String>,
    /// Most hook processes running at once across all dispatches (default 64).
    pub max_processes: Option<usize>,
    /// Adopt and reap orphaned hook descendants (`PR_SET_CHILD_SUBREAPER`).
    pub reap_orphans: Option<bool>,
    /// Match claude literal matchers without regard to case (hosts with lower-case tool names).
    pub case_insensitive_tools: bool,
    /// Unapproved Hermes shell hooks do not run (default: they run, with a warning).
    pub require_hook_approval: crate::trust::ApprovalScope,
    /// Set by `hookrt listen` (a drop-in for the JavaScript implementation): notices that are
    /// not in its contract go to the log instead of the diagnostics.
    #[serde(skip)]
    pub drop_in: bool,
    /// Consecutive blocked Stops of one session after which further blocks are downgraded.
    pub stop_block_limit: Option<u32>,
    /// Claude's `allowedHttpHookUrls`: URL patterns (`*` is any text); an `http` hook whose
    /// URL matches none is not loaded (warning) and not run.
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// Claude's `httpHookAllowedEnvVars`: an upper bound on every `http` hook's
    /// `allowedEnvVars`.
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
    /// Events (any spelling) on which a hook that gave no answer — could not start, timed out,
    /// killed by a signal, HTTP failure — denies with `hook failed closed: <error>`.
    pub fail_closed: Vec<String>,
    /// Claude Code plugins whose `hooks/hooks.json` is loaded (`{root, dataDir?}`).
    pub plugins: Vec<crate::config::discovery::PluginDir>,
    /// Claude Code managed settings file (default: `/etc/claude-code/managed-settings.json`
    /// on Linux); its hooks always load, and its `allowManagedHooksOnly` / `disableAllHooks`
    /// win over every other file.
    pub managed_settings_path: Option<PathBuf>,
    /// Where machine-wide hook files live (default `/etc`): `gemini-cli/settings.json`,
    /// `cursor/hooks.json`, `windsurf/hooks.json`.
    pub system_dir: Option<PathBuf>,
    /// Execution history: one JSON line per dispatch that ran a hook (`{path, maxBytes?,
    /// payloads?}`).
    pub history: Option<crate::history::HistoryOptions>,
    /// Longest single context or message kept, in characters (default 10,000, as Claude
    /// Code); longer ones are cut with a marker saying how much was cut.
    pub context_cap: Option<usize>,
    /// Claude's per-hook `if` permission rules: `evaluate` (default) or `ignore` (reported
    /// in a warning, the hook runs whenever its matcher matches; `hookrt listen`'s default,
    /// as the JavaScript implementation it replaces). Environment: `HOOKRT_IF_RULES`.
    pub if_rules: Option<crate::config::IfRules>,
}

/// Options resolved against the environment, split by who uses them: the loader, the
/// dispatcher and handlers, and the resources every dispatch of a runtime shares.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// What configuration to read.
    pub load: LoadOptions,
    /// How hooks run and how their answers are read.
    pub policy: RunPolicy,
    /// Process slots and the HTTP client, shared by every dispatch.
    pub shared: Shared,
    /// Where execution history goes (`history`, `--history`, `$HOOKRT_HISTORY`).
    pub history: Option<crate::history::HistoryOptions>,
}

/// How hooks run and how their answers are read (dispatch and handlers).
#[derive(Debug, Clone)]
pub struct RunPolicy {
    pub cwd: PathBuf,
    pub project_dir: Option<PathBuf>,
    pub on_error: OnError,
    pub timeout_sec: Option<f64>,
    pub llm: LlmOptions,
    pub proxy_command: Option<String>,
    pub stderr_cap: usize,
    pub concurrency: Concurrency,
    pub output_cap: usize,
    pub removed_env: Vec<String>,
    pub webhook_allowlist: Option<Vec<String>>,
    pub model: Option<String>,
    pub turn_id: Option<String>,
    pub reap_orphans: bool,
    pub case_insensitive_tools: bool,
    pub stop_block_limit: u32,
    /// Longest context or message kept, in characters (Claude's 10,000).
    pub context_cap: usize,
    /// Events on which a hook without an answer denies.
    pub fail_closed: Vec<crate::event::CanonicalEvent>,
    pub allowed_http_hook_urls: Option<Vec<String>>,
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
}

/// Resources shared by every dispatch of one runtime (clones share them too).
#[derive(Debug, Clone)]
pub struct Shared {
    /// One permit per hook process running at once.
    pub process_slots: Arc<tokio::sync::Semaphore>,
    /// Built on first use: loading the TLS roots costs more than a whole no-match session.
    http: Arc<std::sync::OnceLock<reqwest::Client>>,
    /// The host's MCP client for `mcp_tool` hooks (the JS API's `mcpCall`); none in `listen`
    /// and the CLI.
    pub mcp: Option<crate::handler::mcp::McpHost>,
    /// The runtime's persistent worker processes.
    pub workers: Arc<crate::handler::worker::Pool>,
}

impl Shared {
    fn new(max_processes: usize) -> Self {
        Shared {
            process_slots: Arc::new(tokio::sync::Semaphore::new(max_processes)),
            http: Arc::new(std::sync::OnceLock::new()),
            mcp: None,
            workers: Arc::default(),
        }
    }

    /// The HTTP client for webhooks, oracles and outbound notifications.
    pub fn http(&self) -> &reqwest::Client {
        self.http.get_or_init(|| {
            let _ = rustls::crypto::ring::default_provider().install_default();
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::limited(10))
                .user_agent(concat!("hookrt/", env!("CARGO_PKG_VERSION")))
                .build()
                .unwrap_or_else(|_| reqwest::Client::new())
        })
    }
}

pub const DEFAULT_OUTPUT_CAP: usize = 1024 * 1024;
pub const DEFAULT_MAX_PROCESSES: usize = 64;
pub const DEFAULT_STOP_BLOCK_LIMIT: u32 = 8;
/// Claude Code's cap on one hook output string.
pub const DEFAULT_CONTEXT_CAP: usize = 10_000;

/// Whether an environment variable name looks like it holds a secret.
pub fn is_secret_name(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    ["KEY", "PASSWORD", "SECRET", "TOKEN"].iter().any(|w| up.contains(w))
}

impl RuntimeOptions {
    /// Resolves against an environment lookup (the process environment in production).
    pub fn resolve(&self, env: &dyn Fn(&str) -> Option<String>) -> Result<Resolved, String> {
        if let Some(t) = self.timeout_sec {
            if !(t > 0.0 && t.is_finite()) {
                return Err("timeoutSec must be a positive number of seconds".into());
            }
        }
        let nonempty = |k: &str| env(k).filter(|v| !v.is_empty());
        let fail_closed = self
            .fail_closed
            .iter()
            .map(|n| {
                crate::event::resolve_dispatch_name(n)
                    .map(|e| e.canonical)
                    .ok_or_else(|| format!("failClosed: unknown event {}", crate::config::groups::quote(n)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cwd = match &self.cwd {
            Some(c) => c.clone(),
            None => std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?,
        };
        let home = self
            .home_dir
            .clone()
            .or_else(|| nonempty("HOOKRT_HOME").map(PathBuf::from))
            .or_else(|| nonempty("HOOKS_ADAPTER_HOME").map(PathBuf::from))
            .or_else(|| nonempty("HOME").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("/"));
        let config_path = self
            .config_path
            .clone()
            .or_else(|| nonempty("HOOKRT_CONFIG").map(PathBuf::from))
            .or_else(|| nonempty("HOOKS_ADAPTER_CONFIG").map(PathBuf::from));
        let mut vars: Vec<(String, String)> = Vec::new();
        if let Some(p) = &self.project_dir {
            vars.push(("CLAUDE_PROJECT_DIR".into(), p.display().to_string()));
        }
        if let Some(p) = &self.plugin_root {
            vars.push(("CLAUDE_PLUGIN_ROOT".into(), p.display().to_string()));
        }
        vars.extend(self.vars.iter().map(|(k, v)| (k.clone(), v.clone())));
        let removed_env = if self.strip_secrets {
            std::env::vars_os().filter_map(|(k, _)| k.into_string().ok()).filter(|k| is_secret_name(k)).collect()
        } else {
            Vec::new()
        };
        let max = self.max_processes.unwrap_or(DEFAULT_MAX_PROCESSES).max(1);
        Ok(Resolved {
            load: LoadOptions {
                home,
                cwd: cwd.clone(),
                discover: self.discover,
                config_path,
                dialect: self.dialect,
                hooks_off: env("HOOKS").as_deref() == Some("0"),
                subst: Substitutions { vars },
                require_approval: self.require_hook_approval,
                drop_in: self.drop_in,
                accept_hooks: env("HERMES_ACCEPT_HOOKS").as_deref() == Some("1"),
                plugins: self.plugins.clone(),
                if_rules: self
                    .if_rules
                    .or_else(|| env("HOOKRT_IF_RULES").as_deref().and_then(crate::config::IfRules::parse))
                    .unwrap_or_default(),
                system_dir: self.system_dir.clone().unwrap_or_else(|| PathBuf::from("/etc")),
                managed_settings: Some(
                    self.managed_settings_path
                        .clone()
                        .unwrap_or_else(crate::config::discovery::default_managed_settings),
                ),
            },
            policy: RunPolicy {
                cwd,
                project_dir: self.project_dir.clone(),
                on_error: self.on_error.unwrap_or_default(),
                timeout_sec: self.timeout_sec,
                llm: self.llm.clone(),
                proxy_command: self.proxy.command.clone().filter(|c| !c.trim().is_empty()),
                stderr_cap: self.stderr_cap.unwrap_or(500),
                concurrency: self.concurrency,
                output_cap: self.output_cap.unwrap_or(DEFAULT_OUTPUT_CAP),
                removed_env,
                webhook_allowlist: self.webhook_allowlist.clone(),
                model: self.model.clone(),
                turn_id: self.turn_id.clone(),
                reap_orphans: self.reap_orphans.unwrap_or(false),
                case_insensitive_tools: self.case_insensitive_tools,
                stop_block_limit: self.stop_block_limit.unwrap_or(DEFAULT_STOP_BLOCK_LIMIT),
                context_cap: self.context_cap.unwrap_or(DEFAULT_CONTEXT_CAP),
                fail_closed,
                allowed_http_hook_urls: self.allowed_http_hook_urls.clone(),
                http_hook_allowed_env_vars: self.http_hook_allowed_env_vars.clone(),
            },
            shared: Shared::new(max),
            history: self.history.clone().or_else(|| {
                nonempty("HOOKRT_HISTORY").map(|p| crate::history::HistoryOptions {
                    path: PathBuf::from(p),
                    max_bytes: None,
                    payloads: false,
                })
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_fallbacks() {
        let env = |k: &str| match k {
            "HOOKS_ADAPTER_HOME" => Some("/ha".to_string()),
            "HOME" => Some("/home/u".to_string()),
            "HOOKS_ADAPTER_CONFIG" => Some("/c.json".to_string()),
            "HOOKS" => Some("0".to_string()),
            _ => None,
        };
        let r = RuntimeOptions { cwd: Some("/w".into()), ..Default::default() }.resolve(&env).unwrap();
        assert_eq!(r.load.home, PathBuf::from("/ha"));
        assert_eq!(r.load.config_path, Some(PathBuf::from("/c.json")));
        assert!(r.load.hooks_off);
        let r = RuntimeOptions { home_dir: Some("/x".into()), cwd: Some("/w".into()), ..Default::default() }
            .resolve(&|_| None)
            .unwrap();
        assert_eq!(r.load.home, PathBuf::from("/x"));
        assert!(!r.load.hooks_off);
    }

    #[test]
    fn bad_timeout_is_rejected_and_unknown_fields_too() {
        assert!(RuntimeOptions { timeout_sec: Some(0.0), ..Default::default() }.resolve(&|_| None).is_err());
        assert!(serde_json::from_str::<RuntimeOptions>(r#"{"timeoutSecs":1}"#).is_err());
        assert!(is_secret_name("OPENAI_API_KEY") && !is_secret_name("PATH"));
    }
}
