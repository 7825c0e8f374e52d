//! What a hook receives on stdin: the host's payload shaped for the hook's own harness
//! (docs/events.md "Payloads").

use crate::config::Hook;
use crate::harness::PayloadCtx;
use serde_json::{Map, Value};

/// The JSON object one hook reads.
pub(crate) fn hook_input(ctx: &PayloadCtx, hook: &Hook) -> Map<String, Value> {
    let ctx = PayloadCtx { spelling: &hook.event, ..ctx.clone() };
    crate::harness::of(hook.dialect).input(&ctx)
}

/// Serialises a hook input; the trailing newline is the harness's business.
pub(crate) fn to_stdin(input: &Map<String, Value>, hook: &Hook) -> Vec<u8> {
    let h = crate::harness::of(hook.dialect);
    // Sized for a usual payload: no regrowth while writing.
    let mut v = Vec::with_capacity(512);
    let written = if h.stdin_pretty() {
        serde_json::to_writer_pretty(&mut v, input)
    } else {
        serde_json::to_writer(&mut v, input)
    };
    if written.is_err() {
        v = b"{}".to_vec();
    }
    if h.stdin_newline() {
        v.push(b'\n');
    }
    v
}
