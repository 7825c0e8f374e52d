//! What Auggie's loader refuses (`Cgi`: one zod schema per event, here the types of schema.rs):
//! an event whose value breaks the schema anywhere is ignored as a whole while the file's other
//! events load. Unknown keys are dropped with a warning, as Auggie does.

use crate::config::{FileCtx, LoadSink};
use crate::harness::auggie::schema::{EventGroup, ToolGroup};
use crate::vocab::text::quote;
use crate::vocab::Severity;
use serde_json::{Map, Value};

/// Events whose groups carry a `matcher` (the others' groups are `{hooks, metadata}`).
const TOOL_EVENTS: [&str; 2] = ["PreToolUse", "PostToolUse"];
const GROUP_KEYS: [&str; 3] = ["matcher", "hooks", "metadata"];
const HANDLER_KEYS: [&str; 4] = ["type", "command", "args", "timeout"];
/// Cursor's event names, which Auggie also reads (flat lists of commands); hookrt does not.
const OTHER_HARNESS_EVENTS: [&str; 7] = [
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "afterShellExecution",
    "afterMCPExecution",
    "stop",
];

/// The events of a `hooks` object that Auggie would load, each as hookrt's group parser reads
/// it (non-tool groups without a `matcher`, which Auggie strips); the rest reported.
pub(crate) fn accepted_events(ctx: &FileCtx, events: &Map<String, Value>, sink: &mut LoadSink) -> Map<String, Value> {
    let mut out = Map::new();
    for (event, value) in events {
        if ctx.event(event).is_none() {
            let m = if OTHER_HARNESS_EVENTS.contains(&event.as_str()) {
                format!("Cursor-style event {} is not read by hookrt (ignored)", quote(event))
            } else {
                format!("unknown event {} (ignored)", quote(event))
            };
            sink.file_diag(ctx, Severity::Warning, None, m);
            continue;
        }
        let tool = TOOL_EVENTS.contains(&event.as_str());
        let mut unknown = Vec::new();
        match event_value(value, tool, &mut unknown) {
            Err((at, problem)) => {
                let m = format!("hooks[{event}]{at}: {problem}; Auggie ignores every hook of {event} in this file");
                sink.file_diag(ctx, Severity::Error, Some(event), m);
            }
            Ok(v) => {
                for (at, key) in unknown {
                    let m = format!("hooks[{event}]{at}: unknown property {} (ignored)", quote(&key));
                    sink.file_diag(ctx, Severity::Warning, Some(event), m);
                }
                out.insert(event.clone(), v);
            }
        }
    }
    out
}

/// The event's groups as Auggie keeps them (unknown keys dropped, a non-tool group's matcher
/// dropped, empty groups dropped), or where the event breaks Auggie's schema.
fn event_value(value: &Value, tool: bool, unknown: &mut Vec<(String, String)>) -> Result<Value, (String, String)> {
    let checked = if tool {
        crate::harness::schema::read_as::<Vec<ToolGroup>>(value).map(|_| ())
    } else {
        crate::harness::schema::read_as::<Vec<EventGroup>>(value).map(|_| ())
    };
    if let Err(e) = checked {
        return Err((crate::harness::schema::render_path(e.path()), e.inner().to_string()));
    }
    let mut kept = Vec::new();
    for (i, g) in value.as_array().into_iter().flatten().enumerate() {
        let at = format!("[{i}]");
        let mut group = Map::new();
        for (k, v) in g.as_object().into_iter().flatten() {
            if !GROUP_KEYS.contains(&k.as_str()) || (!tool && k == "matcher") {
                unknown.push((at.clone(), k.clone()));
            } else if k == "hooks" {
                group.insert(k.clone(), Value::Array(handlers(v, &at, unknown)));
            } else {
                group.insert(k.clone(), v.clone());
            }
        }
        if group.get("hooks").and_then(Value::as_array).is_some_and(|h| !h.is_empty()) {
            kept.push(Value::Object(group));
        }
    }
    Ok(Value::Array(kept))
}

/// A group's hooks with only the keys Auggie reads.
fn handlers(v: &Value, at: &str, unknown: &mut Vec<(String, String)>) -> Vec<Value> {
    let mut out = Vec::new();
    for (j, h) in v.as_array().into_iter().flatten().enumerate() {
        let mut o = Map::new();
        for (k, x) in h.as_object().into_iter().flatten() {
            if HANDLER_KEYS.contains(&k.as_str()) {
                o.insert(k.clone(), x.clone());
            } else {
                unknown.push((format!("{at}.hooks[{j}]"), k.clone()));
            }
        }
        out.push(Value::Object(o));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    fn load(text: &str) -> (Vec<String>, Vec<String>) {
        let (hooks, diags) =
            crate::load::parse_text(Path::new("/p/.augment/settings.json"), Some(Dialect::Auggie), text);
        (hooks.iter().map(|h| h.event.clone()).collect(), diags.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn one_broken_entry_drops_its_whole_event_and_no_other() {
        let (events, diags) = load(
            r#"{"hooks":{
              "PreToolUse":[{"matcher":"launch-process","hooks":[{"type":"command","command":"true"}]},
                            {"hooks":[{"command":"no-type"}]}],
              "Stop":[{"hooks":[{"type":"command","command":"true","timeout":5000}]}]}}"#,
        );
        assert_eq!(events, vec!["Stop"]);
        assert!(diags.iter().any(|d| d.contains("hooks[PreToolUse][1].hooks[0]: missing field `type`")), "{diags:?}");
    }

    #[test]
    fn a_non_tool_group_has_no_matcher_and_unknown_keys_are_reported() {
        let (events, diags) = load(
            r#"{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"true","env":{}}]}]}}"#,
        );
        assert_eq!(events, vec!["SessionStart"]);
        assert!(diags.iter().any(|d| d.contains("unknown property \"matcher\"")), "{diags:?}");
        assert!(diags.iter().any(|d| d.contains("unknown property \"env\"")), "{diags:?}");
    }
}
