//! The `hookrt` command (SPEC §12): `listen`, `validate`, `run`, `dump`, `list`, `version`,
//! `help`, with shared flags. Parsing is clap's; bad flags print a message and exit 1.

use crate::config::{OnError, Severity};
use crate::listen::{self, Ended};
use crate::options::{LlmOptions, ProxyOptions, RuntimeOptions};
use crate::runtime::{DispatchRequest, Runtime};
use clap::{Args, Parser, Subcommand};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Parser, Debug)]
#[command(
    name = "hookrt",
    version,
    about = "Runs the hooks your Claude Code, Codex, opencode and hookrt files declare",
    disable_help_subcommand = true
)]
struct Cli {
    #[command(flatten)]
    shared: Shared,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Flags every command accepts (before or after the command name).
#[derive(Args, Debug, Clone, Default)]
struct Shared {
    /// Read only this config file instead of discovering files.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Home directory for global config files.
    #[arg(long, global = true, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Working directory (project files, hook cwd).
    #[arg(long, global = true, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Timeout for every hook without its own, in seconds.
    #[arg(long, global = true, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// OpenAI-compatible base URL for prompt hooks (with --llm-model).
    #[arg(long, global = true, value_name = "URL", requires = "llm_model")]
    llm_base_url: Option<String>,
    /// Model name for prompt hooks (with --llm-base-url).
    #[arg(long, global = true, value_name = "NAME", requires = "llm_base_url")]
    llm_model: Option<String>,
    /// API key for prompt hooks (sent as a Bearer token).
    #[arg(long, global = true, value_name = "KEY")]
    llm_key: Option<String>,
    /// Subagent runner for agent/subagent hooks without their own command.
    #[arg(long, global = true, value_name = "CMD")]
    proxy_command: Option<String>,
    /// What an infrastructure error does: warn, block or ignore.
    #[arg(long, global = true, value_name = "POLICY", value_parser = ["warn", "block", "ignore"])]
    on_error: Option<String>,
    /// Project directory (CLAUDE_PROJECT_DIR).
    #[arg(long, global = true, value_name = "DIR")]
    project_dir: Option<PathBuf>,
    /// Skip hooks not approved with `hookrt trust approve`: `project` (the default when given
    /// without a value: project and local files of every dialect, and Hermes hooks) or `all`.
    #[arg(long, global = true, value_name = "SCOPE", num_args = 0..=1, require_equals = true, default_missing_value = "project", value_parser = ["project", "all", "off"])]
    require_hook_approval: Option<String>,
    /// A Claude Code plugin directory whose hooks/hooks.json is loaded (repeatable).
    #[arg(long = "plugin", global = true, value_name = "DIR")]
    plugins: Vec<PathBuf>,
    /// Claude Code managed settings file (default /etc/claude-code/managed-settings.json).
    #[arg(long, global = true, value_name = "FILE")]
    managed_settings: Option<PathBuf>,
    /// Write execution history (one JSON line per dispatch that ran a hook) to FILE.
    #[arg(long, global = true, value_name = "FILE")]
    history: Option<PathBuf>,
    /// Where machine-wide Gemini, Cursor and Windsurf hook files live (default /etc).
    #[arg(long, global = true, value_name = "DIR")]
    system_dir: Option<PathBuf>,
    /// Events (comma-separated, any spelling) on which a hook that gave no answer denies.
    #[arg(long, global = true, value_name = "EVENTS", value_delimiter = ',')]
    fail_closed: Vec<String>,
    /// Longest context or message kept, in characters (default 10000).
    #[arg(long, global = true, value_name = "CHARS")]
    context_cap: Option<usize>,
    /// Claude `if` rules: evaluate, or ignore with a warning (listen's default, as the
    /// JavaScript implementation; env HOOKRT_IF_RULES).
    #[arg(long, global = true, value_name = "MODE", value_parser = ["evaluate", "ignore"])]
    if_rules: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the JSON-lines protocol on stdin/stdout.
    Listen,
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
    /// Consent for Hermes shell hooks: list, approve or revoke (command, event, script hash).
    Trust {
        #[command(subcommand)]
        action: TrustAction,
    },
    /// Print the hooks of one dialect's file as another's: claude, codex, codex-toml, opencode,
    /// gemini, cursor, copilot, windsurf, native (hermes and agents can be read). Units and
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
    /// Print the version.
    Version,
    /// Print help.
    Help,
}

#[derive(Subcommand, Debug)]
enum TrustAction {
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
    fn options(&self, listen: bool) -> RuntimeOptions {
        let if_rules = self.if_rules.as_deref().and_then(crate::config::IfRules::parse).or_else(|| {
            let from_env = std::env::var("HOOKRT_IF_RULES").ok();
            match from_env.as_deref().and_then(crate::config::IfRules::parse) {
                Some(r) => Some(r),
                None if listen => Some(crate::config::IfRules::Ignore),
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
            require_hook_approval: self
                .require_hook_approval
                .as_deref()
                .and_then(crate::trust::ApprovalScope::parse)
                .unwrap_or_default(),
            drop_in: listen,
            plugins: self
                .plugins
                .iter()
                .map(|root| crate::config::discovery::PluginDir { root: root.clone(), data_dir: None })
                .collect(),
            managed_settings_path: self.managed_settings.clone(),
            system_dir: self.system_dir.clone(),
            history: self.history.clone().map(|path| crate::history::HistoryOptions {
                path,
                max_bytes: None,
                payloads: false,
            }),
            context_cap: self.context_cap,
            fail_closed: self.fail_closed.clone(),
            if_rules,
            ..Default::default()
        }
    }
}

/// Where command output goes; stdout in production, a buffer in tests.
pub struct Io<'a> {
    pub out: &'a mut (dyn Write + Send),
    pub err: &'a mut (dyn Write + Send),
}

/// Runs the command line (without the program name); returns the exit code.
pub async fn main(argv: Vec<String>, shutdown: CancellationToken) -> i32 {
    crate::logging::init();
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    run(argv, shutdown, Io { out: &mut out, err: &mut err }).await
}

/// `hookrt history`: the table, JSON lines, `--follow` or `--html`.
async fn history(
    file: &std::path::Path,
    filter: &crate::history::view::Filter,
    (follow, json, html): (bool, bool, Option<PathBuf>),
    io: Io<'_>,
    shutdown: &CancellationToken,
) -> i32 {
    use crate::history::view;
    use std::io::IsTerminal;
    let color = !json && std::io::stdout().is_terminal();
    if follow {
        let _ = writeln!(io.err, "following {} (Ctrl-C to stop)", file.display());
        return match view::follow(file, filter, (json, color), io.out, shutdown).await {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: {e}");
                1
            }
        };
    }
    if !file.exists() && !crate::history::rotated(file).exists() {
        let _ = writeln!(io.err, "hookrt: no history at {}", file.display());
        return 1;
    }
    let (records, skipped) = view::read(file);
    if skipped > 0 {
        let _ = writeln!(io.err, "hookrt: skipped {skipped} broken line(s) in {}", file.display());
    }
    let records = view::select(records, filter);
    if let Some(out) = html {
        return match std::fs::write(&out, crate::history::html::page(&records)) {
            Ok(()) => {
                let runs: usize = records.iter().map(|r| r.runs.len()).sum();
                let _ = writeln!(io.err, "wrote {} ({} dispatch(es), {runs} run(s))", out.display(), records.len());
                0
            }
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", out.display());
                1
            }
        };
    }
    if !json {
        let _ = writeln!(io.out, "{}", view::HEADER);
    }
    match view::print(io.out, &records, json, color) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// `hookrt convert`: stdin input is copied to a private temporary file first, so the loader
/// reads it like any other file.
fn convert(from: &str, to: &str, file: &str, io: Io<'_>) -> i32 {
    use crate::convert::{convert_file, Format};
    let names = "claude, codex, codex-toml, opencode, gemini, cursor, copilot, windsurf, native";
    let (Some(f), Some(t)) = (Format::parse(from), Format::parse(to)) else {
        let _ = writeln!(io.err, "hookrt: --from and --to take one of: {names} (and hermes, agents to read)");
        return 1;
    };
    let mut _tmp = None;
    let path = if file == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            let _ = writeln!(io.err, "hookrt: cannot read stdin: {e}");
            return 1;
        }
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: {e}");
                return 1;
            }
        };
        let p = dir.path().join(f.file_name());
        if let Err(e) = std::fs::write(&p, text) {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
        _tmp = Some(dir);
        p
    } else {
        std::path::PathBuf::from(file)
    };
    let c = convert_file(&path, f, t);
    for w in &c.warnings {
        let _ = writeln!(io.err, "warning: {w}");
    }
    if c.converted == 0 {
        let _ = writeln!(io.err, "hookrt: nothing could be converted ({} hook(s) read)", c.read);
        return 1;
    }
    let _ = write!(io.out, "{}", c.text);
    0
}

