//! What the HTTP handlers share: the client (built on first use), a capped body reader, and
//! plain causes for failed requests.

/// The HTTP client for webhooks, oracles and outbound notifications.
pub(crate) fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(10))
        .user_agent(concat!("hookrt/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Reads an HTTP body up to `cap` bytes; returns the text and whether it was cut.
pub(crate) async fn read_body(mut resp: reqwest::Response, cap: usize) -> Result<(String, bool), reqwest::Error> {
    let mut kept: Vec<u8> = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        let room = cap.saturating_sub(kept.len());
        if chunk.len() > room {
            kept.extend_from_slice(&chunk[..room]);
            return Ok((String::from_utf8_lossy(&kept).into_owned(), true));
        }
        kept.extend_from_slice(&chunk);
    }
    Ok((String::from_utf8_lossy(&kept).into_owned(), false))
}

/// A plain cause for a failed HTTP request: `connection refused`, `connection reset`,
/// `too many redirects`, `dns error: ...`, else the innermost error text.
pub(crate) fn cause(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    if e.is_redirect() {
        return "too many redirects".into();
    }
    let mut src: Option<&(dyn std::error::Error + 'static)> = e.source();
    let mut innermost = e.to_string();
    while let Some(s) = src {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => return "connection refused".into(),
                std::io::ErrorKind::ConnectionReset => return "connection reset".into(),
                std::io::ErrorKind::ConnectionAborted => return "connection aborted".into(),
                _ => {}
            }
        }
        let text = s.to_string();
        if text.starts_with("dns error") {
            return text;
        }
        innermost = text;
        src = s.source();
    }
    let lower = innermost.to_ascii_lowercase();
    if lower.contains("connection refused") {
        "connection refused".into()
    } else if lower.contains("connection reset") {
        "connection reset".into()
    } else {
        innermost
    }
}
