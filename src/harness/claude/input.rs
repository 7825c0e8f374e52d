//! The stdin of Claude-shaped hooks: the host payload with the base fields filled in
//! (docs/harnesses/claude.md "Stdin"), which Codex, opencode, `.agents`, Gemini and Copilot
//! start from too.

use crate::harness::PayloadCtx;
use serde_json::{Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// Which base fields a dialect fills in.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Base {
    /// `transcript_path` is `null` when unknown (Codex), not `""`.
    pub null_transcript: bool,
    /// `permission_mode: "default"`.
    pub permission_mode: bool,
    /// `model` and `turn_id` from the runtime options (Codex).
    pub model_and_turn: bool,
}

/// Fills `session_id`, `transcript_path`, `cwd`, `hook_event_name` (a placeholder the caller
/// replaces) and, per `base`, `permission_mode`, `model` and `turn_id`.
pub(crate) fn fill_base(m: &mut Map<String, Value>, ctx: &PayloadCtx, base: Base) {
    m.insert("session_id".into(), s(""));
    m.insert("transcript_path".into(), if base.null_transcript { Value::Null } else { s("") });
    m.insert("cwd".into(), s(ctx.cwd));
    m.insert("hook_event_name".into(), Value::Null);
    if base.permission_mode {
        m.insert("permission_mode".into(), s("default"));
    }
    if base.model_and_turn {
        if let Some(model) = ctx.model {
            m.insert("model".into(), s(model));
        }
        if let Some(t) = ctx.turn_id {
            m.insert("turn_id".into(), s(t));
        }
    }
}

/// The base fields, then the host's fields, with `hook_event_name` the hook's own spelling.
pub(crate) fn shaped(ctx: &PayloadCtx, base: Base) -> Map<String, Value> {
    let mut m = Map::new();
    fill_base(&mut m, ctx, base);
    m.extend(ctx.host.iter().map(|(k, v)| (k.clone(), v.clone())));
    m.insert("hook_event_name".into(), s(ctx.spelling));
    m
}

/// Claude Code's stdin.
pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    shaped(ctx, Base { permission_mode: true, ..Default::default() })
}
