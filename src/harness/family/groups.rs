//! Claude Code's file shape, which Codex, Qwen Code, Droid, opencode and native files share:
//! `{Event: [{matcher, hooks: [{type, command, timeout, ...}]}]}`, read through the family's file
//! type (schema.rs), with the JavaScript implementation's diagnostic wording
//! (`hooks[PreToolUse][0].hooks[2]: missing command`).

use crate::config::entry::{self, Entry};
use crate::config::matcher::Matcher;
use crate::config::{FileCtx, Hook, LoadSink};
use crate::harness::family::schema::{Family, Group, Handler};
use crate::harness::family::{fields, handlers};
use crate::harness::schema;
use crate::vocab::text::quote;
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

/// Parses an event map; returns the number of matcher groups accepted.
pub(crate) fn parse_event_map<F: Family>(ctx: &FileCtx, map: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let mut groups = 0;
    for (event, value) in map {
        let Some(spec) = ctx.event(event) else {
            sink.file_diag(ctx, Severity::Warning, None, format!("unknown event {} (ignored)", quote(event)));
            continue;
        };
        let at = format!("{}[{}]", ctx.member, event);
        let Some(list) = value.as_array() else {
            sink.file_diag(ctx, Severity::Error, Some(event), format!("{at}: must be an array of matcher groups"));
            continue;
        };
        for (index, group) in list.iter().enumerate() {
            groups += usize::from(parse_group::<F>(ctx, (event, spec), (format!("{at}[{index}]"), index), group, sink));
        }
    }
    groups
}

/// Reads one matcher group and its hooks; `false` when the group is dropped.
fn parse_group<F: Family>(
    ctx: &FileCtx,
    (event, spec): (&str, EventSpec),
    (at, index): (String, usize),
    value: &Value,
    sink: &mut LoadSink,
) -> bool {
    let Some(obj) = value.as_object() else {
        sink.file_diag(ctx, Severity::Error, Some(event), format!("{at}: group is not an object"));
        return false;
    };
    let g = Entry { ctx, event, at, obj, value };
    let Some(group) = schema::entry::<Group<F>>(&g, sink) else { return false };
    let Some(matcher) = g.compile_matcher(sink, spec.canonical, group.matcher, None) else { return false };
    for (hi, v) in group.hooks.values().iter().enumerate() {
        let Some(e) = Entry::read(ctx, event, format!("{}.hooks[{hi}]", g.at), v, sink) else { continue };
        if let Some(h) = hook::<F>(&e, spec, &format!("{index}:{hi}"), &matcher, sink) {
            sink.hooks.push(h);
        }
    }
    true
}

/// One entry of the group as a hook; `None` (with a diagnostic) drops it.
fn hook<F: Family>(
    e: &Entry,
    spec: EventSpec,
    index: &str,
    (text, matcher): &(Option<String>, Matcher),
    sink: &mut LoadSink,
) -> Option<Hook> {
    let Handler { read, .. } = schema::entry::<Handler<F>>(e, sink)?;
    let mut diag = |sev: Severity, m: &str| e.diag(sink, sev, m);
    let handler = handlers::handler::<F>(&read, e.obj, e.ctx.subst, &mut diag);
    let common = read.common();
    let mut h = entry::hook(e.ctx, e.event, (spec.canonical, spec.result), index, handler);
    h.matcher_text = text.clone();
    h.matcher = matcher.clone();
    h.timeout = fields::timeout::<F>(common.timeout);
    h.on_error = fields::on_error(common.on_error, e.obj);
    h.family = fields::family(e.ctx.if_rules, &h.handler, common.if_rule.as_ref(), e.obj, &mut diag);
    h.enabled = !F::ENABLED_FLAG || fields::enabled(e.obj, &mut diag);
    h.deny_on_failure = e.obj.get("denyOnFailure") == Some(&Value::Bool(true));
    h.fail_closed = e.obj.get("failClosed") == Some(&Value::Bool(true));
    Some(h)
}

#[cfg(test)]
mod tests {
    use crate::config::HandlerSpec;
    use crate::vocab::{Dialect, OnError, Severity};
    use std::path::Path;

    /// Entries are read through the family's type: a wrong optional field is reported in the
    /// file's order and read as left out, what the type leaves open is read by the loader, and a
    /// group without `hooks` is refused in the loaders' words; `hookrt validate` refuses the same
    /// file.
    #[test]
    fn entries_are_read_through_the_family_type() {
        let text = r#"{"hooks":{"PreToolUse":[
          {"matcher":"Bash","hooks":[
            {"command":"w.sh","worker":true,"maxInFlight":0,"idleTimeout":9,"warm":"x","timeout":"1","env":{"Z":"1","A":"2"}},
            {"command":"g.sh","if":"Bash(git push:*)","onError":"warn","async":true},
            {"type":"http","url":" https://127.0.0.1:1/h ","allowedEnvVars":[1]},
            {"type":"mcp_tool","tool":"t"}]},
          {"matcher":"Bash"}]}}"#;
        let (hooks, d) = crate::load::parse_text(Path::new("/p/.claude/settings.json"), Some(Dialect::Claude), text);
        let got: Vec<(Severity, &str)> = d.iter().map(|d| (d.severity, d.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (Severity::Error, "hooks[PreToolUse][0].hooks[0]: maxInFlight must be a whole number from 1 to 10000"),
                (Severity::Error, "hooks[PreToolUse][0].hooks[0]: timeout must be a positive number of seconds"),
                (Severity::Warning, "hooks[PreToolUse][0].hooks[0]: warm must be true or false; ignored"),
                (Severity::Error, "hooks[PreToolUse][0].hooks[2]: allowedEnvVars must be an array of variable names"),
                (Severity::Error, "hooks[PreToolUse][0].hooks[3]: mcp_tool hooks need server and tool"),
                (Severity::Error, "hooks[PreToolUse][1]: hooks must be an array"),
            ]
        );
        assert_eq!(hooks.len(), 3);
        let HandlerSpec::Worker { env, settings, .. } = &hooks[0].handler else { panic!("{:?}", hooks[0].handler) };
        assert_eq!(env, &[("Z".to_owned(), "1".to_owned()), ("A".to_owned(), "2".to_owned())]);
        assert_eq!((settings.idle_timeout, hooks[0].timeout), (9.0, None));
        assert_eq!(hooks[1].family.if_text.as_deref(), Some("Bash(git push:*)"));
        assert!(hooks[1].family.if_rule.is_some() && hooks[1].family.is_async);
        assert_eq!(hooks[1].on_error, Some(OnError::Warn));
        let HandlerSpec::Http { url, allowed_env_vars, .. } = &hooks[2].handler else { panic!() };
        assert_eq!((url.as_str(), allowed_env_vars.len()), ("https://127.0.0.1:1/h", 0));
        let root: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        assert!(crate::harness::schema::check_root(Dialect::Claude, &root).is_some());
    }

    /// Qwen Code reads a timeout of 1000 or more as milliseconds.
    #[test]
    fn a_family_member_reads_its_timeouts_its_way() {
        let text =
            r#"{"hooks":{"PreToolUse":[{"hooks":[{"command":"a","timeout":5000},{"command":"b","timeout":30}]}]}}"#;
        let (hooks, d) = crate::load::parse_text(Path::new("/p/.qwen/settings.json"), Some(Dialect::Qwen), text);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(hooks.iter().map(|h| h.timeout).collect::<Vec<_>>(), [Some(5.0), Some(30.0)]);
    }
}
