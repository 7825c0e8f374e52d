//! What Auggie's loader refuses (`Cgi`: one zod schema per event): an event whose value breaks
//! the schema anywhere is ignored as a whole, with a warning, while the file's other events
//! load. Unknown keys are dropped with a warning, as Auggie does.

use crate::config::{FileCtx, LoadSink};
use crate::vocab::text::quote;
use crate::vocab::Severity;
use serde_json::{Map, Value};

/// Events whose groups carry a `matcher` (the others' groups are `{hooks, metadata}`).
const TOOL_EVENTS: [&str; 2] = ["PreToolUse", "PostToolUse"];
const GROUP_KEYS: [&str; 3] = ["matcher", "hooks", "metadata"];
const HANDLER_KEYS: [&str; 4] = ["type", "command", "args", "timeout"];
const METADATA_KEYS: [&str; 3] = ["includeConversationData", "includeMCPMetadata", "includeUserContext"];
/// Cursor's event names, which Auggie also reads (flat lists of commands); hookrt does not.
const CURSOR_EVENTS: [&str; 7] = [
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
            let m = if CURSOR_EVENTS.contains(&event.as_str()) {
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

type Problem = (String, String);

fn problem(at: String, m: &str) -> Problem {
    (at, m.to_owned())
}

/// The event's groups as Auggie keeps them, or where the first break is.
fn event_value(value: &Value, tool: bool, unknown: &mut Vec<(String, String)>) -> Result<Value, Problem> {
    let Some(groups) = value.as_array() else { return Err(problem(String::new(), "must be an array of groups")) };
    let mut kept = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let at = format!("[{i}]");
        let Some(obj) = g.as_object() else { return Err(problem(at, "group is not an object")) };
        let mut group = Map::new();
        for (k, v) in obj {
            if !GROUP_KEYS.contains(&k.as_str()) || (!tool && k == "matcher") {
                unknown.push((at.clone(), k.clone()));
                continue;
            }
            group.insert(k.clone(), v.clone());
        }
        if let Some(m) = group.get("matcher") {
            let Some(text) = m.as_str() else { return Err(problem(at, "matcher must be a string")) };
            if regex::Regex::new(text).is_err() {
                return Err(problem(at, &format!("invalid regex pattern {}", quote(text))));
            }
        }
        if let Some(meta) = group.get("metadata").filter(|m| !m.is_null()) {
            let ok = meta
                .as_object()
                .is_some_and(|o| o.iter().all(|(k, v)| !METADATA_KEYS.contains(&k.as_str()) || v.is_boolean()));
            if !ok {
                return Err(problem(at, "metadata must be an object of true/false flags"));
            }
        }
        let Some(handlers) = group.get("hooks").and_then(Value::as_array) else {
            return Err(problem(at, "hooks must be an array"));
        };
        for (j, h) in handlers.iter().enumerate() {
            handler(h, format!("{at}.hooks[{j}]"), unknown)?;
        }
        kept.push(Value::Object(group));
    }
    Ok(Value::Array(kept))
}

/// `{type: "command", command: non-empty string, args?: [string], timeout?: positive number}`.
fn handler(h: &Value, at: String, unknown: &mut Vec<(String, String)>) -> Result<(), Problem> {
    let Some(o) = h.as_object() else { return Err(problem(at, "hook is not an object")) };
    for k in o.keys().filter(|k| !HANDLER_KEYS.contains(&k.as_str())) {
        unknown.push((at.clone(), k.clone()));
    }
    if o.get("type").and_then(Value::as_str) != Some("command") {
        return Err(problem(at, "type must be \"command\""));
    }
    if o.get("command").and_then(Value::as_str).is_none_or(str::is_empty) {
        return Err(problem(at, "command must be a non-empty string"));
    }
    if let Some(a) = o.get("args") {
        if !a.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            return Err(problem(at, "args must be an array of strings"));
        }
    }
    if let Some(t) = o.get("timeout") {
        if !t.as_f64().is_some_and(|t| t > 0.0) {
            return Err(problem(at, "timeout must be a positive number of milliseconds"));
        }
    }
    Ok(())
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
        assert!(
            diags.iter().any(|d| d.contains("hooks[PreToolUse][1].hooks[0]: type must be \"command\"")),
            "{diags:?}"
        );
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
