//! `.agents/hooks.json` (react-agent-mini's shape; docs/harnesses/agents.md):
//! `{PreToolUse: [{matcher, command, timeoutMs, denyOnFailure}], PostToolUse, Stop}`, optionally
//! wrapped in `{"hooks": …}`. Commands run through the shell; timeouts are in milliseconds
//! (default 5 s); `denyOnFailure` makes any failure a deny; the answer is the last line of stdout.

mod schema;

use crate::config::entry::{self, Entry};
use crate::harness::schema::given;
use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::family::input::{shaped, Base};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Discovery, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{
    Answer, CanonicalEvent, Decision, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, Severity, BLOCKED_BY_HOOK,
};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Agents;

/// Default timeout of an `.agents` hook, in seconds.
pub(crate) const DEFAULT_TIMEOUT: f64 = 5.0;

pub(crate) static EVENTS: [EventSpec; 3] = [
    EventSpec::named("PreToolUse", E::ToolBefore),
    EventSpec::named("PostToolUse", E::ToolAfter),
    EventSpec::named("Stop", E::TurnStop),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    env_file: true,
    path_fallback: Some(3),
    ..Descriptor::new(Dialect::Agents, &EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Agents {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        Some(&schema::SCHEMA)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![Candidate::of(r.cwd.join(".agents/hooks.json"), Dialect::Agents, Scope::Project)]
    }

    fn owns_path(&self, path: &Path) -> bool {
        crate::config::candidate::path_parts(path).1 == ".agents"
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        ".agents hooks file"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        shaped(ctx, Base { permission_mode: true, ..Default::default() })
    }
}

impl Reader for Agents {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.agents/hooks.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse(ctx, root, sink)
    }
}

impl Planner for Agents {}

impl AnswerReader for Agents {
    /// The answer is the last non-blank line, after any log lines.
    fn answer_text<'a>(&self, stdout: &'a str) -> &'a str {
        stdout.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
    }

    fn read_answer(&self, a: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        deny_spellings(a.top, out);
    }

    /// Without stderr, an exit-2 deny's reason is what the hook printed.
    fn exit_two_reason(&self, stdout: &str) -> String {
        if stdout.is_empty() {
            BLOCKED_BY_HOOK.to_owned()
        } else {
            stdout.to_owned()
        }
    }
}

impl Aggregator for Agents {}

impl Replier for Agents {}

impl Installer for Agents {}

impl TrustGate for Agents {}

/// `.agents` deny spellings: `permissionDecision`, `decision` or `behavior` equal to `deny`.
fn deny_spellings(obj: &Map<String, Value>, out: &mut RunOutcome) {
    let says_deny = |k: &str| obj.get(k).and_then(Value::as_str) == Some("deny");
    if ["permissionDecision", "decision", "behavior"].into_iter().any(says_deny) {
        out.decision = Some(Decision::Deny);
        if out.reason.is_none() {
            let message = obj.get("message").and_then(Value::as_str);
            out.reason = Some(message.unwrap_or(BLOCKED_BY_HOOK).to_owned());
        }
    }
}

/// Parses the hooks of an `.agents` file; returns how many were accepted.
fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    // Places are named as in Claude-shaped files: `hooks[Stop][0]`, or `[Stop][0]` at the root.
    let (map, member) = match root.get("hooks") {
        Some(Value::Object(m)) => (m, "hooks"),
        _ => (root, ""),
    };
    let mut count = 0;
    for (event, value) in map.iter().filter(|(k, _)| *k != "disableAllHooks") {
        let Some(spec) = ctx.event(event) else {
            sink.unknown_event(ctx, event);
            continue;
        };
        let Some(list) = value.as_array() else {
            sink.file_diag(ctx, Severity::Error, Some(event), format!("{member}[{event}]: must be an array of hooks"));
            continue;
        };
        for (i, v) in list.iter().enumerate() {
            let Some(e) = Entry::read(ctx, event, format!("{member}[{event}][{i}]"), v, sink) else { continue };
            let Some(read) = crate::harness::schema::entry::<schema::AgentsHook>(&e, sink) else { continue };
            let text = read.matcher.map(|m| m.0);
            let Some((matcher_text, matcher)) = e.compile_matcher(sink, spec.canonical, text, None) else { continue };
            let command = ctx.subst.apply(&read.command.0);
            let spec = (spec.canonical, spec.result);
            let mut h = entry::hook(ctx, event, spec, &format!("{i}:0"), entry::shell(command, Vec::new()));
            h.env = Vec::new();
            h.origin = Default::default();
            h.matcher_text = matcher_text;
            h.matcher = matcher;
            h.timeout = Some(given(&read.timeout_ms).map_or(DEFAULT_TIMEOUT, |t| t.0 .0 / 1000.0));
            h.deny_on_failure = given(&read.deny_on_failure).copied().unwrap_or(false);
            sink.hooks.push(h);
            count += 1;
        }
    }
    count
}
