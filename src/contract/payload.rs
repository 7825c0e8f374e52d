//! What a hook receives on stdin: the host's payload shaped for the hook's own harness
//! (docs/events.md "Payloads").

use crate::config::Hook;
use crate::harness::PayloadCtx;
use serde_json::{Map, Value};

/// The JSON object one hook reads (`ctx.spelling` is the hook's own event name).
pub(crate) fn hook_input(ctx: &PayloadCtx, hook: &Hook) -> Map<String, Value> {
    crate::harness::of(hook.dialect).input(ctx)
}

/// [`hook_input`] as compact JSON ([`to_text`]), written straight from the payload where the
/// harness can.
pub(crate) fn hook_input_text(ctx: &PayloadCtx, hook: &Hook) -> String {
    let h = crate::harness::of(hook.dialect);
    h.input_text(ctx).unwrap_or_else(|| to_text(&h.input(ctx)))
}

/// Serialises a hook input; the trailing newline is the harness's business.
pub(crate) fn to_stdin(input: &Map<String, Value>, hook: &Hook) -> Vec<u8> {
    let h = crate::harness::of(hook.dialect);
    let mut v = to_bytes(input, h.stdin_pretty());
    if h.stdin_newline() {
        v.push(b'\n');
    }
    v
}

/// A hook input as the compact JSON the non-command kinds send (webhooks, workers, callbacks…).
pub(crate) fn to_text(input: &Map<String, Value>) -> String {
    // serde_json writes UTF-8 only.
    String::from_utf8(to_bytes(input, false)).unwrap_or_default()
}

/// A hook input's JSON (`{}` if it cannot be written), in a buffer sized for a usual payload so
/// writing it never regrows.
fn to_bytes(input: &Map<String, Value>, pretty: bool) -> Vec<u8> {
    let mut v = Vec::with_capacity(512);
    let written =
        if pretty { serde_json::to_writer_pretty(&mut v, input) } else { serde_json::to_writer(&mut v, input) };
    if written.is_err() {
        v = b"{}".to_vec();
    }
    v
}
