//! Reading the `hooks:` block of a Hermes `config.yaml`: shell hooks (one flat entry per hook,
//! the command split shell-style, no shell) and `hooks.outbound` targets.

use crate::config::entry::hook;
use crate::config::matcher::{event_matcher, matcher_field};
use crate::config::{FileCtx, HandlerSpec, Hook, LoadSink, OutboundTarget};
use crate::vocab::text::{did_you_mean, quote};
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

/// Hermes' default and largest shell-hook timeouts, in seconds.
pub(crate) const DEFAULT_TIMEOUT: f64 = 60.0;
pub(crate) const MAX_TIMEOUT: f64 = 300.0;

/// Events whose answer a shell hook has no way to give (`SHELL_UNSUPPORTED_HOOKS`): Hermes
/// refuses shell hooks on them.
const SHELL_UNSUPPORTED: &[&str] = &["transform_api_error_classification"];

/// Parses the `hooks` mapping; returns the number of hooks accepted.
pub(crate) fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(block) = root.get("hooks") else { return 0 };
    let Some(map) = block.as_object() else {
        if !block.is_null() {
            sink.file_diag(ctx, Severity::Error, None, "hooks: must be a mapping of event names".into());
        }
        return 0;
    };
    sink.auto_accept = root.get("hooks_auto_accept") == Some(&Value::Bool(true));
    let newer = super::from_0_20_1(ctx.version);
    let known = |name: &str| newer || !super::ADDED_0_20_1.contains(&name);
    let mut count = 0;
    // Hermes registers each (event, matcher, command) once (`shell_hooks.register_from_config`)
    let mut registered = std::collections::HashSet::new();
    for (event, value) in map {
        if event == "outbound" {
            parse_outbound(ctx, value, sink);
            continue;
        }
        if event == "output_spill" && newer {
            continue;
        }
        let Some(spec) = ctx.event(event).filter(|s| known(s.name)) else {
            let why = match ctx.event(event) {
                Some(_) => format!(" (Hermes has it from {})", super::V0_20_1),
                None => did_you_mean(event, &ctx.event_names().into_iter().filter(|n| known(n)).collect::<Vec<_>>()),
            };
            sink.file_diag(ctx, Severity::Warning, None, format!("unknown event {} (ignored){why}", quote(event)));
            continue;
        };
        if SHELL_UNSUPPORTED.contains(&event.as_str()) {
            let m = format!(
                "{event} is for Python plugins only: a shell hook cannot return its answer, so Hermes refuses it (ignored)"
            );
            sink.file_diag(ctx, Severity::Warning, Some(event), m);
            continue;
        }
        let Some(list) = value.as_array() else {
            sink.file_diag(ctx, Severity::Error, Some(event), format!("hooks[{event}]: must be a list of hooks"));
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            if let Some(h) = parse_hook(ctx, spec, i, entry, sink) {
                let command = entry.get("command").and_then(Value::as_str).map(str::trim).unwrap_or_default();
                if !registered.insert((event.as_str(), h.matcher_text.clone(), command)) {
                    tracing::debug!("hooks[{event}][{i}]: the same matcher and command as an earlier entry; Hermes registers it once");
                    continue;
                }
                sink.hooks.push(h);
                count += 1;
            }
        }
    }
    count
}

/// One entry of an event's list; `None` (with a diagnostic) drops it.
fn parse_hook(ctx: &FileCtx, spec: EventSpec, i: usize, entry: &Value, sink: &mut LoadSink) -> Option<Hook> {
    let event = spec.name;
    let mut diag =
        |sev, m: String| sink.diagnostics.push(ctx.diag(sev, Some(event), format!("hooks[{event}][{i}]: {m}")));
    let Some(o) = entry.as_object() else {
        diag(Severity::Error, "entry is not a mapping".into());
        return None;
    };
    let Some(command) = o.get("command").and_then(Value::as_str).filter(|c| !c.trim().is_empty()) else {
        diag(Severity::Warning, "missing command (skipped)".into());
        return None;
    };
    let command = command.trim();
    let Some(mut argv) = split(&expand_home(command, ctx.home)).filter(|a| !a.is_empty()) else {
        diag(Severity::Error, "command cannot be split into words (unbalanced quotes?)".into());
        return None;
    };
    let mut text = matcher_field(o).map_err(|e| diag(Severity::Error, e.to_string())).ok()?;
    let matcher = match event_matcher(&mut text, spec.matcher, ctx.style) {
        Ok((m, dropped)) => {
            if dropped {
                diag(
                    Severity::Warning,
                    format!("matcher has no effect on {event} (only pre_tool_call and post_tool_call use it)"),
                );
            }
            m
        }
        Err(e) => {
            diag(Severity::Error, e.to_string());
            return None;
        }
    };
    let timeout = timeout(o, &mut diag);
    let program = argv.remove(0);
    let handler = HandlerSpec::Shell { command: program, args: Some(argv), env: Vec::new() };
    let mut h = hook(ctx, event, (spec.canonical, spec.result), &format!("{i}:0"), handler);
    h.env = Vec::new();
    h.origin = Default::default();
    h.matcher_text = text;
    h.matcher = matcher;
    h.timeout = Some(timeout);
    h.harness.written = Some(command.to_owned());
    h.harness.order = crate::vocab::Order::Sequential;
    h.harness.version = ctx.version;
    if super::from_0_20_1(ctx.version) {
        h.fail_closed = fail_closed(o, spec, &mut diag);
    }
    Some(h)
}

