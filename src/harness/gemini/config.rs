//! Gemini CLI `settings.json` (and an extension's `hooks/hooks.json`):
//! `{"hooksConfig": {"enabled", "disabled": [names]}, "hooks": {"BeforeTool": [{"matcher",
//! "sequential", "hooks": [{"name", "type": "command", "command", "timeout" (ms)}]}]}}`.
//! Tool-event matchers are regexes (an invalid one matches exactly), lifecycle matchers exact.

use crate::config::entry::{self, Entry};
use crate::config::{FileCtx, LoadSink, Matcher};
use crate::harness::gemini::DEFAULT_TIMEOUT_MS;
use crate::vocab::{CanonicalEvent, EventSpec, MatcherStyle, Order, Severity};
use serde_json::{Map, Value};

/// Keys of the `hooks` object that are settings, not events (older Gemini versions).
const SETTINGS: [&str; 3] = ["enabled", "disabled", "notifications"];

fn exact(m: &str) -> Matcher {
    if Matcher::is_match_all(m) {
        Matcher::All
    } else {
        Matcher::Literal(vec![m.to_owned()])
    }
}

fn regex_or_exact(m: &str) -> Matcher {
    Matcher::compile(m, MatcherStyle::Regex).unwrap_or_else(|_| exact(m))
}

/// Whether Gemini matches the event's hooks against a trigger (`hookEventHandler.ts` passes
/// `{trigger}` for these three only); on the other lifecycle events a matcher is ignored
/// (`hookPlanner.ts` `matchesContext` with no context).
fn has_trigger(e: CanonicalEvent) -> bool {
    matches!(e, CanonicalEvent::SessionStart | CanonicalEvent::SessionEnd | CanonicalEvent::CompactBefore)
}

/// Parses a Gemini file; returns the number of groups accepted.
pub(crate) fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let map = match root.get("hooks") {
        Some(Value::Object(map)) => map,
        None | Some(Value::Null) => return 0,
        Some(_) => {
            sink.file_diag(ctx, Severity::Error, None, "\"hooks\" must be an object of event names".into());
            return 0;
        }
    };
    let switches = root.get("hooksConfig").and_then(Value::as_object).unwrap_or(map);
    if switches.get("enabled") == Some(&Value::Bool(false)) {
        return 0;
    }
    let disabled: Vec<&str> = switches
        .get("disabled")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut groups = 0;
    for (event, value) in map.iter().filter(|(k, _)| !SETTINGS.contains(&k.as_str())) {
        let Some(spec) = ctx.event(event) else {
            sink.unknown_event(ctx, event);
            continue;
        };
        let Some(list) = value.as_array() else {
            let m = format!("hooks[{event}]: must be an array of matcher groups");
            sink.file_diag(ctx, Severity::Error, Some(event), m);
            continue;
        };
        let first = sink.hooks.len();
        let mut sequential = false;
        for (gi, g) in list.iter().enumerate() {
            let Some(group) = Entry::read(ctx, event, format!("hooks[{event}][{gi}]"), g, sink) else { continue };
            groups += usize::from(parse_group(&group, spec, gi, &disabled, &mut sequential, sink));
        }
        if sequential {
            sink.hooks[first..].iter_mut().for_each(|h| h.harness.order = Order::Chain);
        }
    }
    groups
}

/// One matcher group and its hooks; `false` when the group is dropped.
fn parse_group(
    group: &Entry,
    spec: EventSpec,
    gi: usize,
    disabled: &[&str],
    sequential: &mut bool,
    sink: &mut LoadSink,
) -> bool {
    let (ctx, event) = (group.ctx, group.event);
    let compile: fn(&str) -> Matcher = match spec.matcher {
        true => regex_or_exact,
        false if has_trigger(spec.canonical) => exact,
        false => |_| Matcher::All,
    };
    let Some((matcher_text, matcher)) = group.matcher(sink, spec.canonical, Some(compile)) else { return false };
    if matcher_text.as_deref().is_some_and(|m| !Matcher::is_match_all(m)) && matches!(matcher, Matcher::All) {
        let m = format!("matcher has no effect on {event}: Gemini CLI runs its hooks whatever the matcher says");
        group.diag(sink, Severity::Warning, &m);
    }
    *sequential |= group.flag(sink, "sequential");
    let Some(entries) = group.obj.get("hooks").and_then(Value::as_array) else {
        group.diag(sink, Severity::Error, "hooks must be an array");
        return false;
    };
    for (hi, v) in entries.iter().enumerate() {
        let Some(e) = Entry::read(ctx, event, format!("{}.hooks[{hi}]", group.at), v, sink) else { continue };
        if e.obj.get("type").is_some_and(|t| t != "command") {
            e.diag(sink, Severity::Error, "only type \"command\" hooks exist in Gemini CLI");
            continue;
        }
        let Some(command) = e.command(sink, &["command"]) else { continue };
        let name = e.string(sink, "name");
        let handler = entry::shell(command, entry::env_map(&e, sink));
        let mut h = entry::hook(ctx, event, (spec.canonical, spec.result), &format!("{gi}:{hi}"), handler);
        h.enabled = !name.as_deref().is_some_and(|n| disabled.contains(&n));
        h.matcher_text = matcher_text.clone();
        h.matcher = matcher.clone();
        h.timeout = e.timeout_ms(sink, "timeout", Some(DEFAULT_TIMEOUT_MS / 1000.0));
        h.harness.name = name;
        sink.hooks.push(h);
    }
    true
}
