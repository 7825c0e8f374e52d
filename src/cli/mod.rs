//! The `hookrt` command (docs/cli.md): one function per subcommand, shared flags, and bad flags
//! printing a message and exiting 1. Parsing is clap's ([`args`]).

mod accept;
mod args;
mod convert;
mod history;
pub(crate) mod inside;
mod inspect;
mod run;
mod schema;
mod serve;
mod serve_client;
mod serve_http;
mod trust;
mod warm;

use crate::runtime::Runtime;
use args::{Cli, Command};
use clap::Parser;
use std::io::Write;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Where command output goes; stdout in production, a buffer in tests.
pub struct Io<'a> {
    pub out: &'a mut (dyn Write + Send),
    pub err: &'a mut (dyn Write + Send),
}

/// Runs the command line (without the program name); returns the exit code.
pub async fn main(argv: Vec<String>, shutdown: CancellationToken) -> i32 {
    crate::runtime::logging::init();
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    run(argv, shutdown, Io { out: &mut out, err: &mut err }).await
}

/// The parsed command line, or the exit code of printing help, a version or a flag error.
fn parse(argv: Vec<String>, io: &mut Io<'_>) -> Result<Cli, i32> {
    Cli::try_parse_from(std::iter::once("hookrt".to_owned()).chain(argv)).map_err(|e| {
        use clap::error::ErrorKind::*;
        match e.kind() {
            DisplayHelp | DisplayVersion => {
                let _ = write!(io.out, "{}", e.render());
                0
            }
            _ => {
                let _ = write!(io.err, "{}", e.render());
                1
            }
        }
    })
}

/// The commands that need no runtime of their own (help, version, convert, history, and
/// hookrt inside a harness): their exit code, or the command and the streams back.
async fn without_runtime<'a>(
    command: Option<Command>,
    shared: &args::Shared,
    raw: &[String],
    io: Io<'a>,
    shutdown: &CancellationToken,
) -> Result<i32, (Command, Io<'a>)> {
    Ok(match command {
        Some(Command::Hook { harness, event, include_own, budget }) => {
            inside::hook(shared, (&harness, event, include_own, budget), raw, io, shutdown).await
        }
        Some(Command::Install { harness, scope, dry_run, program, http }) => {
            inside::install(shared, (&harness, &scope, dry_run, program), http, io)
        }
        Some(Command::Uninstall { harness, scope, dry_run }) => {
            inside::uninstall(shared, (&harness, &scope, dry_run), io)
        }
        Some(Command::Serve { socket, print_token }) => serve::serve(shared, (socket, print_token), io, shutdown).await,
        None | Some(Command::Help) => {
            use clap::CommandFactory;
            let _ = writeln!(io.out, "{}", Cli::command().render_help());
            0
        }
        Some(Command::Version) => {
            let _ = writeln!(io.out, "hookrt {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(Command::Convert { from, to, file }) => convert::convert(&from, &to, &file, io),
        Some(Command::Schema { dialect, out }) => schema::schema(dialect, out, io),
        Some(Command::History { file, session, event, hook, decision, limit, follow, json, html }) => {
            let filter = crate::runtime::history::view::Filter { session, event, hook, decision, limit };
            let file = file.or(shared.history.clone()).or_else(|| inside::history_file(shared));
            history::history(file, None, &filter, (follow, json, html), io, shutdown).await
        }
        Some(c) => return Err((c, io)),
    })
}

/// [`main`] with explicit output streams (`listen` always uses the process stdio).
pub async fn run(argv: Vec<String>, shutdown: CancellationToken, io: Io<'_>) -> i32 {
    let code = command(argv, shutdown, io).await;
    // A one-shot command exits as soon as it has answered, before a worker's supervisor could
    // stop it gracefully: no worker outlives the command (one that ignores the end of its input
    // would otherwise run on, orphaned).
    crate::handler::worker::kill_all_now();
    code
}

/// Parses and runs one command.
async fn command(argv: Vec<String>, shutdown: CancellationToken, mut io: Io<'_>) -> i32 {
    // `hook` hands its own command line to `hookrt serve`.
    let raw = if argv.iter().any(|a| a == "hook") { argv.clone() } else { Vec::new() };
    let cli = match parse(argv, &mut io) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let command = match without_runtime(cli.command, &cli.shared, &raw, io, &shutdown).await {
        Ok(code) => return code,
        Err((c, back)) => {
            io = back;
            c
        }
    };
    let mut options = cli.shared.options(matches!(command, Command::Listen));
    // `validate`, `list` and `dump` describe the files, not whether their harnesses trust them
    // (`trust list` and `doctor` say that), unless a mode is asked for.
    if matches!(command, Command::Validate { .. } | Command::List | Command::Dump) {
        options.require_hook_approval.get_or_insert(crate::vocab::ApprovalScope::Off);
    }
    let rt = match Runtime::new(&options) {
        Ok(rt) => Arc::new(rt),
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    let code = match command {
        Command::Listen => run::listen(rt.clone(), shutdown).await,
        Command::Validate { strict, json } => inspect::validate(&rt, strict, json, io),
        Command::Run { event, payload, subject } => run::run(&rt, event, payload, subject, &shutdown, io).await,
        Command::Dump => inspect::dump(&rt, io),
        Command::List => inspect::list(&rt, io),
        Command::Trust { action } => trust::trust(&rt, action, io),
        Command::Doctor { json } => inspect::doctor(&rt, &cli.shared, json, io).await,
        Command::Version
        | Command::Help
        | Command::Convert { .. }
        | Command::Schema { .. }
        | Command::History { .. }
        | Command::Hook { .. }
        | Command::Install { .. }
        | Command::Uninstall { .. }
        | Command::Serve { .. } => 0,
    };
    // The last dispatches' history lines are written before the process exits.
    rt.flush_history();
    code
}
