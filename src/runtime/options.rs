//! Runtime options (the `createRuntime` argument and the CLI flags) and their resolution
//! against the environment (`HOOKRT_HOME`, `HOOKRT_CONFIG`, `HOOKS=0`, ...), split by who uses
//! them: the loader, the dispatcher, the handlers.

use crate::config::{PluginDir, Substitutions};
use crate::handler::Policy as HandlerPolicy;
use crate::load::{LoadOptions, Policy};
use crate::vocab::text::quote;
use crate::vocab::{
    ApprovalScope, CanonicalEvent, Concurrency, Dialect, Fidelity, HarnessVersions, HostHarness, IfRules, LlmOptions,
    OnError, ProxyOptions,
};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Why options cannot make a runtime.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    #[error("timeoutSec must be a positive number of seconds")]
    Timeout,
    #[error("failClosed: unknown event {}", quote(.0))]
    UnknownEvent(String),
    #[error("cannot read the current directory: {0}")]
    NoCwd(#[source] std::io::Error),
}

/// Options as a host writes them (camelCase JSON).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
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
    /// Which hooks need an approval before they run: `"harness"` (the default; `hookrt
    /// listen`'s is none) runs each hook exactly when its own harness would, by that harness's
    /// trust records; `"project"`, `"all"` and `"off"` use hookrt's approvals only
    /// (docs/security.md).
    pub require_hook_approval: Option<ApprovalScope>,
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
    pub plugins: Vec<PluginDir>,
    /// Claude Code managed settings file (default: `/etc/claude-code/managed-settings.json`
    /// on Linux); its hooks always load, and its `allowManagedHooksOnly` / `disableAllHooks`
    /// win over every other file.
    pub managed_settings_path: Option<PathBuf>,
    /// Where machine-wide hook files live (default `/etc`): `gemini-cli/settings.json`,
    /// `cursor/hooks.json`, `windsurf/hooks.json`.
    pub system_dir: Option<PathBuf>,
    /// Execution history: one JSON line per dispatch that ran a hook (`{path, maxBytes?,
    /// payloads?}`).
    pub history: Option<HistoryOptions>,
    /// Longest single context or message kept, in characters (default 10,000, as Claude
    /// Code); longer ones are cut with a marker saying how much was cut.
    pub context_cap: Option<usize>,
    /// Claude's per-hook `if` permission rules: `evaluate` (default) or `ignore` (reported
    /// in a warning, the hook runs whenever its matcher matches; `hookrt listen`'s default,
    /// as the JavaScript implementation it replaces). Environment: `HOOKRT_IF_RULES`.
    pub if_rules: Option<IfRules>,
    /// Each harness's own wire details (`harness`, the default) or the `listen` contract's.
    pub fidelity: Option<Fidelity>,
    /// Set by `hookrt hook <harness>`: hookrt runs as that harness's own hook, so that
    /// harness's files are left to it (it runs their hooks itself; read them twice and every
    /// hook runs twice) unless `include_own_files`.
    #[serde(skip)]
    pub inside: Option<Dialect>,
    /// `hookrt hook --include-own`: read the harness's own files too.
    #[serde(skip)]
    pub include_own_files: bool,
    /// The harness this host is (`claude`, `codex`, `gemini`, `copilot`, `hermes`) or `dsh` (a
    /// host without trust records): under `requireHookApproval: "harness"` a project's hook files
    /// then run only when that harness would also trust the project, or once approved with
    /// `hookrt trust approve` (docs/security.md). `hookrt hook <harness>` sets it.
    pub harness: Option<HostHarness>,
    /// The release of each harness the user runs, where it is not the newest hookrt follows
    /// (`{"hermes": "0.19.0"}`): that harness's files are read by that release's rules
    /// (each harness page's "changed in" table).
    pub harness_versions: HarnessVersions,
}

/// The `history` runtime option.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryOptions {
    pub path: PathBuf,
    /// Rotation size (default 10 MiB): the file becomes `<path>.1` and a new one starts.
    pub max_bytes: Option<u64>,
    /// Also write each dispatch's payload (off: payloads may hold anything).
    #[serde(default)]
    pub payloads: bool,
    /// The harness (or host) the dispatches come from, written on every line (`hookrt hook`
    /// sets it to the harness it runs inside).
    #[serde(default)]
    pub host: Option<String>,
}

