//! Gemini CLI `settings.json` (and an extension's `hooks/hooks.json`):
//! `{"hooksConfig": {"enabled", "disabled": [names]}, "hooks": {"BeforeTool": [{"matcher",
//! "sequential", "hooks": [{"name", "type": "command", "command", "timeout" (ms)}]}]}}`.
//! Tool-event matchers are regexes (an invalid one matches exactly), lifecycle matchers exact.

use crate::config::entry::{self, Entry};
use crate::config::{FileCtx, LoadSink, Matcher};
use crate::harness::gemini::schema::{GeminiGroup, GeminiHook};
use crate::harness::gemini::DEFAULT_TIMEOUT_MS;
use crate::harness::schema::{self, env_of, given};
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

/// One matcher group and its hooks, read through the file type; `false` when the group is
/// dropped.
fn parse_group(
    group: &Entry,
    spec: EventSpec,
    gi: usize,
    disabled: &[&str],
    sequential: &mut bool,
    sink: &mut LoadSink,
) -> bool {
    let (ctx, event) = (group.ctx, group.event);
    let Some(read) = schema::entry::<GeminiGroup>(group, sink) else { return false };
    let compile: fn(&str) -> Matcher = match spec.matcher {
        true => regex_or_exact,
        false if has_trigger(spec.canonical) => exact,
        false => |_| Matcher::All,
    };
    let text = read.matcher.map(|m| m.0);
    let Some((matcher_text, matcher)) = group.compile_matcher(sink, spec.canonical, text, Some(compile)) else {
        return false;
    };
    if matcher_text.as_deref().is_some_and(|m| !Matcher::is_match_all(m)) && matches!(matcher, Matcher::All) {
        let m = format!("matcher has no effect on {event}: Gemini CLI runs its hooks whatever the matcher says");
        group.diag(sink, Severity::Warning, &m);
    }
    *sequential |= given(&read.sequential).copied().unwrap_or(false);
    for (hi, v) in read.hooks.0.values().iter().enumerate() {
        let Some(e) = Entry::read(ctx, event, format!("{}.hooks[{hi}]", group.at), v, sink) else { continue };
        let Some(hook) = schema::entry::<GeminiHook>(&e, sink) else { continue };
        let handler = entry::shell(ctx.subst.apply(&hook.command.0), env_of(&hook.env, ctx.subst));
        let mut h = entry::hook(ctx, event, (spec.canonical, spec.result), &format!("{gi}:{hi}"), handler);
        let name = given(&hook.name).cloned();
        h.enabled = !name.as_deref().is_some_and(|n| disabled.contains(&n));
        h.matcher_text = matcher_text.clone();
        h.matcher = matcher.clone();
        h.timeout = Some(given(&hook.timeout).map_or(DEFAULT_TIMEOUT_MS, |t| t.0 .0) / 1000.0);
        h.harness.name = name;
        sink.hooks.push(h);
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::config::HandlerSpec;
    use crate::vocab::{Dialect, Order};
    use std::path::Path;

    /// Groups and hooks are read through the file type: a wrong group drops the group, a wrong
    /// hook drops the hook, a wrong optional field is reported and read as left out, in Gemini's
    /// own words; `hookrt validate` refuses the same file.
    #[test]
    fn groups_and_hooks_are_read_through_the_file_type() {
        let text = r#"{"hooksConfig":{"disabled":["off"]},"hooks":{"BeforeTool":[
          {"matcher":"run_shell_command","sequential":"yes","hooks":[
            {"type":"command","command":"a.sh","name":"off","env":{"Z":"1","A":"2"},"timeout":1500},
            {"type":"http","command":"b.sh"},
            {"command":"  "},
            {"command":"c.sh","name":7,"timeout":-1},
            "not an object"]},
          {"matcher":7,"hooks":[{"command":"d.sh"}]},
          {"hooks":"e.sh"},
          {"matcher":"x"}]}}"#;
        let (hooks, diags) = crate::load::parse_text(Path::new("/p/.gemini/settings.json"), Some(Dialect::Gemini), text);
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "hooks[BeforeTool][0]: sequential must be true or false",
                "hooks[BeforeTool][0].hooks[1]: only type \"command\" hooks exist in Gemini CLI",
                "hooks[BeforeTool][0].hooks[2]: missing command",
                "hooks[BeforeTool][0].hooks[3]: name must be a string",
                "hooks[BeforeTool][0].hooks[3]: timeout must be a positive number of milliseconds",
                "hooks[BeforeTool][0].hooks[4]: entry is not an object",
                "hooks[BeforeTool][1]: matcher must be a string",
                "hooks[BeforeTool][2]: hooks must be an array",
                "hooks[BeforeTool][3]: missing hooks",
            ]
        );
        assert_eq!(hooks.len(), 2);
        let HandlerSpec::Shell { command, env, .. } = &hooks[0].handler else { panic!("{:?}", hooks[0].handler) };
        assert_eq!((command.as_str(), env.clone()), ("a.sh", vec![("Z".into(), "1".into()), ("A".into(), "2".into())]));
        assert_eq!((hooks[0].enabled, hooks[0].timeout, hooks[0].harness.name.as_deref()), (false, Some(1.5), Some("off")));
        assert_eq!((hooks[1].enabled, hooks[1].timeout, hooks[1].harness.name.clone()), (true, Some(60.0), None));
        assert!(hooks.iter().all(|h| h.harness.order != Order::Chain && h.matcher_text.as_deref() == Some("run_shell_command")));
        let root: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        assert!(crate::harness::schema::check_root(Dialect::Gemini, &root).is_some());
    }
}
