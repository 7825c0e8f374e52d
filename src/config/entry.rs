//! One reader for hook entries, shared by every dialect's file parser: the file being read
//! ([`FileCtx`]), where its hooks and diagnostics go ([`LoadSink`]), how an entry's matcher is
//! compiled ([`Entry`]), and the hook it becomes ([`hook`]).

use crate::config::hook::{HandlerSpec, Hook};
use crate::config::matcher::{event_matcher, Matcher};
use crate::config::template::Substitutions;
use crate::vocab::text::{did_you_mean, quote};
use crate::vocab::{
    CanonicalEvent, Diagnostic, Dialect, EventSpec, IfRules, MatcherStyle, Origin, Severity, ToolResult,
};
use serde_json::{Map, Value};
use std::path::Path;

/// Everything about the file being parsed that hooks and diagnostics need.
pub(crate) struct FileCtx<'a> {
    pub path: &'a Path,
    pub dialect: Dialect,
    /// The event names the dialect accepts in its files.
    pub events: &'static [EventSpec],
    /// How the dialect reads a matcher string.
    pub style: MatcherStyle,
    /// Root member the event map came from (`hooks` or `events`), used in diagnostic paths.
    pub member: &'a str,
    pub subst: &'a Substitutions,
    /// Plugin or managed settings (never de-duplicated against other origins).
    pub origin: Origin,
    /// Variables exported to every hook of the file (a plugin's root and data directory).
    pub env: &'a [(String, String)],
    /// Whether `if` rules are evaluated or reported and ignored.
    pub if_rules: IfRules,
    /// The user's home (`~` in commands that are split without a shell).
    pub home: &'a Path,
    /// The harness release whose rules the file is read by (`None`: the harness has one set).
    pub version: Option<crate::vocab::Version>,
}

impl FileCtx<'_> {
    /// The file's base name, as hook ids carry it.
    pub(crate) fn base(&self) -> String {
        self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }

    pub(crate) fn diag(&self, severity: Severity, event: Option<&str>, message: String) -> Diagnostic {
        Diagnostic::new(severity, self.path, event, message)
    }

    /// The dialect's entry for an event name of the file.
    pub(crate) fn event(&self, name: &str) -> Option<EventSpec> {
        self.events.iter().find(|e| e.name == name).copied()
    }

    /// The names the dialect accepts, for did-you-mean hints.
    pub(crate) fn event_names(&self) -> Vec<&'static str> {
        self.events.iter().map(|e| e.name).collect()
    }
}

/// Where a file's hooks and problems go.
pub(crate) struct LoadSink<'a> {
    pub hooks: &'a mut Vec<Hook>,
    pub diagnostics: &'a mut Vec<Diagnostic>,
    /// Notify-only webhooks the file declares.
    pub outbound: &'a mut Vec<crate::config::hook::OutboundTarget>,
    /// The file says its hooks count as approved (Hermes `hooks_auto_accept: true`).
    pub auto_accept: bool,
}

impl LoadSink<'_> {
    /// A problem with the file as a whole, or with one event (`event`).
    pub(crate) fn file_diag(&mut self, ctx: &FileCtx, severity: Severity, event: Option<&str>, message: String) {
        self.diagnostics.push(ctx.diag(severity, event, message));
    }

    /// An event name the dialect does not have, with a did-you-mean hint.
    pub(crate) fn unknown_event(&mut self, ctx: &FileCtx, event: &str) {
        let hint = did_you_mean(event, &ctx.event_names());
        self.file_diag(ctx, Severity::Warning, None, format!("unknown event {} (ignored{hint})", quote(event)));
    }
}

/// The `hooks` object of a dedicated hooks file (Cursor, Copilot, Windsurf); reported (and
/// `None`) when it is missing or not an object.
pub(crate) fn hooks_object<'r>(
    ctx: &FileCtx,
    root: &'r Map<String, Value>,
    sink: &mut LoadSink,
) -> Option<&'r Map<String, Value>> {
    match root.get("hooks") {
        Some(Value::Object(m)) => Some(m),
        None => {
            sink.file_diag(ctx, Severity::Error, None, "config has no \"hooks\" object".into());
            None
        }
        Some(_) => {
            sink.file_diag(ctx, Severity::Error, None, "\"hooks\" must be an object of event names".into());
            None
        }
    }
}

