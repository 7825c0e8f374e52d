//! `.agents/hooks.json`: `{PreToolUse: [{matcher, command, timeoutMs, denyOnFailure}], PostToolUse,
//! Stop}`, optionally wrapped in `{"hooks": ...}`. Commands run through the shell; timeouts are
//! in milliseconds (default 5 s); `denyOnFailure` makes any failure a deny.

use super::entry::{self, Entry, LoadSink, Unit};
use super::groups::FileCtx;
use super::Severity;
use crate::dialect::Dialect;
use serde_json::{Map, Value};

/// Default timeout of an `.agents` hook, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 5.0;

/// Parses the hooks of an `.agents` file; returns how many were accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let map = match root.get("hooks") {
        Some(Value::Object(m)) => m,
        _ => root,
    };
    let mut count = 0;
    for (event, value) in map.iter().filter(|(k, _)| *k != "disableAllHooks") {
        let Some(spec) = Dialect::Agents.config_event(event) else {
            sink.unknown_event(ctx, event);
            continue;
        };
        let Some(list) = value.as_array() else {
            sink.file_diag(ctx, Severity::Error, Some(event), format!("{event}: must be an array of hooks"));
            continue;
        };
        for (i, v) in list.iter().enumerate() {
            let Some(e) = Entry::read(ctx, event, format!("{event}[{i}]"), v, sink) else { continue };
            let Some(command) = e.command(sink, &["command"]) else { continue };
            let Some((matcher_text, matcher)) = e.matcher(sink, spec.0, None) else { continue };
            let mut h = entry::hook(ctx, event, spec, &format!("{i}:0"), entry::shell(command, Vec::new()));
            h.env = Vec::new();
            h.origin = Default::default();
            h.matcher_text = matcher_text;
            h.matcher = matcher;
            h.timeout = e.timeout(sink, "timeoutMs", Unit::Milliseconds, Some(DEFAULT_TIMEOUT));
            h.deny_on_failure = e.flag(sink, "denyOnFailure");
            sink.hooks.push(h);
            count += 1;
        }
    }
    count
}
