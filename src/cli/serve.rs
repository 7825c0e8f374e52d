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
use crate::cli::inside::{call_of, env, hook_options};
use crate::cli::Io;
use crate::harness::reply::Reply;
use crate::runtime::Runtime;
use clap::Parser;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;

const CONNECT: Duration = Duration::from_millis(100);
const ACK: Duration = Duration::from_millis(300);
/// How long past the hooks' budget the client waits for the reply.
const MARGIN: Duration = Duration::from_secs(10);
const MAX_REQUEST: u64 = 64 << 20;

/// Variables that change what a runtime loads: part of its cache key.
const KEYED_ENV: &[&str] = &[
    "HOME",
    "HOOKRT_HOME",
    "HOOKS_ADAPTER_HOME",
    "HOOKRT_CONFIG",
    "HOOKS_ADAPTER_CONFIG",
    "HOOKS",
    "HOOKRT_IF_RULES",
    "HOOKRT_HISTORY",
    "XDG_STATE_HOME",
    "CODEX_HOME",
    "HERMES_HOME",
    "COPILOT_HOME",
    "GEMINI_CLI_TRUST_WORKSPACE",
    "COPILOT_ALLOW_ALL",
    "HERMES_ACCEPT_HOOKS",
];

#[derive(Debug, Serialize, Deserialize)]
struct Request {
    argv: Vec<String>,
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    stdin: String,
}

/// Where the socket is.
pub(crate) fn socket_path(env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    if let Some(p) = env("HOOKRT_SOCKET") {
        return PathBuf::from(p);
    }
    let base = env("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("hookrt").join("serve.sock")
}

/// The client half: the reply from a running `hookrt serve`, or `None` to answer in-process.
pub(crate) async fn ask(argv: &[String], stdin: &[u8], budget: Duration) -> Option<Reply> {
    let path = socket_path(&env);
    if argv.is_empty() || !path.exists() {
        return None;
    }
    let stream = tokio::time::timeout(CONNECT, UnixStream::connect(&path)).await.ok()?.ok()?;
    let req = Request {
        argv: argv.to_vec(),
        env: std::env::vars().collect(),
        cwd: std::env::current_dir().ok(),
        stdin: String::from_utf8_lossy(stdin).into_owned(),
    };
    let (read, mut write) = stream.into_split();
    let line = serde_json::to_string(&req).ok()? + "\n";
    write.write_all(line.as_bytes()).await.ok()?;
    let mut lines = BufReader::new(read.take(MAX_REQUEST)).lines();
    let ack = tokio::time::timeout(ACK, lines.next_line()).await.ok()?.ok()??;
    if !ack.contains("\"ack\"") {
        return None;
    }
    let reply = tokio::time::timeout(budget + MARGIN, lines.next_line()).await;
    match reply {
        Ok(Ok(Some(l))) => serde_json::from_str(&l).ok(),
        _ => {
            tracing::warn!("hookrt serve stopped answering; running the hooks in this process");
            None
        }
    }
}

/// A warm runtime and the state of the files it depends on.
pub(crate) struct Warm {
    rt: Arc<Runtime>,
    stamp: Vec<(PathBuf, Option<(u64, std::time::SystemTime)>)>,
}

pub(crate) type Cache = Mutex<HashMap<String, Warm>>;

/// The files a runtime read or could read, with their size and modification time.
fn stamp(rt: &Runtime) -> Vec<(PathBuf, Option<(u64, std::time::SystemTime)>)> {
    let mut paths: Vec<PathBuf> =
        crate::load::discovery::candidates(&rt.options().load).into_iter().map(|c| c.path).collect();
    paths.extend(rt.loaded().sources.iter().map(|s| PathBuf::from(&s.file)));
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|p| {
            let m = std::fs::metadata(&p).ok().and_then(|m| Some((m.len(), m.modified().ok()?)));
            (p, m)
        })
        .collect()
}

/// The cached runtime for a key, reloaded when its files changed, or a new one.
fn warm(cache: &Cache, key: String, make: impl FnOnce() -> Result<Runtime, String>) -> Result<Arc<Runtime>, String> {
    let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(w) = c.get_mut(&key) {
        let now = stamp(&w.rt);
        if now != w.stamp {
            w.rt.reload();
            w.stamp = stamp(&w.rt);
        }
        return Ok(w.rt.clone());
    }
    let rt = Arc::new(make()?);
    let s = stamp(&rt);
    c.insert(key, Warm { rt: rt.clone(), stamp: s });
    Ok(rt)
}

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

fn failed(m: String) -> Reply {
    Reply { stderr: format!("hookrt serve: {m}\n"), ..Default::default() }
}

/// What a call asks, whichever door it came through (the socket, the HTTP endpoint).
pub(crate) struct Call<'a> {
    pub harness: &'a str,
    pub event: Option<&'a str>,
    pub include_own: bool,
    pub budget: f64,
}

/// Answers one call on the warm runtime for its options and environment.
pub(crate) async fn answer_call(
    shared: &crate::cli::args::Shared,
    call: Call<'_>,
    stdin: &[u8],
    (env_map, cwd): (&BTreeMap<String, String>, Option<PathBuf>),
    cache: &Cache,
    shutdown: &CancellationToken,
) -> Reply {
    let Some(dialect) = crate::inside::host(call.harness) else { return failed(format!("unknown harness {}", call.harness)) };
    let (event, payload) = match call_of(stdin, call.event) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let lookup = |k: &str| env_map.get(k).cloned();
    let options = hook_options(shared, (dialect, call.include_own), &payload, cwd, &lookup);
    let keyed: Vec<Option<&String>> = KEYED_ENV.iter().map(|k| env_map.get(*k)).collect();
    let key = format!("{options:?}|{keyed:?}");
    let rt = match warm(cache, key, || Runtime::with_env(&options, &lookup).map_err(|e| e.to_string())) {
        Ok(rt) => rt,
        Err(e) => return failed(e),
    };
    let budget = Duration::try_from_secs_f64(call.budget).unwrap_or(Duration::from_secs(590));
    let reply = crate::inside::hook::answer(&rt, dialect, (event, payload), budget, shutdown).await;
    // The call's history line is on disk when the harness hears the answer, as in-process.
    rt.flush_history();
    reply
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
    for w in cache.lock().unwrap_or_else(|p| p.into_inner()).values() {
        w.rt.close();
    }
    0
}
