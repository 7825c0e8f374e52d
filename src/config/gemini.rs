//! Gemini CLI `settings.json` (and an extension's `hooks/hooks.json`):
//! `{"hooksConfig": {"enabled", "disabled": [names]}, "hooks": {"BeforeTool": [{"matcher",
//! "sequential", "hooks": [{"name", "type": "command", "command", "timeout" (ms)}]}]}}`.
//! Tool-event matchers are regexes (an invalid one matches exactly), lifecycle matchers exact.

use super::entry::{self, Entry, LoadSink, Unit};
use super::groups::FileCtx;
use super::{Order, Severity};
use crate::dialect::Dialect;
use crate::harness::gemini::DEFAULT_TIMEOUT_MS;
use crate::matcher::Matcher;
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
    Matcher::compile(m, crate::dialect::MatcherStyle::Regex).unwrap_or_else(|_| exact(m))
}

/// Gemini's consent for project hooks: `home/.gemini/trusted_hooks.json` maps a project
/// directory to the `name:command` keys its user trusted. Under `requireHookApproval`, project
/// hooks (from `first` on) without such a key are dropped with a warning, as Gemini skips them.
pub fn keep_trusted(
    hooks: &mut Vec<super::Hook>,
    first: usize,
    home: &std::path::Path,
    project: &std::path::Path,
    diags: &mut Vec<super::Diagnostic>,
) {
    let file = home.join(".gemini/trusted_hooks.json");
    let trusted: Value =
        std::fs::read_to_string(&file).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
    let keys: Vec<&str> = trusted
        .get(project.display().to_string())
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut i = first;
    while i < hooks.len() {
        let h = &hooks[i];
        let command = match &h.handler {
            super::HandlerSpec::Shell { command, .. } => command.as_str(),
            _ => "",
        };
        let key = format!("{}:{command}", h.harness.name.as_deref().unwrap_or(""));
        if keys.contains(&key.as_str()) {
            i += 1;
            continue;
        }
        diags.push(super::Diagnostic {
            severity: Severity::Warning,
            file: Some(h.file.display().to_string()),
            event: Some(h.event.clone()),
            message: format!(
                "project hook {key:?} is not trusted in {} (requireHookApproval); not loaded",
                file.display()
            ),
        });
        hooks.remove(i);
    }
}

/// Parses a Gemini file; returns the number of groups accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(Value::Object(map)) = root.get("hooks") else { return 0 };
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
        let Some(spec) = Dialect::Gemini.harness_event(event) else {
            sink.unknown_event(ctx, event);
            continue;
        };
        let Some(list) = value.as_array() else {
            sink.file_diag(
                ctx,
                Severity::Error,
                Some(event),
                format!("hooks[{event}]: must be an array of matcher groups"),
            );
            continue;
        };
        let first = sink.hooks.len();
        let mut sequential = false;
        for (gi, g) in list.iter().enumerate() {
            let Some(group) = Entry::read(ctx, event, format!("hooks[{event}][{gi}]"), g, sink) else { continue };
            let compile: fn(&str) -> Matcher = if spec.matcher { regex_or_exact } else { exact };
            let Some((matcher_text, matcher)) = group.matcher(sink, spec.canonical, Some(compile)) else { continue };
            sequential |= group.flag(sink, "sequential");
            let Some(entries) = group.obj.get("hooks").and_then(Value::as_array) else {
                group.diag(sink, Severity::Error, "hooks must be an array");
                continue;
            };
            groups += 1;
            for (hi, v) in entries.iter().enumerate() {
                let Some(e) = Entry::read(ctx, event, format!("{}.hooks[{hi}]", group.at), v, sink) else { continue };
                if e.obj.get("type").is_some_and(|t| t != "command") {
                    e.diag(sink, Severity::Error, "only type \"command\" hooks exist in Gemini CLI");
                    continue;
                }
                let Some(command) = e.command(sink, &["command"]) else { continue };
                let name = e.string(sink, "name");
                let mut h = entry::hook(
                    ctx,
                    event,
                    (spec.canonical, spec.result),
                    &format!("{gi}:{hi}"),
                    entry::shell(command, entry::env_map(&e, sink)),
                );
                h.enabled = !name.as_deref().is_some_and(|n| disabled.contains(&n));
                h.matcher_text = matcher_text.clone();
                h.matcher = matcher.clone();
                h.timeout = e.timeout(sink, "timeout", Unit::Milliseconds, Some(DEFAULT_TIMEOUT_MS / 1000.0));
                h.harness.name = name;
                sink.hooks.push(h);
            }
        }
        if sequential {
            sink.hooks[first..].iter_mut().for_each(|h| h.harness.order = Order::Chain);
        }
    }
    groups
}
