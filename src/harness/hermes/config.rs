//! Reading the `hooks:` block of a Hermes `config.yaml`: shell hooks (one flat entry per hook,
//! the command split shell-style, no shell) and `hooks.outbound` targets.

use crate::config::entry::{hook, Entry};
use crate::config::matcher::event_matcher;
use crate::config::{FileCtx, HandlerSpec, Hook, LoadSink, OutboundTarget};
use crate::harness::hermes::schema::{HermesHook, Outbound};
use crate::harness::hermes::words::{expand_home, split};
use crate::harness::schema::{self, given};
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
                if !registered.insert((event.as_str(), h.matcher_text.clone(), h.harness.written.clone())) {
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

/// One entry of an event's list, read through its type ([`HermesHook`]); `None` (with a
/// diagnostic) drops it.
fn parse_hook(ctx: &FileCtx, spec: EventSpec, i: usize, value: &Value, sink: &mut LoadSink) -> Option<Hook> {
    let event = spec.name;
    let at = format!("hooks[{event}][{i}]");
    let Some(obj) = value.as_object() else {
        sink.diagnostics.push(ctx.diag(Severity::Error, Some(event), format!("{at}: entry is not a mapping")));
        return None;
    };
    let e = Entry { ctx, event, at, obj, value };
    let HermesHook(Some(read)) = schema::entry::<HermesHook>(&e, sink)? else {
        e.diag(sink, Severity::Warning, "missing command (skipped)");
        return None;
    };
    let Some(mut argv) = split(&expand_home(&read.command, ctx.home)).filter(|a| !a.is_empty()) else {
        e.diag(sink, Severity::Error, "command cannot be split into words (unbalanced quotes?)");
        return None;
    };
    let mut text = read.matcher.map(|m| m.0);
    let matcher = match event_matcher(&mut text, spec.matcher, ctx.style) {
        Ok((m, dropped)) => {
            if dropped {
                let m = format!("matcher has no effect on {event} (only pre_tool_call and post_tool_call use it)");
                e.diag(sink, Severity::Warning, &m);
            }
            m
        }
        Err(err) => {
            e.diag(sink, Severity::Error, &err.to_string());
            return None;
        }
    };
    let timeout = match given(&read.timeout) {
        None => DEFAULT_TIMEOUT,
        Some(t) if t.0 > MAX_TIMEOUT => {
            e.diag(sink, Severity::Warning, &format!("timeout {} is over {MAX_TIMEOUT}s; capped", t.0));
            MAX_TIMEOUT
        }
        Some(t) => t.0,
    };
    let program = argv.remove(0);
    let handler = HandlerSpec::Shell { command: program, args: Some(argv), env: Vec::new() };
    let mut h = hook(ctx, event, (spec.canonical, spec.result), &format!("{i}:0"), handler);
    h.env = Vec::new();
    h.origin = Default::default();
    h.matcher_text = text;
    h.matcher = matcher;
    h.timeout = Some(timeout);
    h.harness.order = crate::vocab::Order::Sequential;
    h.harness.version = ctx.version;
    if super::from_0_20_1(ctx.version) {
        h.fail_closed = fail_closed(obj, spec, &mut |sev, m: String| e.diag(sink, sev, &m));
    }
    h.harness.written = Some(read.command);
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

fn parse_outbound(ctx: &FileCtx, value: &Value, sink: &mut LoadSink) {
    let Some(list) = value.as_array() else {
        sink.file_diag(ctx, Severity::Error, None, "hooks[outbound]: must be a list of targets".into());
        return;
    };
    for (i, t) in list.iter().enumerate() {
        let at = format!("hooks[outbound][{i}]");
        if !t.is_object() {
            sink.file_diag(ctx, Severity::Error, None, format!("{at}: entry is not a mapping"));
            continue;
        }
        let o = match schema::leniently::<Outbound>(t).0 {
            Ok(o) => o,
            Err(why) => {
                sink.file_diag(ctx, Severity::Error, None, format!("{at}: {why}"));
                continue;
            }
        };
        let mut events = Vec::new();
        for e in o.events.as_ref().and_then(Value::as_array).into_iter().flatten() {
            match e.as_str().and_then(|n| ctx.event(n).map(|s| (s.canonical, n.to_owned()))) {
                Some(pair) => events.push(pair),
                None => sink.file_diag(ctx, Severity::Warning, None, format!("{at}: unknown event {e} (ignored)")),
            }
        }
        if events.is_empty() {
            sink.file_diag(ctx, Severity::Warning, None, format!("{at}: no known events; it will never be called"));
        }
        let secret_env = o.secret_env.as_ref().and_then(Value::as_str).map(str::to_owned);
        sink.outbound.push(OutboundTarget { dialect: ctx.dialect, url: o.url.0.trim().to_owned(), events, secret_env });
    }
}

#[cfg(test)]
mod tests {
    use crate::config::HandlerSpec;
    use crate::vocab::{Dialect, Severity};
    use std::path::Path;

    /// Each entry is read through its type: no command skips it with a warning, a command that
    /// cannot be split or a wrong matcher drops it, a wrong timeout is reported and the default
    /// kept, a long one capped; outbound targets are read through theirs.
    #[test]
    fn entries_and_targets_are_read_through_their_types() {
        let text = "hooks:\n  pre_tool_call:\n    - command: \"  ~/guard.sh --x  \"\n      matcher: terminal\n      timeout: 900\n\
                    \x20   - command: \"  \"\n    - command: \"a 'b\"\n    - command: g2.sh\n      matcher: 7\n\
                    \x20   - command: g3.sh\n      timeout: soon\n    - 5\n\
                    \x20 on_session_start:\n    - command: s.sh\n      matcher: x\n\
                    \x20 outbound:\n    - url: \"  \"\n    - url: http://127.0.0.1:9/x\n      events: [pre_tool_call]\n";
        let (hooks, d) = crate::load::parse_text(Path::new("/h/.hermes/config.yaml"), Some(Dialect::Hermes), text);
        let got: Vec<(Severity, &str)> = d.iter().map(|d| (d.severity, d.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (Severity::Warning, "hooks[pre_tool_call][0]: timeout 900 is over 300s; capped"),
                (Severity::Warning, "hooks[pre_tool_call][1]: missing command (skipped)"),
                (Severity::Error, "hooks[pre_tool_call][2]: command cannot be split into words (unbalanced quotes?)"),
                (Severity::Error, "hooks[pre_tool_call][3]: matcher must be a string"),
                (Severity::Error, "hooks[pre_tool_call][4]: timeout must be a positive number of seconds"),
                (Severity::Error, "hooks[pre_tool_call][5]: entry is not a mapping"),
                (
                    Severity::Warning,
                    "hooks[on_session_start][0]: matcher has no effect on on_session_start (only pre_tool_call and post_tool_call use it)"
                ),
                (Severity::Error, "hooks[outbound][0]: missing url"),
            ]
        );
        assert_eq!(hooks.len(), 3);
        let HandlerSpec::Shell { command, args, .. } = &hooks[0].handler else { panic!("{:?}", hooks[0].handler) };
        assert!(command.ends_with("/guard.sh") && !command.starts_with('~'), "{command}");
        assert_eq!(args.as_deref(), Some(&["--x".to_owned()][..]));
        assert_eq!((hooks[0].timeout, hooks[0].harness.written.as_deref()), (Some(300.0), Some("~/guard.sh --x")));
        assert_eq!((hooks[1].timeout, hooks[1].matcher_text.as_deref()), (Some(60.0), None));
        assert_eq!(hooks[2].matcher_text, None);
    }
}