/// Options resolved against the environment, split by who uses them.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// What configuration to read.
    pub load: LoadOptions,
    /// How hooks are dispatched and their answers read.
    pub policy: RunPolicy,
    /// How handlers run.
    pub handlers: HandlerPolicy,
    /// How many hook processes may run at once (the runtime's process slots).
    pub max_processes: usize,
    /// Where execution history goes (`history`, `--history`, `$HOOKRT_HISTORY`).
    pub history: Option<HistoryOptions>,
}

/// How hooks are dispatched and their answers read.
#[derive(Debug, Clone)]
pub struct RunPolicy {
    pub cwd: PathBuf,
    /// The harness whose events these are (`hookrt hook`): it names tools its own way.
    pub inside: Option<Dialect>,
    pub project_dir: Option<PathBuf>,
    pub on_error: OnError,
    pub timeout_sec: Option<f64>,
    pub stderr_cap: usize,
    pub concurrency: Concurrency,
    pub model: Option<String>,
    pub turn_id: Option<String>,
    pub case_insensitive_tools: bool,
    pub stop_block_limit: u32,
    /// Longest context or message kept, in characters (Claude's 10,000).
    pub context_cap: usize,
    /// Whether runs report the harness details (`hook.command`, `timedOut`) on the wire.
    pub fidelity: Fidelity,
    /// Events on which a hook without an answer denies.
    pub fail_closed: Vec<CanonicalEvent>,
}

pub const DEFAULT_OUTPUT_CAP: usize = 1024 * 1024;
pub(crate) const DEFAULT_MAX_PROCESSES: usize = 64;
pub(crate) const DEFAULT_STOP_BLOCK_LIMIT: u32 = 8;
/// Claude Code's cap on one hook output string.
pub(crate) const DEFAULT_CONTEXT_CAP: usize = 10_000;

pub(crate) use crate::vocab::text::is_secret_name;

type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