/// Walks a file that lists hook entries directly under each event (`{"hooks": {"stop":
/// [entry, …]}}`: Cursor, Copilot, Windsurf): unknown events and non-arrays are reported, and `f`
/// gets each entry with its event and index. Returns how many entries `f` accepted.
pub(crate) fn each_entry(
    ctx: &FileCtx,
    map: &Map<String, Value>,
    sink: &mut LoadSink,
    mut f: impl FnMut(EventSpec, &Entry, usize, &mut LoadSink) -> bool,
) -> usize {
    let mut count = 0;
    for (event, value) in map {
        let Some(spec) = ctx.event(event) else {
            sink.unknown_event(ctx, event);
            continue;
        };
        let Some(list) = value.as_array() else {
            sink.file_diag(ctx, Severity::Error, Some(event), format!("hooks[{event}]: must be an array of hooks"));
            continue;
        };
        for (i, v) in list.iter().enumerate() {
            if let Some(e) = Entry::read(ctx, event, format!("hooks[{event}][{i}]"), v, sink) {
                count += usize::from(f(spec, &e, i, sink));
            }
        }
    }
    count
}

/// One hook entry being read.
pub(crate) struct Entry<'a> {
    pub ctx: &'a FileCtx<'a>,
    pub event: &'a str,
    /// Where the entry is, for messages: `hooks[BeforeTool][0].hooks[1]`.
    pub at: String,
    pub obj: &'a Map<String, Value>,
    /// `obj`, as the value a file type reads (harness/schema/reading.rs).
    pub value: &'a Value,
}

impl<'a> Entry<'a> {
    /// The entry at `at`, when it is an object (otherwise reported).
    pub(crate) fn read(
        ctx: &'a FileCtx<'a>,
        event: &'a str,
        at: String,
        v: &'a Value,
        sink: &mut LoadSink,
    ) -> Option<Self> {
        match v.as_object() {
            Some(obj) => Some(Entry { ctx, event, at, obj, value: v }),
            None => {
                sink.diagnostics.push(ctx.diag(Severity::Error, Some(event), format!("{at}: entry is not an object")));
                None
            }
        }
    }

    pub(crate) fn diag(&self, sink: &mut LoadSink, severity: Severity, message: &str) {
        sink.diagnostics.push(self.ctx.diag(severity, Some(self.event), format!("{}: {message}", self.at)));
    }

    /// The entry's `matcher` text (already read through its file type), compiled with the
    /// dialect's rule (or `compile` when given), dropped with a warning where the event has no
    /// subject. `None`: reported, the entry is dropped.
    pub(crate) fn compile_matcher(
        &self,
        sink: &mut LoadSink,
        canonical: CanonicalEvent,
        mut text: Option<String>,
        compile: Option<fn(&str) -> Matcher>,
    ) -> Option<(Option<String>, Matcher)> {
        if let (Some(f), Some(t)) = (compile, text.as_deref()) {
            return Some((text.clone(), f(t)));
        }
        match event_matcher(&mut text, canonical.has_subject(), self.ctx.style) {
            Ok((m, dropped)) => {
                if dropped {
                    self.diag(
                        sink,
                        Severity::Warning,
                        &format!("matcher has no effect on {} (no matcher subject)", self.event),
                    );
                }
                Some((text, m))
            }
            Err(e) => {
                self.diag(sink, Severity::Error, &e.to_string());
                None
            }
        }
    }
}

/// A hook of `ctx`'s file with every optional field at its default; `index` makes the id
/// (`<dialect>:<file>:<event>:<index>`).
pub(crate) fn hook(
    ctx: &FileCtx,
    event: &str,
    (canonical, tool_result): (CanonicalEvent, ToolResult),
    index: &str,
    handler: HandlerSpec,
) -> Hook {
    Hook {
        id: format!("{}:{}:{event}:{index}", ctx.dialect.as_str(), ctx.base()),
        dialect: ctx.dialect,
        event: event.to_owned(),
        canonical,
        tool_result,
        matcher_text: None,
        matcher: Matcher::All,
        handler,
        timeout: None,
        on_error: None,
        deny_on_failure: false,
        file: ctx.path.to_path_buf(),
        enabled: true,
        fail_closed: false,
        family: Default::default(),
        env: ctx.env.to_vec(),
        origin: ctx.origin,
        harness: Default::default(),
        wire_json: Default::default(),
    }
}

/// A shell hook's handler: `command` through the shell, with the entry's `env` map.
pub(crate) fn shell(command: String, env: Vec<(String, String)>) -> HandlerSpec {
    HandlerSpec::Shell { command, args: None, env }
}
