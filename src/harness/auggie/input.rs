//! Auggie's stdin and environment (`B7n`, `T7n`, `N7n`, `V7n`, `k7n` and `vao` in Auggie
//! 0.36.0): `hook_event_name`, `conversation_id`, `workspace_roots`, then the event's own
//! fields; no `cwd`, `session_id` or `transcript_path`.

use crate::harness::stdin::{tool_output_text, Stdin};
use crate::harness::{EnvCtx, PayloadCtx};
use crate::vocab::{CanonicalEvent as E, Dialect};
use serde_json::{json, Map, Value};

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.copy_or("conversation_id", &["conversation_id", "session_id", "sessionId"], json!(""));
    m.copy_or("workspace_roots", &["workspace_roots"], json!([ctx.cwd]));
    match ctx.canonical {
        E::ToolBefore | E::ToolAfter => tool_fields(&mut m, ctx.canonical == E::ToolAfter),
        E::TurnStop => {
            m.copy("agent_stop_cause", &["agent_stop_cause", "stop_reason"]);
        }
        E::Notice => {
            m.put_str("notification_type", "info");
            m.copy_or("notification_message", &["notification_message", "message"], json!(""));
        }
        E::PromptSubmit => {
            m.copy_or("user_prompt", &["user_prompt", "prompt"], json!(""));
        }
        _ => {}
    }
    let mut out = m.finish();
    crate::harness::tools::rename_in(&mut out, Dialect::Auggie, "tool_name");
    out
}

/// `tool_output` only after the tool, `tool_error` always (`null` without one), then
/// `is_mcp_tool`.
fn tool_fields(m: &mut Stdin, after: bool) {
    m.copy_or("tool_name", &["tool_name"], json!(""));
    m.copy_or("tool_input", &["tool_input"], json!({}));
    if after {
        if let Some(v) = m.take(&["tool_output", "tool_response"]) {
            let text = if v.is_string() { v } else { Value::String(tool_output_text(&v)) };
            m.put("tool_output", text);
        }
    }
    m.copy_or("tool_error", &["tool_error", "error"], Value::Null);
    let mcp = m
        .host(&["is_mcp_tool"])
        .and_then(Value::as_bool)
        .unwrap_or_else(|| m.host(&["tool_name"]).and_then(Value::as_str).is_some_and(|n| n.starts_with("mcp__")));
    m.put("is_mcp_tool", Value::Bool(mcp));
    m.copy("file_changes", &["file_changes"]);
}

/// `AUGMENT_PROJECT_DIR` (the first workspace root), `AUGMENT_CONVERSATION_ID`,
/// `AUGMENT_HOOK_EVENT`, and `AUGMENT_TOOL_NAME` on tool events.
pub(crate) fn env(e: &EnvCtx) -> Vec<(String, String)> {
    let field = |k: &str| e.input.get(k).and_then(Value::as_str);
    let root = e.input.get("workspace_roots").and_then(|r| r.get(0)).and_then(Value::as_str);
    let mut v = vec![
        ("AUGMENT_PROJECT_DIR".to_owned(), root.unwrap_or(e.project_dir).to_owned()),
        ("AUGMENT_CONVERSATION_ID".to_owned(), field("conversation_id").unwrap_or(e.session_id).to_owned()),
        ("AUGMENT_HOOK_EVENT".to_owned(), field("hook_event_name").unwrap_or("").to_owned()),
    ];
    if let Some(t) = field("tool_name") {
        v.push(("AUGMENT_TOOL_NAME".to_owned(), t.to_owned()));
    }
    v
}
