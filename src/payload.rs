//! What a hook receives (SPEC §7, §16): the host payload with the base fields filled in,
//! shaped for the hook's own dialect.

use crate::dialect::Dialect;
use crate::event::CanonicalEvent;
use serde_json::{Map, Value};

/// Everything shared by the hooks of one dispatch.
#[derive(Debug, Clone)]
pub struct PayloadCtx<'a> {
    pub host: &'a Map<String, Value>,
    pub canonical: CanonicalEvent,
    pub cwd: &'a str,
    pub model: Option<&'a str>,
    pub turn_id: Option<&'a str>,
    /// ISO time of the dispatch (native envelope `ts`).
    pub ts: &'a str,
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// The JSON object a hook of `dialect`, declared under the event spelled `spelling`, reads.
pub fn hook_input(ctx: &PayloadCtx, dialect: Dialect, spelling: &str) -> Map<String, Value> {
    let mut m = Map::new();
    match dialect {
        Dialect::Native => {
            m.insert("event".into(), s(ctx.canonical.as_str()));
            m.insert("ts".into(), s(ctx.ts));
            base(&mut m, ctx, dialect, false);
            m.extend(ctx.host.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        Dialect::Hermes => return hermes_input(ctx, spelling),
        Dialect::Cursor => {
            return crate::harness::cursor::input(ctx.host, spelling, ctx.cwd, ctx.model, ctx.turn_id);
        }
        Dialect::Windsurf => {
            return crate::harness::windsurf::input(ctx.host, spelling, ctx.cwd, ctx.turn_id, ctx.ts);
        }
        Dialect::Gemini | Dialect::Copilot => {
            base(&mut m, ctx, dialect, true);
            m.extend(ctx.host.iter().map(|(k, v)| (k.clone(), v.clone())));
            m.insert("hook_event_name".into(), s(spelling));
            if dialect == Dialect::Gemini {
                crate::harness::gemini::input(&mut m, ctx.ts);
                return m;
            }
            let ms = (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64;
            return crate::harness::copilot::input(m, spelling, ms);
        }
        _ => {
            base(&mut m, ctx, dialect, true);
            m.extend(ctx.host.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    m.insert("hook_event_name".into(), s(spelling));
    m
}

fn base(m: &mut Map<String, Value>, ctx: &PayloadCtx, dialect: Dialect, permission_mode: bool) {
    m.insert("session_id".into(), s(""));
    m.insert("transcript_path".into(), if dialect == Dialect::Codex { Value::Null } else { s("") });
    m.insert("cwd".into(), s(ctx.cwd));
    m.insert("hook_event_name".into(), Value::Null);
    if permission_mode {
        m.insert("permission_mode".into(), s("default"));
    }
    if dialect == Dialect::Codex {
        if let Some(model) = ctx.model {
            m.insert("model".into(), s(model));
        }
        if let Some(t) = ctx.turn_id {
            m.insert("turn_id".into(), s(t));
        }
    }
}

/// Hermes' shell-hook shape: `{hook_event_name, tool_name, tool_input, session_id, cwd, extra}`.
fn hermes_input(ctx: &PayloadCtx, spelling: &str) -> Map<String, Value> {
    let mut m = Map::new();
    let host = ctx.host;
    m.insert("hook_event_name".into(), s(spelling));
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

/// Serialises a hook input; the trailing newline is the dialect's business.
pub fn to_stdin(input: &Map<String, Value>, dialect: Dialect) -> Vec<u8> {
    let mut v = serde_json::to_vec(input).unwrap_or_else(|_| b"{}".to_vec());
    if dialect.stdin_newline() {
        v.push(b'\n');
    }
    v
}

/// Current time as JavaScript's `toISOString()` writes it (`2026-11-29T20:00:00.123Z`).
pub fn iso_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        now.millisecond()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(host: &Map<String, Value>) -> PayloadCtx<'_> {
        PayloadCtx { host, canonical: CanonicalEvent::ToolBefore, cwd: "/w", model: Some("m1"), turn_id: None, ts: "T" }
    }

    #[test]
    fn claude_fills_base_fields_and_replaces_event_name() {
        let host = json!({"session_id":"s","tool_name":"Bash","hook_event_name":"tool:before"});
        let h = host.as_object().unwrap();
        let m = hook_input(&ctx(h), Dialect::Claude, "PreToolUse");
        assert_eq!(m["session_id"], "s");
        assert_eq!(m["transcript_path"], "");
        assert_eq!(m["cwd"], "/w");
        assert_eq!(m["permission_mode"], "default");
        assert_eq!(m["hook_event_name"], "PreToolUse");
        assert!(!m.contains_key("model"));
        assert!(to_stdin(&m, Dialect::Claude).ends_with(b"}\n"));
    }

    #[test]
    fn codex_gets_null_transcript_model_and_no_newline() {
        let host = Map::new();
        let m = hook_input(&ctx(&host), Dialect::Codex, "PreToolUse");
        assert_eq!(m["transcript_path"], Value::Null);
        assert_eq!(m["model"], "m1");
        assert!(to_stdin(&m, Dialect::Codex).ends_with(b"}"));
    }

    #[test]
    fn native_envelope() {
        let host = json!({"tool_name":"Bash"});
        let m = hook_input(&ctx(host.as_object().unwrap()), Dialect::Native, "tool:before");
        assert_eq!(m["event"], "tool:before");
        assert_eq!(m["ts"], "T");
        assert!(!m.contains_key("permission_mode"));
        assert_eq!(m["tool_name"], "Bash");
    }

    #[test]
    fn hermes_shape() {
        let host = json!({"tool_name":"Bash","tool_input":{"c":1},"other":2});
        let m = hook_input(&ctx(host.as_object().unwrap()), Dialect::Hermes, "pre_tool_call");
        assert_eq!(m["hook_event_name"], "pre_tool_call");
        assert_eq!(m["extra"], json!({"other":2}));
        assert_eq!(m["cwd"], "/w");
    }

    #[test]
    fn iso_time_shape() {
        let t = iso_now();
        assert_eq!(t.len(), 24);
        assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T');
    }
}
