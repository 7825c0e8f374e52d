//! Hermes' shell-hook stdin: `{hook_event_name, tool_name, tool_input, session_id, cwd, extra}`.

use crate::harness::PayloadCtx;
use serde_json::{Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Map::new();
    let host = ctx.host;
    m.insert("hook_event_name".into(), s(ctx.spelling));
    m.insert("tool_name".into(), host.get("tool_name").cloned().unwrap_or(Value::Null));
    m.insert("tool_input".into(), host.get("tool_input").cloned().unwrap_or(Value::Null));
    m.insert("session_id".into(), host.get("session_id").cloned().unwrap_or_else(|| s("")));
    m.insert("cwd".into(), host.get("cwd").cloned().unwrap_or_else(|| s(ctx.cwd)));
    let extra: Map<String, Value> = host
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "hook_event_name" | "tool_name" | "tool_input" | "session_id" | "cwd"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    m.insert("extra".into(), Value::Object(extra));
    m
}
