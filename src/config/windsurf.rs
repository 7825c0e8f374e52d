//! Windsurf (Cascade) `hooks.json`: `{"hooks": {"pre_run_command": [{"command",
//! "show_output", "working_directory"}]}}`. No matchers and no timeouts: each event is for one
//! kind of action.

use super::entry::{self, LoadSink};
use super::groups::FileCtx;
use super::Severity;
use serde_json::{Map, Value};

/// Parses a Windsurf file; returns the number of hooks accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(Value::Object(map)) = root.get("hooks") else { return 0 };
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        let Some(command) = e.command(sink, &["command"]) else { return false };
        if e.obj.contains_key("matcher") {
            e.diag(sink, Severity::Warning, "Windsurf hooks have no matcher; ignored");
        }
        let mut h =
            entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), entry::shell(command, Vec::new()));
        h.harness.class = spec.class;
        h.harness.cwd = e.string(sink, "working_directory");
        sink.hooks.push(h);
        true
    })
}
