//! The client half of `hookrt serve` in `hookrt hook`: one call per connection (see
//! [`super::serve`] for the protocol); `None` whenever the server cannot answer, so the hook
//! runs in-process instead.

use crate::harness::reply::Reply;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

const CONNECT: Duration = Duration::from_millis(100);
const ACK: Duration = Duration::from_millis(300);
/// How long past the hooks' budget the client waits for the reply.
const MARGIN: Duration = Duration::from_secs(10);
pub(crate) const MAX_REQUEST: u64 = 64 << 20;

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
