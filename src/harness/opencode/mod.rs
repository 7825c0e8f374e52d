//! opencode: `opencode.json(c)` (user and project) with a `hooks` object of opencode's dotted
//! event names (docs/harnesses/opencode.md). Claude's group shape and answers; comments and
//! trailing commas allowed; matchers are regexes.

mod schema;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::family::input::{shaped, Base};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Discovery, Harness, NameClaim, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Scope};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Opencode;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

pub(crate) static EVENTS: [EventSpec; 14] = [
    n("session.created", E::SessionStart),
    n("session.deleted", E::SessionEnd),
    n("chat.message", E::PromptSubmit),
    n("tool.execute.before", E::ToolBefore),
    n("tool.execute.after", E::ToolAfter),
    n("session.idle", E::TurnStop),
    n("tool.execute.before.subagent", E::SubagentStart),
    n("tool.execute.after.subagent", E::SubagentEnd),
    n("notification", E::Notice),
    n("experimental.session.compacting", E::CompactBefore),
    n("permission.ask", E::PermissionRequest),
    n("session.error", E::TurnFail),
    n("file.watcher.updated", E::FileChange),
    n("session.compacted", E::CompactAfter),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    ..Descriptor::new(Dialect::Opencode, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Opencode {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema =
            crate::harness::schema::FileSchema::of::<schema::OpencodeConfig>();
        Some(&S)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.home.join(".config/opencode/opencode.json"), Dialect::Opencode, Scope::Global),
            Candidate::of(r.cwd.join("opencode.json"), Dialect::Opencode, Scope::Project),
            Candidate::of(r.cwd.join("opencode.jsonc"), Dialect::Opencode, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        crate::config::candidate::path_parts(path).0.starts_with("opencode.json")
    }

    /// Dotted names (`tool.execute.before`) are opencode's.
    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| k.contains('.')).then_some(NameClaim::Shape)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "opencode config"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        shaped(ctx, Base { permission_mode: true, ..Default::default() })
    }
}

impl Reader for Opencode {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/opencode.jsonc"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn comments(&self) -> bool {
        true
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        crate::harness::family::parse_member::<schema::OpencodeFamily>(ctx, root, false, sink)
    }
}

impl Planner for Opencode {}

impl AnswerReader for Opencode {}

impl Aggregator for Opencode {}

impl Replier for Opencode {}

impl Installer for Opencode {}

impl TrustGate for Opencode {}
