//! The command line's words: the commands, their flags, and the flags every command shares
//! (clap derives the parser and the help).

use crate::runtime::history::HistoryOptions;
use crate::runtime::options::RuntimeOptions;
use crate::vocab::{ApprovalScope, Dialect, Fidelity, HostHarness, IfRules, LlmOptions, OnError, ProxyOptions};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// The harnesses `hook`, `install` and `uninstall` take.
fn hosts() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(HostHarness::HARNESSES.iter().map(|h| h.as_str()))
}

/// The command's description, naming every harness the registration table holds.
fn about() -> String {
    let titles: Vec<&str> = Dialect::ALL.iter().map(|d| d.title()).collect();
    format!("Runs the hooks your harnesses' files declare: {}", titles.join(", "))
}

/// `trust`'s description, naming the harnesses whose every hook needs consent.
fn trust_about() -> String {
    let every: Vec<&str> = Dialect::ALL
        .into_iter()
        .filter(|d| crate::harness::of(*d).consent() == crate::harness::Consent::EveryHook)
        .map(Dialect::title)
        .collect();
    format!(
        "Consent for hooks before they run: list, approve or revoke (command, event, script hash) — project and local hooks of every harness, every hook of {}",
        every.join(", ")
    )
}

#[derive(Parser, Debug)]
#[command(
    name = "hookrt",
    version,
    about = about(),
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub shared: Shared,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Flags every command accepts (before or after the command name).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct Shared {
    /// Read only this config file instead of discovering files.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Home directory for global config files.
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Working directory (project files, hook cwd).
    #[arg(long, global = true, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Timeout for every hook without its own, in seconds.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// OpenAI-compatible base URL for prompt hooks (with --llm-model).
    #[arg(long, global = true, value_name = "URL", requires = "llm_model")]
    pub llm_base_url: Option<String>,
    /// Model name for prompt hooks (with --llm-base-url).
    #[arg(long, global = true, value_name = "NAME", requires = "llm_base_url")]
    pub llm_model: Option<String>,
    /// API key for prompt hooks (sent as a Bearer token).
    #[arg(long, global = true, value_name = "KEY")]
    pub llm_key: Option<String>,
    /// Subagent runner for agent/subagent hooks without their own command.
    #[arg(long, global = true, value_name = "CMD")]
    pub proxy_command: Option<String>,
    /// What an infrastructure error does: warn, block or ignore.
    #[arg(long, global = true, value_name = "POLICY", value_parser = ["warn", "block", "ignore"])]
    pub on_error: Option<String>,
    /// Project directory (CLAUDE_PROJECT_DIR).
    #[arg(long, global = true, value_name = "DIR")]
    pub project_dir: Option<PathBuf>,
    /// Which hooks run: `harness` (the default, except for `listen`: each hook exactly when its
    /// own harness would, by that harness's trust records, or when approved with `hookrt trust
    /// approve`), `project` (the value when none is given: project and local hooks need
    /// hookrt's approval), `all`, or `off`.
    #[arg(long, global = true, value_name = "SCOPE", num_args = 0..=1, require_equals = true, default_missing_value = "project", value_parser = ["harness", "project", "all", "off"])]
    pub require_hook_approval: Option<String>,
    /// A Claude Code plugin directory whose hooks/hooks.json is loaded (repeatable).
    #[arg(long = "plugin", global = true, value_name = "DIR")]
    pub plugins: Vec<PathBuf>,
    /// Claude Code managed settings file (default /etc/claude-code/managed-settings.json).
    #[arg(long, global = true, value_name = "FILE")]
    pub managed_settings: Option<PathBuf>,
    /// Write execution history (one JSON line per dispatch that ran a hook) to FILE.
    #[arg(long, global = true, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Where machine-wide Gemini, Cursor and Windsurf hook files live (default /etc).
    #[arg(long, global = true, value_name = "DIR")]
    pub system_dir: Option<PathBuf>,
    /// Events (comma-separated, any spelling) on which a hook that gave no answer denies.
    #[arg(long, global = true, value_name = "EVENTS", value_delimiter = ',')]
    pub fail_closed: Vec<String>,
    /// The release of a harness you run, where it is not the newest hookrt follows
    /// (`hermes=0.19.0`; repeatable): its files are read by that release's rules.
    #[arg(long, global = true, value_name = "HARNESS=VERSION", value_parser = crate::vocab::HarnessVersions::parse_pair)]
    pub harness_version: Vec<(crate::vocab::Dialect, crate::vocab::Version)>,
    /// Longest context or message kept, in characters (default 10000).
    #[arg(long, global = true, value_name = "CHARS")]
    pub context_cap: Option<usize>,
    /// Claude `if` rules: evaluate, or ignore with a warning (listen's default, as the
    /// JavaScript implementation; env HOOKRT_IF_RULES).
    #[arg(long, global = true, value_name = "MODE", value_parser = ["evaluate", "ignore"])]
    pub if_rules: Option<String>,
    /// `listen`: report each run's harness details (`hook.command`, `timedOut`) beyond the
    /// JavaScript implementation's answer shape.
    #[arg(long, global = true)]
    pub harness_exact: bool,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Serve the JSON-lines protocol on stdin/stdout.
    Listen,
    /// Print the JSON Schema (draft 2020-12) of a dialect's hook file, or of every dialect that
    /// has one (an object keyed by dialect); with --out, write `<dialect>.schema.json` files.
    Schema {
        #[arg(long, value_name = "DIALECT")]
        dialect: Option<String>,
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Check configuration; exit 1 on errors (or warnings with --strict).
    Validate {
        #[arg(long)]
        strict: bool,
        #[arg(long)]
        json: bool,
    },
    /// Dispatch one event and print {outcome, runs, canonical}; exit 2 on deny.
    Run {
        #[arg(long, value_name = "EVENT")]
        event: String,
        /// Payload JSON file, or - for stdin.
        #[arg(long, value_name = "FILE|-")]
        payload: Option<String>,
        #[arg(long, value_name = "SUBJECT")]
        subject: Option<String>,
    },
    /// Check every hook: program present and executable, a trial run on a synthetic payload
    /// (decision, time, answer validity); exit 1 when something is wrong.
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Print the merged effective configuration.
    Dump,
    /// Print the files read (scope, dialect, file), each followed by its hooks (id, matcher,
    /// enabled or disabled).
    List,
    #[command(about = trust_about())]
    Trust {
        #[command(subcommand)]
        action: TrustAction,
    },
    /// Print the hooks of one dialect's file as another's: claude, codex, codex-toml, opencode,
    /// gemini, cursor, copilot, windsurf, qwen, droid, auggie, antigravity, kiro, native
    /// (hermes, agents, cline and kimi can be read). Units and
    /// event and tool names are converted; what the target cannot express is a warning on
    /// stderr. Exit 1 when nothing could be converted.
    Convert {
        #[arg(long, value_name = "DIALECT")]
        from: String,
        #[arg(long, value_name = "DIALECT")]
        to: String,
        /// The file to read, or - (the default) for stdin.
        #[arg(value_name = "FILE|-", default_value = "-")]
        file: String,
    },
    /// Show execution history: a table (newest last), JSON lines, a live tail, or a timeline page.
    History {
        /// The history file (default: --history, then $HOOKRT_HISTORY).
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        #[arg(long, value_name = "SESSION")]
        session: Option<String>,
        /// An event as dispatched or its canonical name.
        #[arg(long, value_name = "EVENT")]
        event: Option<String>,
        /// Runs whose hook id or file contains TEXT.
        #[arg(long, value_name = "TEXT")]
        hook: Option<String>,
        #[arg(long, value_name = "DECISION")]
        decision: Option<String>,
        /// Only the newest N dispatches.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Keep printing lines as they are written (like tail -f).
        #[arg(long)]
        follow: bool,
        #[arg(long)]
        json: bool,
        /// Write a self-contained timeline page instead of printing.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
    },
    /// Run as a harness's own hook: read the harness's hook input on stdin, run every hook
    /// hookrt reads for the project except the harness's own files (it runs those itself), and
    /// answer in the harness's format (what `hookrt install` writes into its files).
    Hook {
        /// claude, codex, gemini, copilot or hermes.
        #[arg(value_name = "HARNESS", value_parser = hosts())]
        harness: String,
        /// The event as the harness names it (default: the input's `hook_event_name`).
        #[arg(long, value_name = "EVENT")]
        event: Option<String>,
        /// Also read the harness's own files (their hooks then run twice: once by the harness).
        #[arg(long)]
        include_own: bool,
        /// Seconds to answer within, before the harness's own timeout (installed entries give
        /// 600): past it the hooks are killed and the --fail-closed rule answers.
        #[arg(long, value_name = "SECONDS", default_value_t = 590.0)]
        budget: f64,
    },
    /// Make a harness run hookrt on each of its events (`hookrt hook <harness>` entries in its
    /// own file, with the trust step it needs for them): claude, codex, gemini, copilot, hermes.
    Install {
        #[arg(value_name = "HARNESS", value_parser = hosts())]
        harness: String,
        /// The user's file (every project) or this project's.
        #[arg(long, value_name = "SCOPE", value_parser = ["user", "project"], default_value = "project")]
        scope: String,
        /// Print the change as a diff and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// The command the entries start (default: this executable).
        #[arg(long, value_name = "CMD")]
        program: Option<String>,
        /// Claude Code only: `type: "http"` entries to `hookrt serve`'s loopback endpoint, so
        /// no process starts per event (Claude must have $HOOKRT_TOKEN: `hookrt serve
        /// --print-token`).
        #[arg(long)]
        http: bool,
    },
    /// Remove what `hookrt install` wrote; files it did not otherwise change come back byte for
    /// byte.
    Uninstall {
        #[arg(value_name = "HARNESS", value_parser = hosts())]
        harness: String,
        #[arg(long, value_name = "SCOPE", value_parser = ["user", "project"], default_value = "project")]
        scope: String,
        #[arg(long)]
        dry_run: bool,
    },
    /// Keep one warm runtime per project for `hookrt hook` (reloaded when a hook file changes,
    /// workers kept alive across sessions) on a Unix socket only this user can reach;
    /// `hookrt hook` answers in-process when it is not running or does not answer.
    Serve {
        /// The socket (default: $HOOKRT_SOCKET, $XDG_RUNTIME_DIR/hookrt/serve.sock, else
        /// ~/.cache/hookrt/serve.sock).
        #[arg(long, value_name = "PATH")]
        socket: Option<PathBuf>,
        /// Print the token of the HTTP endpoint (`install claude --http`) and exit.
        #[arg(long)]
        print_token: bool,
    },
    /// Print the version.
    Version,
    /// Print help.
    Help,
}

#[derive(Subcommand, Debug)]
pub(crate) enum TrustAction {
    /// Show every hook that needs approval (Hermes hooks, project and local hooks of every
    /// dialect, and global ones under --require-hook-approval=all) with its status.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Approve hooks by command (all their events), or every listed hook with --all (only those
    /// of files in one scope with --scope project|local|global|explicit|system).
    Approve {
        #[arg(long)]
        all: bool,
        #[arg(long, value_name = "SCOPE")]
        scope: Option<String>,
        commands: Vec<String>,
    },
    /// Remove every approval of a command.
    Revoke { command: String },
}

impl Shared {
    /// The runtime options; `listen` defaults `if` rules to the drop-in behaviour.
    pub(crate) fn options(&self, listen: bool) -> RuntimeOptions {
        let if_rules = self.if_rules.as_deref().and_then(IfRules::parse).or_else(|| {
            let from_env = std::env::var("HOOKRT_IF_RULES").ok();
            match from_env.as_deref().and_then(IfRules::parse) {
                Some(r) => Some(r),
                None if listen => Some(IfRules::Ignore),
                None => None,
            }
        });
        RuntimeOptions {
            config_path: self.config.clone(),
            home_dir: self.home.clone(),
            cwd: self.cwd.clone(),
            timeout_sec: self.timeout,
            llm: LlmOptions {
                base_url: self.llm_base_url.clone(),
                model: self.llm_model.clone(),
                api_key: self.llm_key.clone().or_else(|| std::env::var("HOOKRT_LLM_KEY").ok()),
            },
            proxy: ProxyOptions { command: self.proxy_command.clone() },
            on_error: self.on_error.as_deref().and_then(OnError::parse),
            project_dir: self.project_dir.clone(),
            reap_orphans: Some(true),
            require_hook_approval: self.require_hook_approval.as_deref().and_then(ApprovalScope::parse),
            drop_in: listen,
            plugins: self
                .plugins
                .iter()
                .map(|root| crate::config::PluginDir { root: root.clone(), data_dir: None })
                .collect(),
            managed_settings_path: self.managed_settings.clone(),
            system_dir: self.system_dir.clone(),
            history: self.history.clone().map(|path| HistoryOptions {
                path,
                max_bytes: None,
                payloads: false,
                host: None,
            }),
            context_cap: self.context_cap,
            fail_closed: self.fail_closed.clone(),
            harness_versions: crate::vocab::HarnessVersions(self.harness_version.clone()),
            if_rules,
            fidelity: Some(if listen && !self.harness_exact { Fidelity::Contract } else { Fidelity::Harness }),
            ..Default::default()
        }
    }
}
