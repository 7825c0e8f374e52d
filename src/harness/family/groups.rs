//! Claude Code's file shape, which Codex, opencode and native files share:
//! `{Event: [{matcher, hooks: [{type, command, timeout, ...}]}]}`, with the JavaScript
//! implementation's diagnostic wording (`hooks[PreToolUse][0].hooks[2]: missing command`).

use crate::config::matcher::{event_matcher, matcher_field, Matcher};
use crate::config::{FileCtx, Hook, LoadSink};
use crate::harness::family::fields;
use crate::harness::family::handlers;
use crate::vocab::text::quote;
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

pub(crate) use crate::harness::family::fields::GroupRules;

/// Parses an event map; returns the number of matcher groups accepted.
pub(crate) fn parse_event_map(
    ctx: &FileCtx,
    rules: GroupRules,
    map: &Map<String, Value>,
    sink: &mut LoadSink,
) -> usize {
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
            let g = Group { ctx, rules, event, spec, at: format!("{at}[{index}]"), index };
            groups += usize::from(g.parse(group, sink));
        }
    }
    groups
}

/// One matcher group being read.
struct Group<'a> {
    ctx: &'a FileCtx<'a>,
    rules: GroupRules,
    event: &'a str,
    spec: EventSpec,
    /// `hooks[PreToolUse][0]`.
    at: String,
    index: usize,
}

impl Group<'_> {
    fn error(&self, sink: &mut LoadSink, m: &str) {
        sink.file_diag(self.ctx, Severity::Error, Some(self.event), format!("{}: {m}", self.at));
    }

    /// Reads the group and its hooks; `false` when the group is dropped.
    fn parse(&self, value: &Value, sink: &mut LoadSink) -> bool {
        let Some(group) = value.as_object() else {
            self.error(sink, "group is not an object");
            return false;
        };
        let mut text = match matcher_field(group) {
            Ok(m) => m,
            Err(e) => {
                self.error(sink, &e.to_string());
                return false;
            }
        };
        let entries = match group.get("hooks") {
            Some(Value::Array(a)) if a.is_empty() => {
                self.error(sink, "hooks must not be empty");
                return false;
            }
            Some(Value::Array(a)) => a,
            _ => {
                self.error(sink, "hooks must be an array");
                return false;
            }
        };
        let matcher = match event_matcher(&mut text, self.spec.canonical.has_subject(), self.ctx.style) {
            Ok((m, dropped)) => {
                if dropped {
                    let m = format!("{}: matcher has no effect on {} (no matcher subject)", self.at, self.event);
                    sink.file_diag(self.ctx, Severity::Warning, Some(self.event), m);
                }
                m
            }
            Err(e) => {
                self.error(sink, &e.to_string());
                return false;
            }
        };
        for (hi, entry) in entries.iter().enumerate() {
            if let Some(h) = self.hook(hi, entry, (&text, &matcher), sink) {
                sink.hooks.push(h);
            }
        }
        true
    }

    /// One entry of the group as a hook; `None` (with a diagnostic) drops it.
    fn hook(
        &self,
        hi: usize,
        entry: &Value,
        (text, matcher): (&Option<String>, &Matcher),
        sink: &mut LoadSink,
    ) -> Option<Hook> {
        let (ctx, event) = (self.ctx, self.event);
        let hat = format!("{}.hooks[{hi}]", self.at);
        let mut diag =
            |sev: Severity, m: &str| sink.diagnostics.push(ctx.diag(sev, Some(event), format!("{hat}: {m}")));
        let handler = handlers::parse(self.rules, ctx.subst, entry, &mut diag)?;
        let obj = entry.as_object();
        let mut h = crate::config::entry::hook(
            ctx,
            event,
            (self.spec.canonical, self.spec.result),
            &format!("{}:{hi}", self.index),
            handler,
        );
        h.matcher_text = text.clone();
        h.matcher = matcher.clone();
        h.timeout = fields::timeout(obj, self.rules.millis_from, &mut diag);
        h.on_error = fields::on_error(obj, &mut diag);
        h.family = fields::family(ctx.if_rules, &h.handler, obj, &mut diag);
        h.enabled = !self.rules.enabled_flag || fields::enabled(obj, &mut diag);
        h.deny_on_failure = obj.and_then(|o| o.get("denyOnFailure")) == Some(&Value::Bool(true));
        h.fail_closed = obj.and_then(|o| o.get("failClosed")) == Some(&Value::Bool(true));
        Some(h)
    }
}
