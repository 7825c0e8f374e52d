//! Qwen Code's stdin, as recorded from Qwen Code 0.24.4 (docs/harnesses/qwen.md "Stdin"):
//! `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, `permission_mode`,
//! `prompt_id` (every event after SessionStart), then the event's fields in the host's order,
//! the tool named Qwen's way (`run_shell_command`). No trailing newline.

use crate::harness::stdin::{tool_output_text, Stdin};
use crate::harness::PayloadCtx;
use crate::vocab::{CanonicalEvent, Dialect};
use serde_json::{Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// What Claude Code sends that Qwen Code does not.
const NOT_SENT: &[&str] = &["turn_id", "session_crons", "permission_suggestions"];

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], s(""));
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    m.copy_or("timestamp", &["timestamp"], s(ctx.ts.iso()));
    m.copy_or("permission_mode", &["permission_mode"], s("default"));
    if ctx.canonical != CanonicalEvent::SessionStart && !m.copy("prompt_id", &["prompt_id"]) {
        if let Some(id) = ctx.session.prompt_id.as_deref() {
            m.put_str("prompt_id", id);
        }
    }
    if ctx.canonical == CanonicalEvent::SessionStart && !m.copy("source", &["source"]) {
        m.put_str("source", "startup");
    }
    if ctx.canonical == CanonicalEvent::SessionStart && !m.copy("model", &["model"]) {
        if let Some(model) = ctx.model {
            m.put_str("model", model);
        }
    }
    m.rest(NOT_SENT);
    m.map_field("tool_response", qwen_response);
    let mut out = m.finish();
    crate::harness::tools::rename_in(&mut out, Dialect::Qwen, "tool_name");
    out
}

/// A tool's output as Qwen Code reports it: `{llmContent, returnDisplay}` (a Claude-shaped
/// output becomes its text in both).
fn qwen_response(v: &Value) -> Value {
    if v.get("llmContent").is_some() {
        return v.clone();
    }
    let text = tool_output_text(v);
    serde_json::json!({ "llmContent": text, "returnDisplay": text })
}
