//! `hookrt serve`: one long-lived process per user holding a warm runtime per project (and
//! per harness and flags) for `hookrt hook`, so a hook call costs a socket round trip instead
//! of loading every hook file, and worker hooks stay alive across sessions. Each runtime is
//! reloaded when any file it read, or could read, changes (size, modification time). History
//! is written as in-process.
//!
//! A faithful and private deputy (docs/security.md): the socket (`$HOOKRT_SOCKET`,
//! `$XDG_RUNTIME_DIR/hookrt/serve.sock`, else `~/.cache/hookrt/serve.sock`) sits in a folder
//! that is the user's own and mode 0700, is itself mode 0600, and a connection from another
//! user id is dropped (`SO_PEERCRED`; the client checks the server the same way). A call's hooks
//! start from the calling `hookrt hook`'s environment, never the server's, and only installed
//! calls (`hook <harness>` with install's flags) are served. Connections, request lines and
//! the time to send one are bounded; failing accepts back off.
//!
//! Protocol, one call per connection: the client writes one JSON line `{argv, env, cwd,
//! stdin}` (its own command line, environment, directory and stdin); the server answers a line
//! `{"ack": true}` at once and, once the hooks are done, the reply `{stdout, stderr, code}`.
//! The client answers in-process when there is no socket, no ack within 300 ms, or the
//! connection ends before the reply (a server killed mid-call).

use crate::cli::accept::{Backoff, MAX_CONNECTIONS};
use crate::cli::args::{Cli, Command};
use crate::cli::inside::env;
use crate::cli::serve_client::{folder_problem, peer_is_me, socket_path, Request, MAX_REQUEST};
use crate::cli::warm::{answer_call, failed, Cache, Call};
use crate::cli::Io;
use crate::harness::reply::Reply;
use clap::Parser;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// How long a client may take to send its request line.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// One call: the same steps as `hookrt hook` in-process, with the caller's environment and
/// directory, on a warm runtime; only a command line `hookrt install` could have written.
async fn answer(req: Request, cache: &Cache, shutdown: &CancellationToken) -> Reply {
    if crate::vocab::hook_call(&req.argv).is_none() {
        return failed("not an installed hookrt hook command line (hookrt serve takes only install's flags)".into());
    }
    let Ok(cli) = Cli::try_parse_from(std::iter::once("hookrt".to_owned()).chain(req.argv.iter().cloned())) else {
        return failed("not a hookrt hook command line".into());
    };
    let Some(Command::Hook { harness, event, include_own, budget }) = cli.command else {
        return failed("not a hookrt hook command line".into());
    };
    let call = Call { harness: &harness, event: event.as_deref(), include_own, budget };
    let base = crate::cli::warm::session_env(&req.env);
    answer_call(&cli.shared, call, req.stdin.as_bytes(), (&req.env, req.cwd.clone(), base), cache, shutdown).await
}

/// Serves one connection: the caller must be this user and send its request in time.
async fn connection(stream: UnixStream, cache: Arc<Cache>, shutdown: CancellationToken) {
    if !peer_is_me(&stream) {
        return;
    }
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read.take(MAX_REQUEST)).lines();
    let Ok(Ok(Some(line))) = tokio::time::timeout(REQUEST_TIMEOUT, lines.next_line()).await else { return };
    let Ok(req) = serde_json::from_str::<Request>(&line) else { return };
    drop(lines);
    if write.write_all(b"{\"ack\":true}\n").await.is_err() {
        return;
    }
    let reply = answer(req, &cache, &shutdown).await;
    let text = serde_json::to_string(&reply).unwrap_or_default() + "\n";
    let _ = write.write_all(text.as_bytes()).await;
}

/// Binds the socket: its folder the user's own and private (made so, or refused), a stale
/// socket replaced, a live one refused.
async fn bind(path: &Path) -> Result<UnixListener, String> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
    }
    if let Some(why) = folder_problem(dir) {
        return Err(format!("refusing to listen: {why}"));
    }
    if std::fs::symlink_metadata(path).is_ok() {
        if UnixStream::connect(path).await.is_ok() {
            return Err(format!("another hookrt serve is listening on {}", path.display()));
        }
        let _ = std::fs::remove_file(path);
    }
    let listener = UnixListener::bind(path).map_err(|e| format!("cannot listen on {}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("cannot make {} private: {e}", path.display()))?;
    Ok(listener)
}

/// `hookrt serve`: until SIGINT/SIGTERM; then every runtime is closed (workers stopped) and the
/// socket removed. With an HTTP endpoint recorded (`install claude --http`) it listens there too,
/// and exits when it cannot.
pub(crate) async fn serve(
    shared: &crate::cli::args::Shared,
    (socket, print_token): (Option<PathBuf>, bool),
    io: Io<'_>,
    shutdown: &CancellationToken,
) -> i32 {
    let state = crate::cli::inside::target(shared, None).state;
    let http = crate::inside::http::load(&state);
    if print_token {
        return match http {
            Some(c) => {
                let _ = writeln!(io.out, "{}", c.token);
                0
            }
            None => {
                let _ = writeln!(io.err, "hookrt: no HTTP endpoint yet: run `hookrt install claude --http` first");
                1
            }
        };
    }
    let Some(path) = socket.or_else(|| socket_path(&env)) else {
        let _ = writeln!(io.err, "hookrt: no place for the socket: set HOME, XDG_RUNTIME_DIR or HOOKRT_SOCKET");
        return 1;
    };
    let listener = match bind(&path).await {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    let cache: Arc<Cache> = Arc::default();
    if let Some(c) = http {
        match tokio::net::TcpListener::bind(("127.0.0.1", c.port)).await {
            Ok(l) => {
                let _ = writeln!(io.err, "hookrt serve: http hooks on http://127.0.0.1:{}/hook/claude", c.port);
                tokio::spawn(crate::cli::serve_http::listen(l, c.token, cache.clone(), shutdown.clone()));
            }
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                let _ = writeln!(
                    io.err,
                    "hookrt: cannot listen on 127.0.0.1:{}: {e} (another program holds the port Claude Code's http hooks call: stop it, or run `hookrt install claude --http` again for a new port)",
                    c.port
                );
                return 1;
            }
        }
    }
    let _ = writeln!(io.err, "hookrt serve: listening on {}", path.display());
    accept_loop(&listener, &cache, shutdown).await;
    let _ = std::fs::remove_file(&path);
    crate::cli::warm::close_all(&cache);
    0
}

/// Accepts socket connections until shutdown, at most [`MAX_CONNECTIONS`] at once.
async fn accept_loop(listener: &UnixListener, cache: &Arc<Cache>, shutdown: &CancellationToken) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut backoff = Backoff::new();
    loop {
        let permit = tokio::select! {
            _ = shutdown.cancelled() => break,
            p = slots.clone().acquire_owned() => p,
        };
        let Ok(permit) = permit else { break };
        let conn = tokio::select! {
            _ = shutdown.cancelled() => break,
            c = listener.accept() => c,
        };
        match conn {
            Ok((stream, _)) => {
                backoff.succeeded("socket");
                let (cache, token) = (cache.clone(), shutdown.child_token());
                tokio::spawn(async move {
                    connection(stream, cache, token).await;
                    drop(permit);
                });
            }
            Err(e) => backoff.failed("socket", &e).await,
        }
    }
}
