//! The `http` handler: POST the payload JSON; the response body is read like stdout.

use super::{bounded, first_chars, http_cause, read_body, Failure, RunCtx};
use crate::decode::Raw;

/// Expands `$VAR` / `${VAR}` (upper-case names only) from the environment; unknown or
/// lower-case names stay verbatim.
pub fn expand_env(s: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let upper = |c: u8| c.is_ascii_uppercase() || c == b'_';
    let name_char = |c: u8| upper(c) || c.is_ascii_digit();
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let (start, braced) = if b.get(i + 1) == Some(&b'{') { (i + 2, true) } else { (i + 1, false) };
        let mut end = start;
        if b.get(start).copied().is_some_and(upper) {
            end = start + 1;
            while b.get(end).copied().is_some_and(name_char) {
                end += 1;
            }
        }
        let closed = !braced || b.get(end) == Some(&b'}');
        let value = (end > start && closed).then(|| lookup(&s[start..end])).flatten();
        match value {
            Some(v) => {
                out.push_str(&s[last..i]);
                out.push_str(&v);
                i = if braced { end + 1 } else { end };
                last = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&s[last..]);
    out
}

/// Whether a URL matches one of Claude's `allowedHttpHookUrls` patterns (`*` is any text).
pub fn url_allowed(url: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let re = format!("^(?s:{})$", p.split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
        regex::Regex::new(&re).is_ok_and(|r| r.is_match(url))
    })
}

/// Runs a native `webhook` (headers expand every upper-case variable; any 2xx body is read
/// like stdout) or, with `claude` set to the hook's `allowedEnvVars`, a Claude/Codex `http`
/// hook: headers expand only those variables (others become empty), bounded by the runtime's
/// `httpHookAllowedEnvVars`, the URL must match `allowedHttpHookUrls` when that is set, and a
/// 2xx body that is not a JSON object decides nothing.
pub async fn run(
    url: &str,
    headers: &[(String, String)],
    claude: Option<&[String]>,
    ctx: &RunCtx<'_>,
) -> Result<Raw, Failure> {
    if let Some(allow) = &ctx.policy.webhook_allowlist {
        if !allow.iter().any(|p| url.starts_with(p.as_str())) {
            return Err(Failure::Infra(format!("webhook {url} is not in the webhook allowlist")));
        }
    }
    if let (Some(_), Some(patterns)) = (claude, &ctx.policy.allowed_http_hook_urls) {
        if !url_allowed(url, patterns) {
            return Err(Failure::Infra(format!("http hook {url} is not in allowedHttpHookUrls")));
        }
    }
    let mut req = ctx.shared.http().post(url).body(ctx.input_json.clone());
    let user_ct = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
    if !user_ct {
        req = req.header("content-type", "application/json");
    }
    let bound = ctx.policy.http_hook_allowed_env_vars.as_deref();
    let lookup = |n: &str| match claude {
        None => std::env::var(n).ok(),
        Some(allowed) => {
            let ok = allowed.iter().any(|a| a == n) && bound.is_none_or(|b| b.iter().any(|a| a == n));
            Some(if ok { std::env::var(n).unwrap_or_default() } else { String::new() })
        }
    };
    for (k, v) in headers {
        req = req.header(k.as_str(), expand_env(v, &lookup));
    }
    let cap = ctx.policy.output_cap;
    let label = ctx.timeout_label.clone();
    let work = async {
        let resp = req.send().await.map_err(|e| format!("webhook {url} failed: {}", http_cause(&e)))?;
        let status = resp.status();
        let (body, truncated) =
            read_body(resp, cap).await.map_err(|e| format!("webhook {url} failed: {}", http_cause(&e)))?;
        if !status.is_success() {
            return Err(format!("webhook {url} answered HTTP {}: {}", status.as_u16(), first_chars(&body, 200)));
        }
        let is_object = body.trim_start().starts_with('{')
            && matches!(serde_json::from_str::<serde_json::Value>(&body), Ok(serde_json::Value::Object(_)));
        let stdout = if claude.is_some() && !is_object { String::new() } else { body };
        Ok(Raw { exit_code: Some(0), stdout, stderr: String::new(), truncated })
    };
    bounded(work, ctx, || format!("webhook {url} timed out after {label}s")).await?.map_err(Failure::Infra)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_expansion() {
        let look = |n: &str| (n == "TOKEN").then(|| "t0k".to_string());
        assert_eq!(
            expand_env("Bearer $TOKEN / ${TOKEN} / $lower / $MISSING", &look),
            "Bearer t0k / t0k / $lower / $MISSING"
        );
    }

    #[test]
    fn url_patterns() {
        let p = vec!["https://hooks.example.com/*".to_string(), "http://127.0.0.1:*/ok".to_string()];
        assert!(url_allowed("https://hooks.example.com/a/b", &p));
        assert!(url_allowed("http://127.0.0.1:8080/ok", &p));
        assert!(!url_allowed("http://127.0.0.1:8080/ok/no", &p));
        assert!(!url_allowed("https://evil.com/?https://hooks.example.com/", &p));
    }
}
