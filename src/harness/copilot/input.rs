//! Copilot CLI's stdin, as recorded from Copilot CLI 1.0.102 (docs/harnesses/copilot.md
//! "Stdin"): with camelCase event names `sessionId`, `timestamp` (epoch milliseconds), `cwd`,
//! then camelCase fields (`toolName` as Copilot names the tool, `toolArgs`, `toolResult`);
//! `permissionRequest` starts with `hookName`. With the VS Code PascalCase names:
//! `hook_event_name`, `session_id`, `timestamp` (ISO), `cwd`, then snake_case fields with
//! Claude's tool names.

use crate::harness::stdin::{tool_failed, tool_output_text, Stdin, CANONICAL_ONLY};
use crate::harness::PayloadCtx;
use crate::vocab::CanonicalEvent as E;
use crate::vocab::Dialect;
use serde_json::{json, Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Copilot's own fields a host may pass.
const COPILOT_FIELDS: &[&str] = &[
    "sessionId",
    "timestamp",
    "toolName",
    "toolArgs",
    "toolInput",
    "toolResult",
    "tool_result",
    "transcriptPath",
    "stopReason",
    "initialPrompt",
    "permissionSuggestions",
    "hookName",
    "transformedPrompt",
];

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    if super::vscode_shape(ctx.spelling) && ctx.canonical != E::PermissionRequest {
        return pascal(ctx);
    }
    let mut m = Stdin::new(ctx);
    if ctx.canonical == E::PermissionRequest {
        m.put_str("hookName", "permissionRequest");
    }
    m.copy_or("sessionId", &["sessionId", "session_id"], s(""));
    let ts = m.host(&["timestamp"]).filter(|v| v.is_number()).cloned().unwrap_or_else(|| Value::from(ctx.ts.ms()));
    m.put("timestamp", ts);
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    camel_fields(&mut m, ctx);
    let mut skip = CANONICAL_ONLY.to_vec();
    skip.extend_from_slice(COPILOT_FIELDS);
    for (k, v) in m.leftovers(&skip) {
        m.put(camel(&k), v);
    }
    m.finish()
}

fn camel_fields(m: &mut Stdin, ctx: &PayloadCtx) {
    match ctx.canonical {
        E::SessionStart => {
            let source = m.take(&["source"]).and_then(|v| v.as_str().map(str::to_owned));
            m.put_str("source", start_word(source.as_deref()));
            m.copy("initialPrompt", &["initialPrompt", "initial_prompt"]);
        }
        E::SessionEnd => end_reason(m),
        E::PromptSubmit => {
            m.copy("prompt", &["prompt"]);
        }
        E::PromptTransformed => {
            m.copy("prompt", &["prompt"]);
            m.copy("transformedPrompt", &["transformedPrompt", "transformed_prompt"]);
        }
        E::ToolBefore | E::ToolAfter | E::PermissionRequest => {
            tool_name(m, "toolName", Dialect::Copilot);
            let args = if ctx.canonical == E::PermissionRequest { "toolInput" } else { "toolArgs" };
            m.copy(args, &["toolArgs", "toolInput", "tool_input"]);
            if ctx.canonical == E::PermissionRequest {
                m.copy_or("permissionSuggestions", &["permissionSuggestions", "permission_suggestions"], json!([]));
            }
            if ctx.canonical == E::ToolAfter {
                let r = tool_result(m.take(&["toolResult", "tool_result", "tool_response"]), false);
                m.put("toolResult", r);
            }
        }
        E::TurnStop => {
            m.copy("transcriptPath", &["transcriptPath", "transcript_path"]);
            m.copy_or("stopReason", &["stopReason", "stop_reason"], s("end_turn"));
            m.copy_or("stop_hook_active", &["stop_hook_active"], Value::Bool(false));
        }
        _ => {}
    }
}

/// The VS Code compatible shape.
fn pascal(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    let ts = m.host(&["timestamp"]).filter(|v| v.is_string()).cloned().unwrap_or_else(|| s(ctx.ts.iso()));
    m.put("timestamp", ts);
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    match ctx.canonical {
        E::SessionStart => {
            let source = m.take(&["source"]).and_then(|v| v.as_str().map(str::to_owned));
            m.put_str("source", start_word(source.as_deref()));
            m.copy("initial_prompt", &["initial_prompt", "initialPrompt"]);
        }
        E::SessionEnd => end_reason(&mut m),
        E::PromptSubmit => {
            m.copy("prompt", &["prompt"]);
        }
        E::ToolBefore | E::ToolAfter => {
            tool_name(&mut m, "tool_name", Dialect::CANONICAL);
            m.copy("tool_input", &["tool_input", "toolArgs", "toolInput"]);
            if ctx.canonical == E::ToolAfter {
                let r = tool_result(m.take(&["tool_result", "toolResult", "tool_response"]), true);
                m.put("tool_result", r);
            }
        }
        E::TurnStop => {
            m.copy("transcript_path", &["transcript_path", "transcriptPath"]);
            m.copy_or("stop_reason", &["stop_reason", "stopReason"], s("end_turn"));
            m.copy_or("stop_hook_active", &["stop_hook_active"], Value::Bool(false));
        }
        _ => {}
    }
    let mut skip = CANONICAL_ONLY.to_vec();
    skip.extend_from_slice(COPILOT_FIELDS);
    m.rest(&skip);
    m.finish()
}

fn tool_name(m: &mut Stdin, key: &'static str, spelling: Dialect) {
    if let Some(name) = m.take(&["toolName", "tool_name"]) {
        let named = name.as_str().and_then(|n| crate::harness::tools::spelling(spelling, n)).map(s);
        m.put(key, named.unwrap_or(name));
    }
}

/// Copilot's session sources: a new session is `new` where Claude says `startup`.
fn start_word(source: Option<&str>) -> &str {
    match source {
        None | Some("startup") => "new",
        Some(other) => other,
    }
}

/// A session that simply ended is Claude's `other` and Copilot's `complete`.
fn end_reason(m: &mut Stdin) {
    let reason = m.take(&["reason"]).and_then(|v| v.as_str().map(str::to_owned));
    m.put_str(
        "reason",
        match reason.as_deref() {
            None | Some("other") => "complete",
            Some(r) => r,
        },
    );
}

/// `toolResult` (`{resultType, textResultForLlm}`, snake_case in the PascalCase shape) from
/// Copilot's own result or Claude's `tool_response`.
fn tool_result(v: Option<Value>, snake: bool) -> Value {
    let v = v.unwrap_or(Value::Null);
    if v.get("resultType").is_some() || v.get("result_type").is_some() {
        return v;
    }
    let kind = if tool_failed(&v) { "failure" } else { "success" };
    let text = tool_output_text(&v);
    if snake {
        json!({"result_type": kind, "text_result_for_llm": text})
    } else {
        json!({"resultType": kind, "textResultForLlm": text})
    }
}

fn camel(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut up = false;
    for c in k.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}
