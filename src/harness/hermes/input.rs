//! Hermes' shell-hook stdin, as recorded from Hermes 0.19.0 (docs/harnesses/hermes.md "Stdin"):
//! `{hook_event_name, tool_name, tool_input, session_id, cwd, extra}`, where `extra` holds every
//! other field of the moment (Hermes' keyword arguments) and ends with
//! `telemetry_schema_version`. From a Claude-shaped payload: the tool as Hermes names it,
//! `tool_use_id` as `extra.tool_call_id`, the prompt as `extra.user_message`, the tool's output
//! as `extra.result`.

use crate::harness::stdin::Stdin;
use crate::harness::PayloadCtx;
use crate::vocab::CanonicalEvent as E;
use crate::vocab::Dialect;
use serde_json::{Map, Value};

/// Claude's fields Hermes has no place for (its own are `extra`'s).
const NOT_EXTRA: &[&str] =
    &["transcript_path", "prompt_id", "permission_mode", "stop_hook_active", "background_tasks", "session_crons"];

/// What every Hermes hook event carries last in `extra`.
const TELEMETRY_SCHEMA: &str = "hermes.observer.v1";

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    let tool = m.take(&["tool_name", "toolName"]).map(|v| {
        match v.as_str().and_then(|n| crate::harness::tools::spelling(Dialect::Hermes, n)) {
            Some(n) => Value::String(n.to_owned()),
            None => v,
        }
    });
    m.put("tool_name", tool.unwrap_or(Value::Null));
    let args = m.take(&["tool_input", "toolArgs", "args"]).filter(Value::is_object);
    m.put("tool_input", args.unwrap_or(Value::Null));
    m.copy_or("session_id", &["session_id", "sessionId"], Value::String(String::new()));
    m.copy_or("cwd", &["cwd"], Value::String(ctx.cwd.to_owned()));
    let mut extra = match m.take(&["extra"]) {
        Some(Value::Object(e)) => e,
        _ => Map::new(),
    };
    if let Some(id) = m.take(&["tool_use_id"]) {
        extra.insert("tool_call_id".into(), id);
    }
    if ctx.canonical == E::PromptSubmit {
        if let Some(p) = m.take(&["prompt"]) {
            extra.insert("user_message".into(), p);
        }
    }
    if ctx.canonical == E::ToolAfter {
        if let Some(r) = m.take(&["tool_response"]) {
            let text = if let Value::String(s) = &r { s.clone() } else { r.to_string() };
            extra.insert("result".into(), Value::String(text));
        }
    }
    // Claude's base fields mean nothing here; every other field is one of Hermes' extras.
    extra.extend(m.leftovers(NOT_EXTRA));
    if !extra.contains_key("telemetry_schema_version") {
        extra.insert("telemetry_schema_version".into(), Value::String(TELEMETRY_SCHEMA.into()));
    }
    m.put("extra", Value::Object(extra));
    m.finish()
}
