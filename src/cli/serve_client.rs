//! The client half of `hookrt serve` in `hookrt hook`: one call per connection (see
//! [`super::serve`] for the protocol); `None` whenever the server cannot answer, so the hook
//! runs in-process instead. The client hands the server its environment, stdin and command
//! line, so it talks only to a server that is this user's: the socket's folder must be the
//! user's own and private, and the process listening must run as the user (`SO_PEERCRED`).

use crate::harness::reply::Reply;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

const CONNECT: Duration = Duration::from_millis(100);
const ACK: Duration = Duration::from_millis(300);
/// How long past the hooks' budget the client waits for the reply.
const MARGIN: Duration = Duration::from_secs(10);
/// The longest request line the server reads; a larger call is answered in-process.
pub(crate) const MAX_REQUEST: u64 = 16 << 20;
/// The longest reply line the client reads.
const MAX_REPLY: u64 = 64 << 20;

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.is_empty())
}

/// One call: the client's command line, environment, directory and stdin.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Request {
    pub(crate) argv: Vec<String>,
    pub(crate) env: BTreeMap<String, String>,
    pub(crate) cwd: Option<PathBuf>,
    pub(crate) stdin: String,
}

/// Where the socket is: `$HOOKRT_SOCKET`, else `$XDG_RUNTIME_DIR/hookrt/serve.sock`, else
/// `~/.cache/hookrt/serve.sock`; none without any of them (never a shared temp folder).
pub(crate) fn socket_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(p) = env("HOOKRT_SOCKET") {
        return Some(PathBuf::from(p));
    }
    let base = env("XDG_RUNTIME_DIR").map(PathBuf::from).or_else(|| env("HOME").map(|h| Path::new(&h).join(".cache")));
    base.map(|b| b.join("hookrt").join("serve.sock"))
}

/// Why a socket's folder is not one hookrt trusts: it must be a real folder (not a link), owned
/// by this user, that nobody else can enter.
pub(crate) fn folder_problem(dir: &Path) -> Option<String> {
    let me = nix::unistd::getuid().as_raw();
    match std::fs::symlink_metadata(dir) {
        Err(e) => Some(format!("{}: {e}", dir.display())),
        Ok(m) if !m.is_dir() => Some(format!("{} is not a folder (a link?)", dir.display())),
        Ok(m) if m.uid() != me => Some(format!("{} belongs to user {}, not to {me}", dir.display(), m.uid())),
        Ok(m) if m.permissions().mode() & 0o077 != 0 => {
            Some(format!("{} is open to other users (mode {:o})", dir.display(), m.permissions().mode() & 0o777))
        }
        Ok(_) => None,
    }
}

/// Whether the process at the other end of a socket runs as this user.
pub(crate) fn peer_is_me(stream: &UnixStream) -> bool {
    stream.peer_cred().map(|c| c.uid()).ok() == Some(nix::unistd::getuid().as_raw())
}

/// The client half: the reply from a running `hookrt serve`, or `None` to answer in-process.
/// Only a plain installed call (`hook <harness>` with install's flags) is sent: any other flag
/// (`--config`, `--history`, ...) is this process's own business.
pub(crate) async fn ask(argv: &[String], stdin: &[u8], budget: Duration) -> Option<Reply> {
    let path = socket_path(&env)?;
    if crate::vocab::hook_call(argv).is_none() || !path.exists() {
        return None;
    }
    if let Some(why) = path.parent().and_then(folder_problem) {
        tracing::warn!("not asking hookrt serve: {why}");
        return None;
    }
    let stream = tokio::time::timeout(CONNECT, UnixStream::connect(&path)).await.ok()?.ok()?;
    if !peer_is_me(&stream) {
        tracing::warn!("not asking hookrt serve: {} is served by another user", path.display());
        return None;
    }
    let req = Request {
        argv: argv.to_vec(),
        env: std::env::vars().collect(),
        cwd: std::env::current_dir().ok(),
        stdin: String::from_utf8_lossy(stdin).into_owned(),
    };
    let line = serde_json::to_string(&req).ok()? + "\n";
    if line.len() as u64 > MAX_REQUEST {
        return None;
    }
    let (read, mut write) = stream.into_split();
    write.write_all(line.as_bytes()).await.ok()?;
    let mut lines = BufReader::new(read.take(MAX_REPLY)).lines();
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
