//! The loopback HTTP endpoint of `hookrt serve` for Claude Code's `type: "http"` hooks
//! (`hookrt install claude --http`): no process starts per event. Its port and token are
//! chosen once, at the first such install, and kept in `<state>/serve-http.json` (mode 0600);
//! Claude sends the token from its environment (`headers` with `$HOOKRT_TOKEN`, allowed by
//! `allowedEnvVars`), so it is never written into a project's files.

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Where the endpoint listens and the token it wants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct HttpConfig {
    pub(crate) port: u16,
    pub(crate) token: String,
}

/// The variable Claude Code reads the token from.
pub(crate) const TOKEN_VAR: &str = crate::vocab::SERVE_TOKEN_VAR;

pub(crate) fn config_path(state: &Path) -> PathBuf {
    state.join("serve-http.json")
}

/// The recorded endpoint, if an install made one.
pub(crate) fn load(state: &Path) -> Option<HttpConfig> {
    serde_json::from_str(&std::fs::read_to_string(config_path(state)).ok()?).ok()
}

/// The recorded endpoint, or a new one: a free loopback port and 32 random bytes.
pub(crate) fn ensure(state: &Path) -> std::io::Result<HttpConfig> {
    if let Some(c) = load(state) {
        return Ok(c);
    }
    let port = std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port();
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let c = HttpConfig { port, token: hex::encode(bytes) };
    // Created 0600 in a 0700 folder from the start: the token is never readable by others.
    let text = serde_json::to_string_pretty(&c).map_err(std::io::Error::other)?;
    crate::vocab::files::write_private(&config_path(state), text.as_bytes())?;
    Ok(c)
}

/// The URL of a harness's endpoint.
pub(crate) fn url(port: u16, harness: &str) -> String {
    format!("http://127.0.0.1:{port}/hook/{harness}")
}

/// Compares a presented token without stopping at the first differing byte.
pub(crate) fn token_matches(presented: &str, wanted: &str) -> bool {
    let (a, b) = (presented.as_bytes(), wanted.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The proof `GET /hookrt/whoami` gives for a nonce: HMAC-SHA256 under the token, hex.
pub(crate) fn proof(token: &str, nonce: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(token.as_bytes()) else { return String::new() };
    mac.update(b"hookrt serve whoami ");
    mac.update(nonce.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Who holds the endpoint's port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listener {
    /// `hookrt serve` with this token.
    Serve,
    /// Something else answers there.
    Other,
    /// Nothing listens.
    None,
}

/// Asks the program on the port to prove it knows the token (without sending the token).
pub(crate) async fn identify(port: u16, token: &str) -> Listener {
    let Ok(Ok(mut stream)) =
        tokio::time::timeout(Duration::from_secs(2), tokio::net::TcpStream::connect(("127.0.0.1", port))).await
    else {
        return Listener::None;
    };
    let nonce = hex::encode(uuid::Uuid::new_v4().as_bytes());
    let ask = format!("GET /hookrt/whoami?nonce={nonce} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    let mut answer = Vec::new();
    let read = async {
        stream.write_all(ask.as_bytes()).await?;
        (&mut stream).take(64 * 1024).read_to_end(&mut answer).await
    };
    if !matches!(tokio::time::timeout(Duration::from_secs(2), read).await, Ok(Ok(_))) {
        return Listener::Other;
    }
    let text = String::from_utf8_lossy(&answer);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.trim()).unwrap_or("");
    if !body.is_empty() && token_matches(body, &proof(token, &nonce)) {
        Listener::Serve
    } else {
        Listener::Other
    }
}
