//! `hookrt serve`: one long-lived process per user holding a warm runtime per project (and
//! per harness and flags) for `hookrt hook`, so a hook call costs a socket round trip instead
//! of loading every hook file, and worker hooks stay alive across sessions. Each runtime is
//! reloaded when any file it read, or could read, changes (size, modification time). History
//! is written as in-process.
//!
//! The socket (`$HOOKRT_SOCKET`, `$XDG_RUNTIME_DIR/hookrt/serve.sock`, else
//! `~/.cache/hookrt/serve.sock`) sits in a folder only the user can enter, is itself mode
//! 0600, and a connection from another user id is dropped (`SO_PEERCRED`).
//!
//! Protocol, one call per connection: the client writes one JSON line `{argv, env, cwd,
//! stdin}` (its own command line, environment, directory and stdin); the server answers a line
//! `{"ack": true}` at once and, once the hooks are done, the reply `{stdout, stderr, code}`.
//! The client answers in-process when there is no socket, no ack within 300 ms, or the
//! connection ends before the reply (a server killed mid-call).

use crate::cli::args::{Cli, Command};
use crate::cli::inside::env;
use crate::cli::serve_client::{socket_path, Request, MAX_REQUEST};
use crate::cli::warm::{answer_call, failed, Cache, Call};
use crate::cli::Io;
use crate::harness::reply::Reply;
use clap::Parser;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;

/// One call: the same steps as `hookrt hook` in-process, with the caller's flags, environment
/// and directory, on a warm runtime.
async fn answer(req: Request, cache: &Cache, shutdown: &CancellationToken) -> Reply {
    let Ok(cli) = Cli::try_parse_from(std::iter::once("hookrt".to_owned()).chain(req.argv.iter().cloned())) else {
        return failed("not a hookrt hook command line".into());
    };
    let Some(Command::Hook { harness, event, include_own, budget }) = cli.command else {
        return failed("not a hookrt hook command line".into());
    };
    let call = Call { harness: &harness, event: event.as_deref(), include_own, budget };
    answer_call(&cli.shared, call, req.stdin.as_bytes(), (&req.env, req.cwd.clone()), cache, shutdown).await
}

/// Serves one connection: the caller must be this user.
async fn connection(stream: UnixStream, cache: Arc<Cache>, shutdown: CancellationToken) {
    let me = nix::unistd::getuid().as_raw();
    if stream.peer_cred().map(|c| c.uid()).ok() != Some(me) {
        return;
    }
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read.take(MAX_REQUEST)).lines();
    let Ok(Some(line)) = lines.next_line().await else { return };
    let Ok(req) = serde_json::from_str::<Request>(&line) else { return };
    if write.write_all(b"{\"ack\":true}\n").await.is_err() {
        return;
    }
    let reply = answer(req, &cache, &shutdown).await;
    let text = serde_json::to_string(&reply).unwrap_or_default() + "\n";
    let _ = write.write_all(text.as_bytes()).await;
}

/// Binds the socket: its folder made private, a stale socket replaced, a live one refused.
async fn bind(path: &Path) -> Result<UnixListener, String> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
    if path.exists() {
        if UnixStream::connect(path).await.is_ok() {
            return Err(format!("another hookrt serve is listening on {}", path.display()));
        }
        let _ = std::fs::remove_file(path);
    }
    let listener = UnixListener::bind(path).map_err(|e| format!("cannot listen on {}: {e}", path.display()))?;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    Ok(listener)
}

/// `hookrt serve`: until SIGINT/SIGTERM; then every runtime is closed (workers stopped) and the
/// socket removed. With an HTTP endpoint recorded (`install claude --http`) it listens there too.
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
    let path = socket.unwrap_or_else(|| socket_path(&env));
    let listener = match bind(&path).await {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    let _ = writeln!(io.err, "hookrt serve: listening on {}", path.display());
    let cache: Arc<Cache> = Arc::default();
    if let Some(c) = http {
        match tokio::net::TcpListener::bind(("127.0.0.1", c.port)).await {
            Ok(l) => {
                let _ = writeln!(io.err, "hookrt serve: http hooks on http://127.0.0.1:{}/hook/claude", c.port);
                tokio::spawn(crate::cli::serve_http::listen(l, c.token, cache.clone(), shutdown.clone()));
            }
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: cannot listen on 127.0.0.1:{}: {e}", c.port);
            }
        }
    }
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            conn = listener.accept() => match conn {
                Ok((stream, _)) => {
                    tokio::spawn(connection(stream, cache.clone(), shutdown.child_token()));
                }
                Err(e) => tracing::warn!("hookrt serve: accept failed: {e}"),
            },
        }
    }
    let _ = std::fs::remove_file(&path);
    crate::cli::warm::close_all(&cache);
    0
}