/// `fail_closed` (or Cursor's and Claude's `failClosed`; the first wins): only a
/// `pre_tool_call` hook can fail closed.
fn fail_closed(o: &Map<String, Value>, spec: EventSpec, diag: &mut impl FnMut(Severity, String)) -> bool {
    let Some(v) = o.get("fail_closed").or_else(|| o.get("failClosed")) else { return false };
    let Some(on) = v.as_bool() else {
        diag(Severity::Warning, format!("fail_closed must be true or false (got {v}); the hook fails open"));
        return false;
    };
    if on && spec.canonical != crate::vocab::CanonicalEvent::ToolBefore {
        diag(Severity::Warning, format!("fail_closed has no effect on {} (only pre_tool_call can block)", spec.name));
        return false;
    }
    on
}

/// `timeout` in seconds: 60 by default, capped at 300.
fn timeout(o: &Map<String, Value>, diag: &mut impl FnMut(Severity, String)) -> f64 {
    match o.get("timeout") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT,
        Some(v) => match v.as_f64() {
            Some(t) if t > MAX_TIMEOUT => {
                diag(Severity::Warning, format!("timeout {t} is over {MAX_TIMEOUT}s; capped"));
                MAX_TIMEOUT
            }
            Some(t) if t > 0.0 => t,
            _ => {
                diag(Severity::Error, "timeout must be a positive number of seconds".into());
                DEFAULT_TIMEOUT
            }
        },
    }
}

/// `os.path.expanduser` on the whole command: only a leading `~` (or `~/…`) is the home folder.
fn expand_home(s: &str, home: &std::path::Path) -> String {
    match s.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.display()),
        None if s == "~" => home.display().to_string(),
        None => s.to_owned(),
    }
}

/// Python's `shlex.split` (POSIX rules, no comments): a `#` is an ordinary character, so a word
/// such as `#tag` stays a word. The `shlex` crate always reads `#` as a comment, so `#` is hidden
/// from it behind a private-use character and put back after the split.
pub(super) fn split(command: &str) -> Option<Vec<String>> {
    const HIDDEN: char = '\u{F8FF}';
    if command.contains(HIDDEN) {
        return shlex::split(command);
    }
    let words = shlex::split(&command.replace('#', &HIDDEN.to_string()))?;
    Some(words.into_iter().map(|w| w.replace(HIDDEN, "#")).collect())
}

fn parse_outbound(ctx: &FileCtx, value: &Value, sink: &mut LoadSink) {
    let Some(list) = value.as_array() else {
        sink.file_diag(ctx, Severity::Error, None, "hooks[outbound]: must be a list of targets".into());
        return;
    };
    for (i, t) in list.iter().enumerate() {
        let at = format!("hooks[outbound][{i}]");
        let Some(o) = t.as_object() else {
            sink.file_diag(ctx, Severity::Error, None, format!("{at}: entry is not a mapping"));
            continue;
        };
        let Some(url) = o.get("url").and_then(Value::as_str).filter(|u| !u.trim().is_empty()) else {
            sink.file_diag(ctx, Severity::Error, None, format!("{at}: missing url"));
            continue;
        };
        let mut events = Vec::new();
        for e in o.get("events").and_then(Value::as_array).into_iter().flatten() {
            match e.as_str().and_then(|n| ctx.event(n).map(|s| (s.canonical, n.to_owned()))) {
                Some(pair) => events.push(pair),
                None => sink.file_diag(ctx, Severity::Warning, None, format!("{at}: unknown event {e} (ignored)")),
            }
        }
        if events.is_empty() {
            sink.file_diag(ctx, Severity::Warning, None, format!("{at}: no known events; it will never be called"));
        }
        let secret_env = o.get("secret_env").and_then(Value::as_str).map(str::to_owned);
        sink.outbound.push(OutboundTarget { dialect: ctx.dialect, url: url.trim().to_owned(), events, secret_env });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_python_shlex_and_expand_a_leading_tilde_only() {
        let home = std::path::Path::new("/h");
        assert_eq!(split("node rec.mjs #tag 'a b'").unwrap(), ["node", "rec.mjs", "#tag", "a b"]);
        assert_eq!(expand_home("~/bin/guard ~/x", home), "/h/bin/guard ~/x");
        assert_eq!(expand_home("guard ~/x", home), "guard ~/x");
        assert_eq!(split("a 'b").map(|_| ()), None);
    }
}
