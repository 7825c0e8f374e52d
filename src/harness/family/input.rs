//! The stdin of Claude-shaped hooks: Claude Code's own, and the host payload with the base
//! fields filled in that opencode and `.agents` hooks get (docs/harnesses/claude.md "Stdin").

use crate::harness::stdin::Stdin;
use crate::harness::PayloadCtx;
use crate::vocab::CanonicalEvent;
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

/// Claude Code's stdin, as recorded from Claude Code 2.1.332 (docs/harnesses/claude.md "Stdin"):
/// `session_id`, `transcript_path`, `cwd`, `prompt_id` (every event after the first
/// UserPromptSubmit), `permission_mode` (not on SessionStart, SessionEnd and MessageDisplay),
/// `hook_event_name`, then the event's fields as the host sent them.
pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    stdin(ctx).finish()
}

/// [`input`], before it becomes a map: written straight to text for a callback hook.
pub(crate) fn stdin<'a>(ctx: &PayloadCtx<'a>) -> Stdin<'a> {
    let mut m = Stdin::new(ctx);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], s(""));
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    if !m.copy("prompt_id", &["prompt_id"]) {
        if let Some(id) = ctx.session.prompt_id.as_deref().filter(|_| ctx.canonical != CanonicalEvent::SessionStart) {
            m.put_str("prompt_id", id);
        }
    }
    let carries_mode = !matches!(
        ctx.canonical,
        CanonicalEvent::SessionStart | CanonicalEvent::SessionEnd | CanonicalEvent::MessageDisplay
    );
    if !m.copy("permission_mode", &["permission_mode"]) && carries_mode {
        m.put_str("permission_mode", "default");
    }
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    // What a host passes for the other harnesses (Codex's `model` and `turn_id`) Claude Code
    // does not send, except MessageDisplay's own `turn_id`.
    let skip: &[&str] =
        if ctx.canonical == CanonicalEvent::MessageDisplay { &["model"] } else { &["model", "turn_id"] };
    m.rest(skip);
    m
}
