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

pub async fn run(url: &str, headers: &[(String, String)], ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    if let Some(allow) = &ctx.policy.webhook_allowlist {
        if !allow.iter().any(|p| url.starts_with(p.as_str())) {
            return Err(Failure::Infra(format!("webhook {url} is not in the webhook allowlist")));
        }
    }
    let mut req = ctx.shared.http().post(url).body(ctx.input_json.clone());
    let user_ct = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
    if !user_ct {
        req = req.header("content-type", "application/json");
    }
    for (k, v) in headers {
        req = req.header(k.as_str(), expand_env(v, &|n| std::env::var(n).ok()));
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
        Ok(Raw { exit_code: Some(0), stdout: body, stderr: String::new(), truncated })
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
}
