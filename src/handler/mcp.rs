//! Claude's `mcp_tool` hooks: a tool call on one of the host's MCP servers. hookrt has no MCP
//! client of its own; the host lends one (the JS API's `mcpCall(server, tool, input, signal)`).
//! The tool's text content is read like a command's stdout; `isError` like a non-zero exit.

use crate::handler::failure::Unconfigured;
use crate::handler::{bounded, Failure, RunCtx};
use crate::vocab::Raw;
use futures::future::BoxFuture;
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// What the host's MCP call returned.
#[derive(Debug, Clone, Default)]
pub struct McpAnswer {
    /// A string, or MCP content blocks (`[{type: "text", text}]`).
    pub content: Value,
    pub is_error: bool,
}

/// The host side of an MCP call. `cancel` fires on timeout or abort.
pub trait McpCaller: Send + Sync {
    fn call(
        &self,
        server: String,
        tool: String,
        input: Value,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, Result<McpAnswer, String>>;
}

/// A shared handle on the host's caller.
#[derive(Clone)]
pub struct McpHost(pub Arc<dyn McpCaller>);

impl std::fmt::Debug for McpHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("McpHost")
    }
}

/// Replaces `${a.b}` in every string of `v` by the value at that path of the hook's input
/// (`${payload.a.b}` too); strings are inserted as they are, other values as JSON, missing ones
/// as nothing.
pub(crate) fn fill(v: &Value, input: &Map<String, Value>) -> Value {
    match v {
        Value::String(s) => Value::String(crate::config::template::expand(s, false, |p| Some(lookup(p, input)))),
        Value::Array(a) => Value::Array(a.iter().map(|x| fill(x, input)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), fill(x, input))).collect()),
        other => other.clone(),
    }
}

/// The text of the value at a dotted path of the hook's input.
fn lookup(path: &str, input: &Map<String, Value>) -> String {
    let path = path.trim();
    let path = path.strip_prefix("payload.").unwrap_or(path);
    let mut cur: Option<&Value> = None;
    for (n, key) in path.split('.').enumerate() {
        cur = if n == 0 { input.get(key) } else { cur.and_then(|c| c.get(key)) };
    }
    match cur {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// The text of an MCP result's content.
pub(crate) fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("text").and_then(Value::as_str).map(str::to_owned),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

pub(crate) async fn run(server: &str, tool: &str, input: &Value, ctx: &RunCtx<'_>) -> Result<Raw, Failure> {
    let Some(McpHost(host)) = ctx.shared.mcp.clone() else { return Err(Unconfigured::McpHost.into()) };
    let hook_input: Map<String, Value> = serde_json::from_str(&ctx.input_json).unwrap_or_default();
    let args = fill(input, &hook_input);
    let cancel = ctx.cancel.child_token();
    let guard = cancel.clone().drop_guard();
    let call = host.call(server.to_owned(), tool.to_owned(), args, cancel);
    let (s, t) = (server.to_owned(), tool.to_owned());
    let answer = bounded(call, ctx, || Failure::McpTimeout { server: s, tool: t, label: ctx.timeout_label() }).await?;
    guard.disarm();
    let answer = answer.map_err(|cause| Failure::Mcp { server: server.to_owned(), tool: tool.to_owned(), cause })?;
    let text = content_text(&answer.content);
    Ok(if answer.is_error {
        Raw { exit_code: Some(1), stdout: String::new(), stderr: text, truncated: false }
    } else {
        Raw { exit_code: Some(0), stdout: text, stderr: String::new(), truncated: false }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_and_content() {
        let input = json!({"tool_input": {"file_path": "/a.ts", "n": 3}, "session_id": "s"});
        let input = input.as_object().unwrap();
        let got = fill(
            &json!({"p": "${tool_input.file_path}", "x": ["${payload.session_id}-${tool_input.n}", "${nope}", 5]}),
            input,
        );
        assert_eq!(got, json!({"p": "/a.ts", "x": ["s-3", "", 5]}));
        assert_eq!(
            content_text(&json!([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}])),
            "a\nb"
        );
        assert_eq!(content_text(&json!("{\"decision\":\"block\"}")), "{\"decision\":\"block\"}");
    }
}