/// [`main`] with explicit output streams (`listen` always uses the process stdio).
pub async fn run(argv: Vec<String>, shutdown: CancellationToken, io: Io<'_>) -> i32 {
    let cli = match Cli::try_parse_from(std::iter::once("hookrt".to_owned()).chain(argv)) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind::*;
            return match e.kind() {
                DisplayHelp | DisplayVersion => {
                    let _ = write!(io.out, "{}", e.render());
                    0
                }
                _ => {
                    let _ = write!(io.err, "{}", e.render());
                    1
                }
            };
        }
    };
    let command = match cli.command {
        None | Some(Command::Help) => {
            use clap::CommandFactory;
            let _ = writeln!(io.out, "{}", Cli::command().render_help());
            return 0;
        }
        Some(Command::Version) => {
            let _ = writeln!(io.out, "hookrt {}", env!("CARGO_PKG_VERSION"));
            return 0;
        }
        Some(Command::Convert { from, to, file }) => return convert(&from, &to, &file, io),
        Some(Command::History { file, session, event, hook, decision, limit, follow, json, html }) => {
            let file =
                file.or(cli.shared.history.clone()).or_else(|| std::env::var_os("HOOKRT_HISTORY").map(PathBuf::from));
            let Some(file) = file else {
                let _ = writeln!(io.err, "hookrt: no history file: pass --file, --history or set HOOKRT_HISTORY");
                return 1;
            };
            let filter = crate::history::view::Filter { session, event, hook, decision, limit };
            return history(&file, &filter, (follow, json, html), io, &shutdown).await;
        }
        Some(c) => c,
    };
    let rt = match Runtime::new(&cli.shared.options(matches!(command, Command::Listen))) {
        Ok(rt) => Arc::new(rt),
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    let code = match command {
        Command::Listen => {
            rt.warm_workers().await;
            let ended = listen::serve(rt.clone(), std::io::stdin(), std::io::stdout(), shutdown).await;
            // Every request is answered: no worker may outlive the server.
            crate::handler::worker::kill_all_now();
            match ended {
                Ended::Finished => 0,
                Ended::Interrupted => 130,
            }
        }
        Command::Validate { strict, json } => {
            let l = rt.loaded();
            if json {
                let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&l.diagnostics).unwrap_or_default());
            } else {
                for d in &l.diagnostics {
                    let sev = if d.severity == Severity::Error { "error" } else { "warning" };
                    let file = d.file.as_deref().unwrap_or("-");
                    let _ = writeln!(io.out, "{sev}: {file}: {}", d.message);
                }
                let hooks = l.table.hooks().len();
                let _ = writeln!(
                    io.out,
                    "{} file(s), {hooks} hook(s), {} problem(s)",
                    l.sources.len(),
                    l.diagnostics.len()
                );
            }
            let errors = l.diagnostics.iter().any(|d| d.severity == Severity::Error);
            let warnings = l.diagnostics.iter().any(|d| d.severity == Severity::Warning);
            if errors || (strict && warnings) {
                1
            } else {
                0
            }
        }
        Command::Run { event, payload, subject } => {
            let payload = match read_payload(payload.as_deref()) {
                Ok(p) => p,
                Err(e) => {
                    let _ = writeln!(io.err, "hookrt: {e}");
                    return 1;
                }
            };
            let req = DispatchRequest { event, payload, subject, cwd: None, progress: None };
            match rt.dispatch(req, &shutdown).await {
                Ok(r) => {
                    let v = serde_json::json!({"outcome": r.outcome, "runs": r.runs, "canonical": r.canonical});
                    let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&v).unwrap_or_default());
                    if r.outcome.decision == crate::decode::Decision::Deny {
                        2
                    } else {
                        0
                    }
                }
                Err(e) => {
                    let _ = writeln!(io.err, "hookrt: {e}");
                    1
                }
            }
        }
        Command::Dump => {
            let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&rt.dump()).unwrap_or_default());
            0
        }
        Command::List => {
            let l = rt.loaded();
            for s in &l.sources {
                let _ = writeln!(io.out, "{}\t{}\t{}", s.scope.as_str(), s.dialect.as_str(), s.file);
                for h in l.table.hooks().iter().filter(|h| h.file.display().to_string() == s.file) {
                    let state = if h.enabled { "enabled" } else { "disabled" };
                    let _ = writeln!(io.out, "  {}\t{}\t{}", h.id, h.matcher_text.as_deref().unwrap_or("*"), state);
                }
            }
            0
        }
        Command::Trust { action } => trust(&rt, action, io),
        Command::Doctor { json } => {
            let reports = crate::doctor::run(&rt).await;
            let l = rt.loaded();
            if json {
                let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&reports).unwrap_or_default());
            } else {
                for d in &l.diagnostics {
                    let _ = writeln!(io.out, "config: {}: {}", d.file.as_deref().unwrap_or("-"), d.message);
                }
                if l.table.disabled {
                    let _ = writeln!(io.out, "note: hooks are switched off (disableAllHooks or HOOKS=0)");
                }
                for r in &reports {
                    let mark = if r.problems.is_empty() { "ok" } else { "PROBLEM" };
                    let decision = r.decision.and_then(|d| serde_json::to_value(d).ok());
                    let decision = decision.as_ref().and_then(Value::as_str).unwrap_or("-");
                    let _ = writeln!(io.out, "{mark}\t{}\tdecision={decision}\t{} ms", r.id, r.duration_ms);
                    for p in &r.problems {
                        let _ = writeln!(io.out, "\t- {p}");
                    }
                }
                let _ = writeln!(
                    io.out,
                    "{} hook(s), {} with problems",
                    reports.len(),
                    reports.iter().filter(|r| !r.problems.is_empty()).count()
                );
            }
            if reports.iter().any(|r| !r.problems.is_empty()) {
                1
            } else {
                0
            }
        }
        Command::Version | Command::Help | Command::Convert { .. } | Command::History { .. } => 0,
    };
    // The last dispatches' history lines are written before the process exits.
    rt.flush_history();
    code
}

