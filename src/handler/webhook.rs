//! The `http` handler: POST the payload JSON; the response body is read like stdout.

use crate::config::template;
use crate::handler::failure::Endpoint;
use crate::handler::http::{cause, read_body};
use crate::handler::{bounded, Failure, RunCtx};
use crate::vocab::text::first_chars;
use crate::vocab::Raw;

/// Expands `$VAR` / `${VAR}` (upper-case names only) from `lookup`; unknown or lower-case
/// names stay verbatim.
pub(crate) fn expand_env(s: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    template::expand(s, true, |n| if template::is_upper_name(n) { lookup(n) } else { None })
}

/// Whether a URL matches one of Claude's `allowedHttpHookUrls` patterns (`*` is any text).
pub(crate) fn url_allowed(url: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let re = format!("^(?s:{})$", p.split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
        regex::Regex::new(&re).is_ok_and(|r| r.is_match(url))
    })
}

/// Runs a native `webhook` (headers expand every upper-case variable; any 2xx body is read
/// like stdout) or, with `http_hook` set to the hook's `allowedEnvVars`, a Claude/Codex `http`
/// hook: headers expand only those variables (others become empty), bounded by the runtime's
/// `httpHookAllowedEnvVars`, the URL must match `allowedHttpHookUrls` when that is set, and a
/// 2xx body that is not a JSON object decides nothing.
pub(crate) async fn run(
    url: &str,
    headers: &[(String, String)],
    http_hook: Option<&[String]>,
    ctx: &RunCtx<'_>,
) -> Result<Raw, Failure> {
    if let Some(allow) = &ctx.policy.webhook_allowlist {
        if !allow.iter().any(|p| url.starts_with(p.as_str())) {
            return Err(Failure::NotAllowed { url: url.to_owned(), http_hook: false });
        }
    }
    if let (Some(_), Some(patterns)) = (http_hook, &ctx.policy.allowed_http_hook_urls) {
        if !url_allowed(url, patterns) {
            return Err(Failure::NotAllowed { url: url.to_owned(), http_hook: true });
        }
    }
    let mut req = ctx.shared.http().post(url).body(ctx.input_json.clone());
    let user_ct = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
    if !user_ct {
        req = req.header("content-type", "application/json");
    }
    let bound = ctx.policy.http_hook_allowed_env_vars.as_deref();
    let lookup = |n: &str| match http_hook {
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
    let who = || Endpoint::Webhook(url.to_owned());
    let failed = |e: reqwest::Error| Failure::HttpFailed { who: who(), cause: cause(&e) };
    let work = async {
        let resp = req.send().await.map_err(failed)?;
        let status = resp.status();
        let (body, truncated) = read_body(resp, cap).await.map_err(failed)?;
        if !status.is_success() {
            return Err(Failure::HttpStatus { who: who(), status: status.as_u16(), body: first_chars(&body, 200) });
        }
        let is_object = body.trim_start().starts_with('{')
            && matches!(serde_json::from_str::<serde_json::Value>(&body), Ok(serde_json::Value::Object(_)));
        let stdout = if http_hook.is_some() && !is_object { String::new() } else { body };
        Ok(Raw { exit_code: Some(0), stdout, stderr: String::new(), truncated })
    };
    bounded(work, ctx, || Failure::HttpTimeout { who: who(), label: ctx.timeout_label() }).await?
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
