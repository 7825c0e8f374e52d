//! Cursor `hooks.json`: `{"version": 1, "hooks": {"beforeShellExecution": [{"command", "type",
//! "timeout" (s), "matcher", "failClosed", "loop_limit"}]}}`.

use super::entry::{self, LoadSink, Unit};
use super::groups::FileCtx;
use super::Severity;
use crate::harness::cursor::DEFAULT_LOOP_LIMIT;
use serde_json::{Map, Value};

/// Parses a Cursor file; returns the number of hooks accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(Value::Object(map)) = root.get("hooks") else { return 0 };
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        if e.obj.get("type").is_some_and(|t| t != "command") {
            e.diag(sink, Severity::Error, "only type \"command\" hooks are run by hookrt");
            return false;
        }
        let Some(command) = e.command(sink, &["command"]) else { return false };
        let Some((matcher_text, matcher)) = e.matcher(sink, spec.canonical, None) else { return false };
        let mut h =
            entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), entry::shell(command, Vec::new()));
        h.matcher_text = matcher_text;
        h.matcher = matcher;
        h.timeout = e.timeout(sink, "timeout", Unit::Seconds, None);
        h.fail_closed = e.flag(sink, "failClosed");
        h.harness.class = spec.class;
        h.harness.loop_limit = match e.obj.get("loop_limit") {
            None => Some(DEFAULT_LOOP_LIMIT),
            Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
                None => {
                    e.diag(sink, Severity::Error, "loop_limit must be a whole number or null");
                    Some(DEFAULT_LOOP_LIMIT)
                }
            },
        };
        sink.hooks.push(h);
        true
    })
}