impl RuntimeOptions {
    /// Resolves against an environment lookup (the process environment in production).
    pub fn resolve(&self, env: Env) -> Result<Resolved, OptionsError> {
        if self.timeout_sec.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
            return Err(OptionsError::Timeout);
        }
        let fail_closed = self
            .fail_closed
            .iter()
            .map(|n| {
                crate::harness::resolve_dispatch_name(n)
                    .map(|e| e.canonical)
                    .ok_or_else(|| OptionsError::UnknownEvent(n.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cwd = match &self.cwd {
            Some(c) => c.clone(),
            None => std::env::current_dir().map_err(OptionsError::NoCwd)?,
        };
        let max = self.max_processes.unwrap_or(DEFAULT_MAX_PROCESSES).max(1);
        Ok(Resolved {
            load: self.load_options(cwd.clone(), env),
            policy: self.run_policy(cwd, fail_closed),
            handlers: self.handler_policy(),
            max_processes: max,
            history: self
                .history
                .clone()
                .or_else(|| {
                    nonempty(env, "HOOKRT_HISTORY").map(|p| HistoryOptions {
                        path: PathBuf::from(p),
                        max_bytes: None,
                        payloads: false,
                        host: None,
                    })
                })
                .map(|mut h| {
                    h.host = h.host.or_else(|| self.inside.map(|d| d.as_str().to_owned()));
                    h
                }),
        })
    }

    fn load_options(&self, cwd: PathBuf, env: Env) -> LoadOptions {
        let home = self
            .home_dir
            .clone()
            .or_else(|| {
                ["HOOKRT_HOME", "HOOKS_ADAPTER_HOME", "HOME"].iter().find_map(|k| nonempty(env, k)).map(PathBuf::from)
            })
            .unwrap_or_else(|| PathBuf::from("/"));
        let config_path = self.config_path.clone().or_else(|| {
            ["HOOKRT_CONFIG", "HOOKS_ADAPTER_CONFIG"].iter().find_map(|k| nonempty(env, k)).map(PathBuf::from)
        });
        let mut vars: Vec<(String, String)> = Vec::new();
        if let Some(p) = &self.project_dir {
            vars.push(("CLAUDE_PROJECT_DIR".into(), p.display().to_string()));
        }
        if let Some(p) = &self.plugin_root {
            vars.push(("CLAUDE_PLUGIN_ROOT".into(), p.display().to_string()));
        }
        vars.extend(self.vars.iter().map(|(k, v)| (k.clone(), v.clone())));
        let trust_env = crate::load::TrustEnv::read(env);
        LoadOptions {
            home,
            cwd,
            discover: self.discover,
            config_path,
            dialect: self.dialect,
            hooks_off: env("HOOKS").as_deref() == Some("0"),
            subst: Substitutions { vars },
            require_approval: self.require_hook_approval.unwrap_or(if self.drop_in {
                ApprovalScope::Unset
            } else {
                ApprovalScope::Harness
            }),
            drop_in: self.drop_in,
            fidelity: self.fidelity.unwrap_or_default(),
            // a harness whose every hook needs consent may be told to accept them all
            accept_hooks: crate::harness::HARNESSES.iter().any(|h| h.accepts_every_hook(&trust_env)),
            plugins: self.plugins.clone(),
            if_rules: self
                .if_rules
                .or_else(|| env("HOOKRT_IF_RULES").as_deref().and_then(IfRules::parse))
                .unwrap_or_default(),
            system_dir: self.system_dir.clone().unwrap_or_else(|| PathBuf::from("/etc")),
            homes: crate::harness::registry::read_homes(env),
            trust_env,
            left_to_harness: self.inside.filter(|_| !self.include_own_files),
            host: self.harness.or_else(|| self.inside.and_then(HostHarness::of)),
            policy: match &self.managed_settings_path {
                Some(p) => Policy::At(p.clone()),
                None => Policy::Default,
            },
            versions: self.harness_versions.clone(),
        }
    }

    fn run_policy(&self, cwd: PathBuf, fail_closed: Vec<CanonicalEvent>) -> RunPolicy {
        RunPolicy {
            cwd,
            project_dir: self.project_dir.clone(),
            on_error: self.on_error.unwrap_or_default(),
            timeout_sec: self.timeout_sec,
            stderr_cap: self.stderr_cap.unwrap_or(500),
            concurrency: self.concurrency,
            model: self.model.clone(),
            turn_id: self.turn_id.clone(),
            case_insensitive_tools: self.case_insensitive_tools,
            inside: self.inside,
            stop_block_limit: self.stop_block_limit.unwrap_or(DEFAULT_STOP_BLOCK_LIMIT),
            context_cap: self.context_cap.unwrap_or(DEFAULT_CONTEXT_CAP),
            fidelity: self.fidelity.unwrap_or_default(),
            fail_closed,
        }
    }

    fn handler_policy(&self) -> HandlerPolicy {
        let removed_env = if self.strip_secrets {
            std::env::vars_os().filter_map(|(k, _)| k.into_string().ok()).filter(|k| is_secret_name(k)).collect()
        } else {
            Vec::new()
        };
        HandlerPolicy {
            removed_env,
            output_cap: self.output_cap.unwrap_or(DEFAULT_OUTPUT_CAP),
            reap_orphans: self.reap_orphans.unwrap_or(false),
            webhook_allowlist: self.webhook_allowlist.clone(),
            allowed_http_hook_urls: self.allowed_http_hook_urls.clone(),
            http_hook_allowed_env_vars: self.http_hook_allowed_env_vars.clone(),
            llm: self.llm.clone(),
            proxy_command: self.proxy.command.clone().filter(|c| !c.trim().is_empty()),
        }
    }
}

fn nonempty(env: Env, k: &str) -> Option<String> {
    env(k).filter(|v| !v.is_empty())
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
        let e = RuntimeOptions { timeout_sec: Some(0.0), ..Default::default() }.resolve(&|_| None).unwrap_err();
        assert_eq!(e.to_string(), "timeoutSec must be a positive number of seconds");
        let e = RuntimeOptions { fail_closed: vec!["Nope".into()], ..Default::default() }.resolve(&|_| None);
        assert_eq!(e.unwrap_err().to_string(), "failClosed: unknown event \"Nope\"");
        assert!(serde_json::from_str::<RuntimeOptions>(r#"{"timeoutSecs":1}"#).is_err());
        assert!(is_secret_name("OPENAI_API_KEY") && !is_secret_name("PATH"));
    }
}
