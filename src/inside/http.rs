//! The loopback HTTP endpoint of `hookrt serve` for Claude Code's `type: "http"` hooks
//! (`hookrt install claude --http`): no process starts per event. Its port and token are
//! chosen once, at the first such install, and kept in `<state>/serve-http.json` (mode 0600);
//! Claude sends the token from its environment (`headers` with `$HOOKRT_TOKEN`, allowed by
//! `allowedEnvVars`), so it is never written into a project's files.

use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where the endpoint listens and the token it wants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct HttpConfig {
    pub(crate) port: u16,
    pub(crate) token: String,
}

/// The variable Claude Code reads the token from.
pub(crate) const TOKEN_VAR: &str = "HOOKRT_TOKEN";

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
    std::fs::create_dir_all(state)?;
    let path = config_path(state);
    std::fs::write(&path, serde_json::to_string_pretty(&c).map_err(std::io::Error::other)?)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(c)
}

/// The URL of a harness's endpoint.
pub(crate) fn url(port: u16, harness: &str) -> String {
    format!("http://127.0.0.1:{port}/hook/{harness}")
}

/// Whether a URL is one `install --http` wrote for this harness.
pub(crate) fn is_ours(url: &str, harness: &str) -> bool {
    url.strip_prefix("http://127.0.0.1:").is_some_and(|rest| rest.ends_with(&format!("/hook/{harness}")))
}

/// Compares a presented token without stopping at the first differing byte.
pub(crate) fn token_matches(presented: &str, wanted: &str) -> bool {
    let (a, b) = (presented.as_bytes(), wanted.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
