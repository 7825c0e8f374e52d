//! Gemini CLI's stdin, as recorded from Gemini CLI 0.61.0 (docs/harnesses/gemini.md "Stdin"):
//! `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, then the event's
//! fields under Gemini's names — the tool as Gemini names it, its output as
//! `{llmContent, returnDisplay}`, the turn's `prompt` and `prompt_response` on `AfterAgent`.

use crate::harness::stdin::{tool_output_text, Stdin, CANONICAL_ONLY};
use crate::harness::PayloadCtx;
use crate::vocab::CanonicalEvent as E;
use crate::vocab::Dialect;
use serde_json::{json, Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// The fields of Gemini's own that a host may pass, besides Claude's.
const GEMINI_FIELDS: &[&str] = &["timestamp", "prompt_response", "llm_request", "llm_response"];

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], s(""));
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.put_str("hook_event_name", ctx.spelling);
    let ts = m.host(&["timestamp"]).filter(|v| v.is_string()).cloned().unwrap_or_else(|| s(ctx.ts.iso()));
    m.put("timestamp", ts);
    event_fields(&mut m, ctx);
    m.used(GEMINI_FIELDS);
    let mut skip = CANONICAL_ONLY.to_vec();
    skip.extend_from_slice(GEMINI_FIELDS);
    m.rest(&skip);
    m.finish()
}

fn event_fields(m: &mut Stdin, ctx: &PayloadCtx) {
    match ctx.canonical {
        E::SessionStart => {
            m.copy("source", &["source"]);
        }
        E::SessionEnd => {
            // A session that simply ended is Claude's `other` and Gemini's `exit`.
            let reason = m.take(&["reason"]).and_then(|v| v.as_str().map(str::to_owned));
            m.put_str(
                "reason",
                match reason.as_deref() {
                    None | Some("other") => "exit",
                    Some(r) => r,
                },
            );
        }
        E::PromptSubmit => {
            m.copy("prompt", &["prompt"]);
        }
        E::TurnStop => {
            let prompt = m.take(&["prompt"]).unwrap_or_else(|| s(ctx.session.prompt.as_deref().unwrap_or("")));
            m.put("prompt", prompt);
            m.copy_or("prompt_response", &["prompt_response", "last_assistant_message"], s(""));
            m.copy_or("stop_hook_active", &["stop_hook_active"], Value::Bool(false));
        }
        E::ToolBefore | E::ToolAfter => {
            tool(m);
            if ctx.canonical == E::ToolAfter {
                let out = m.take(&["tool_response"]).unwrap_or(Value::Null);
                m.put("tool_response", tool_response(&out));
            }
        }
        E::CompactBefore => {
            m.copy_or("trigger", &["trigger"], s("auto"));
        }
        E::ModelBefore | E::ToolSelect => {
            m.copy("llm_request", &["llm_request"]);
        }
        E::ModelAfter => {
            m.copy("llm_request", &["llm_request"]);
            m.copy("llm_response", &["llm_response"]);
        }
        _ => {}
    }
}

/// `tool_name` as Gemini names the tool, then `tool_input`.
fn tool(m: &mut Stdin) {
    if let Some(name) = m.take(&["tool_name", "toolName"]) {
        let named = name.as_str().and_then(|n| crate::harness::tools::spelling(Dialect::Gemini, n)).map(s);
        m.put("tool_name", named.unwrap_or(name));
    }
    m.copy("tool_input", &["tool_input", "toolArgs", "toolInput"]);
}

/// Gemini's tool result: what the model reads and what the user is shown.
fn tool_response(out: &Value) -> Value {
    if out.get("llmContent").is_some() {
        return out.clone();
    }
    let text = tool_output_text(out);
    json!({"llmContent": text, "returnDisplay": text})
}
