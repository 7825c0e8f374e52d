//! Reading Auggie's `hooks` (`Cgi`: one zod schema per event, here the types of schema.rs): an
//! event whose value breaks the schema anywhere is ignored as a whole while the file's other
//! events load, and the hooks are made from what the types read. Unknown keys are dropped with a
//! warning, as Auggie does.

use crate::config::entry;
use crate::config::matcher::event_matcher;
use crate::config::{FileCtx, HandlerSpec, Hook, LoadSink};
use crate::harness::auggie::schema::{AuggieHook, EventGroup, ToolGroup};
use crate::harness::auggie::{spawn_form, DEFAULT_TIMEOUT_SECS};
use crate::harness::schema::{read_as, render_path};
use crate::vocab::text::quote;
use crate::vocab::{EventSpec, Severity};
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

/// A group as the loader keeps it: a non-tool group has no matcher (Auggie strips it).
type Group = (Option<String>, Vec<AuggieHook>);

/// Reads the events of a `hooks` object Auggie would load; returns the number of groups.
pub(crate) fn parse(ctx: &FileCtx, events: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let mut count = 0;
    // One group per matcher, each command (with its args) once (`_gi`).
    let mut seen = Vec::new();
    for (event, value) in events {
        let Some(spec) = ctx.event(event) else {
            let m = if OTHER_HARNESS_EVENTS.contains(&event.as_str()) {
                format!("Cursor-style event {} is not read by hookrt (ignored)", quote(event))
            } else {
                format!("unknown event {} (ignored)", quote(event))
            };
            sink.file_diag(ctx, Severity::Warning, None, m);
            continue;
        };
        let tool = TOOL_EVENTS.contains(&event.as_str());
        let Some(groups) = read_event(ctx, event, value, tool, sink) else { continue };
        for (at, key) in unknown_keys(value, tool) {
            let m = format!("hooks[{event}]{at}: unknown property {} (ignored)", quote(&key));
            sink.file_diag(ctx, Severity::Warning, Some(event), m);
        }
        for (gi, group) in groups.into_iter().filter(|g| !g.1.is_empty()).enumerate() {
            count += 1;
            for h in hooks(ctx, spec, gi, group, sink) {
                let key = (h.event.clone(), h.matcher_text.clone(), serde_json::to_string(&h.handler).unwrap_or_default());
                if !seen.contains(&key) {
                    seen.push(key);
                    sink.hooks.push(h);
                }
            }
        }
    }
    count
}

/// The event's groups through their types, or `None` (reported) when the event breaks them.
fn read_event(ctx: &FileCtx, event: &str, value: &Value, tool: bool, sink: &mut LoadSink) -> Option<Vec<Group>> {
    let read = if tool {
        read_as::<Vec<ToolGroup>>(value).map(|gs| gs.into_iter().map(|g| (g.matcher.map(|m| m.0), g.hooks)).collect())
    } else {
        read_as::<Vec<EventGroup>>(value).map(|gs| gs.into_iter().map(|g| (None, g.hooks)).collect())
    };
    match read {
        Ok(groups) => Some(groups),
        Err(e) => {
            let (at, problem) = (render_path(e.path()), e.inner());
            let m = format!("hooks[{event}]{at}: {problem}; Auggie ignores every hook of {event} in this file");
            sink.file_diag(ctx, Severity::Error, Some(event), m);
            None
        }
    }
}

/// One group's hooks: ids `<group>:<hook>`, the timeout in milliseconds (60 s when left out),
/// spawned as Auggie spawns them.
fn hooks(ctx: &FileCtx, spec: EventSpec, gi: usize, (mut text, hooks): Group, sink: &mut LoadSink) -> Vec<Hook> {
    let matcher = match event_matcher(&mut text, spec.canonical.has_subject(), ctx.style) {
        Ok((m, _)) => m,
        Err(e) => {
            let m = format!("hooks[{}][{gi}]: {e}", spec.name);
            sink.file_diag(ctx, Severity::Error, Some(spec.name), m);
            return Vec::new();
        }
    };
    let subst = |s: &str| ctx.subst.apply(s);
    let mut out = Vec::new();
    for (hi, h) in hooks.into_iter().enumerate() {
        let args = h.args.map(|a| a.iter().map(|s| subst(s)).collect());
        let handler = spawn_form(HandlerSpec::Shell { command: subst(&h.command.0), args, env: Vec::new() });
        let mut hook = entry::hook(ctx, spec.name, (spec.canonical, spec.result), &format!("{gi}:{hi}"), handler);
        hook.matcher_text = text.clone();
        hook.matcher = matcher.clone();
        hook.timeout = Some(h.timeout.map_or(DEFAULT_TIMEOUT_SECS, |t| t.0 / 1000.0));
        out.push(hook);
    }
    out
}

/// Keys Auggie drops: unknown ones, and a non-tool group's matcher.
fn unknown_keys(value: &Value, tool: bool) -> Vec<(String, String)> {
    let mut unknown = Vec::new();
    for (i, g) in value.as_array().into_iter().flatten().enumerate() {
        for (k, v) in g.as_object().into_iter().flatten() {
            if !GROUP_KEYS.contains(&k.as_str()) || (!tool && k == "matcher") {
                unknown.push((format!("[{i}]"), k.clone()));
            } else if k == "hooks" {
                for (j, h) in v.as_array().into_iter().flatten().enumerate() {
                    let Some(h) = h.as_object() else { continue };
                    let extra = h.keys().filter(|k| !HANDLER_KEYS.contains(&k.as_str()));
                    unknown.extend(extra.map(|k| (format!("[{i}].hooks[{j}]"), k.clone())));
                }
            }
        }
    }
    unknown
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