fn trust(rt: &Runtime, action: TrustAction, io: Io<'_>) -> i32 {
    use crate::trust::{store_path, TrustStatus, TrustStore};
    let path = store_path(&rt.options().load.home);
    let listed = rt.loaded().listed.clone();
    match action {
        TrustAction::List { json } => {
            if json {
                let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&listed).unwrap_or_default());
            } else {
                for h in &listed {
                    let status = serde_json::to_value(h.status).ok().and_then(|v| v.as_str().map(str::to_owned));
                    let hash = h.sha256.as_deref().map(|s| &s[..12.min(s.len())]).unwrap_or("-");
                    let _ = writeln!(
                        io.out,
                        "{}\t{}\t{}\t{}\t{}",
                        status.unwrap_or_default(),
                        h.scope.as_str(),
                        h.event,
                        hash,
                        h.command
                    );
                }
            }
            0
        }
        TrustAction::Approve { all, scope, commands } => {
            if !all && commands.is_empty() {
                let _ = writeln!(io.err, "hookrt: name the commands to approve, or pass --all");
                return 1;
            }
            let mut store = TrustStore::load(&path);
            let mut n = 0;
            let in_scope =
                |h: &&crate::config::consent::ListedHook| scope.as_deref().is_none_or(|s| h.scope.as_str() == s);
            for h in listed.iter().filter(in_scope).filter(|h| all || commands.contains(&h.command)) {
                if h.status != TrustStatus::Approved || all {
                    store.approve(&h.event, &h.command, h.sha256.as_deref());
                    n += 1;
                }
            }
            if let Some(missing) = commands.iter().find(|c| !listed.iter().any(|h| &h.command == *c)) {
                let _ = writeln!(io.err, "hookrt: no listed hook runs {missing:?}");
                return 1;
            }
            if let Err(e) = store.save(&path) {
                let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", path.display());
                return 1;
            }
            let _ = writeln!(io.out, "approved {n} hook(s) in {}", path.display());
            0
        }
        TrustAction::Revoke { command } => {
            let mut store = TrustStore::load(&path);
            let n = store.revoke(&command);
            if let Err(e) = store.save(&path) {
                let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", path.display());
                return 1;
            }
            let _ = writeln!(io.out, "revoked {n} approval(s)");
            0
        }
    }
}

fn read_payload(arg: Option<&str>) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let text = match arg {
        None => return Ok(Default::default()),
        Some("-") => {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| format!("cannot read the payload from stdin: {e}"))?;
            s
        }
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("cannot read the payload file {f}: {e}"))?,
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(o)) => Ok(o),
        Ok(_) => Err("the payload must be a JSON object".into()),
        Err(e) => Err(format!("the payload is not valid JSON: {e}")),
    }
}
