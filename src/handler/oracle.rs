//! The `prompt` handler: ask an OpenAI-compatible endpoint to judge the event; its answer
//! (a JSON object, possibly inside a markdown fence) is read like hook stdout.

use crate::handler::failure::{Endpoint, OracleAnswer, Unconfigured};
use crate::handler::http::{cause, read_body};
use crate::handler::{bounded, render_prompt, Failure, RunCtx};
use crate::vocab::text::first_chars;
use crate::vocab::Raw;
use serde_json::{json, Value};

/// Extracts the JSON text from an answer: the answer itself, or the content of the first
/// markdown code fence anywhere in it (any case, language tag optional).
pub(crate) fn strip_fence(answer: &str) -> &str {
    let t = answer.trim();
    if t.starts_with('{') {
        return t;
    }
    let Some(open) = t.find("```") else { return t };
    let after = &t[open + 3..];
    // Skip a language tag on the opening line (`json`, `JSON`, ...).
    let body = match after.find('\n') {
        Some(nl) if after[..nl].trim().chars().all(|c| c.is_ascii_alphanumeric()) => &after[nl + 1..],
        _ => after,
    };
    // The JSON itself ends the fence's content: a fence inside one of its strings (a model
    // quoting markdown) does not.
    let mut values = serde_json::Deserializer::from_str(body).into_iter::<serde::de::IgnoredAny>();
    if let Some(Ok(_)) = values.next() {
        let (json, rest) = body.split_at(values.byte_offset());
        let rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with("```") {
            return json.trim();
        }
    }
    match body.find("```") {
        Some(close) => body[..close].trim(),
        None => body.trim(),
    }
}

/// Parses the model's answer into the object a hook would print.
pub fn parse_answer(content: &str) -> Result<serde_json::Map<String, Value>, OracleAnswer> {
    let text = strip_fence(content);
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(OracleAnswer::NotObject(first_chars(content, 100))),
        Err(_) => Err(OracleAnswer::NotJson(first_chars(content, 100))),
    }
}

pub(crate) async fn run(prompt: &str, model: Option<&str>, ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    let llm = &ctx.policy.llm;
    let (Some(base), Some(model)) = (llm.base_url.as_deref(), model.or(llm.model.as_deref())) else {
        return Err(Unconfigured::Llm.into());
    };
    let url = format!("{}/chat/completions", base.trim_end_matches('/'));
    let body = json!({
        "model": model,
        "messages": [{"role": "user", "content": render_prompt(prompt, &ctx.input_json)}],
        "temperature": 0,
    });
    let mut req = ctx.shared.http().post(&url).json(&body);
    if let Some(key) = llm.api_key.as_deref().filter(|k| !k.is_empty()) {
        req = req.bearer_auth(key);
    }
    let cap = ctx.policy.output_cap;
    let failed = |e: reqwest::Error| Failure::HttpFailed { who: Endpoint::Oracle, cause: cause(&e) };
    let work = async {
        let resp = req.send().await.map_err(failed)?;
        let status = resp.status();
        let (text, _) = read_body(resp, cap).await.map_err(failed)?;
        if !status.is_success() {
            let body = first_chars(&text, 200);
            return Err(Failure::HttpStatus { who: Endpoint::Oracle, status: status.as_u16(), body });
        }
        let content = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.pointer("/choices/0/message/content").and_then(Value::as_str).map(str::to_owned))
            .ok_or(OracleAnswer::Shape)?;
        let answer = parse_answer(&content)?;
        Ok(Raw {
            exit_code: Some(0),
            stdout: serde_json::to_string(&answer).unwrap_or_default(),
            stderr: String::new(),
            truncated: false,
        })
    };
    bounded(work, ctx, || Failure::HttpTimeout { who: Endpoint::Oracle, label: ctx.timeout_label() }).await?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_in_any_case_anywhere() {
        assert_eq!(strip_fence("```JSON\n{\"ok\":false}\n```"), "{\"ok\":false}");
        assert_eq!(strip_fence("Sure:\n```\n{\"ok\":true}\n```\nbye"), "{\"ok\":true}");
        assert_eq!(strip_fence(" {\"ok\":true} "), "{\"ok\":true}");
        // A fence quoted inside the JSON does not close the block (found by `it::fuzz`).
        assert_eq!(strip_fence("```json\n{\"hooks\":[\"```\"]}\n```"), "{\"hooks\":[\"```\"]}");
        assert_eq!(strip_fence("Sure:\n```\n{\"r\":\"a ``` b\"}\n```\nbye"), "{\"r\":\"a ``` b\"}");
        // Not JSON: the first fence still closes it, for the error to quote.
        assert_eq!(strip_fence("```\nnot json\n```\nmore ```"), "not json");
    }

    #[test]
    fn answer_errors() {
        assert!(parse_answer("nope").unwrap_err().to_string().starts_with("oracle answer is not valid JSON: nope"));
        assert!(parse_answer("[1]").unwrap_err().to_string().starts_with("oracle answer is not a JSON object"));
        assert_eq!(parse_answer("```json\n{\"ok\":false,\"reason\":\"r\"}\n```").unwrap()["reason"], "r");
    }
}
