//! hookrt's own file (and the hooks-adapter one it replaces): `{"version": 1, "events": {…}}`
//! with canonical event names, every handler type and alias (docs/harnesses/native.md). Hooks
//! read an envelope `{event, ts, …}`. An event may also be named as Claude Code names it
//! (`PermissionRequest`, `PostToolUseFailure`): such a hook runs exactly when and as a Claude
//! Code hook would — Claude's stdin and variables — so a hook converted from Claude Code's files
//! (`hookrt convert --to native`) receives what it received before.

mod schema;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::family::input::{fill_base, Base};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{Discovery, Harness, NameClaim, PayloadCtx};
use crate::vocab::{CanonicalEvent, Dialect, EventSpec, MatcherStyle, Scope};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Native;

const FAMILY_EVENTS: usize = crate::harness::family::events::EVENTS.len();

/// Every canonical event under its canonical name, then Claude Code's names.
pub(crate) static EVENTS: [EventSpec; CanonicalEvent::COUNT + FAMILY_EVENTS] = {
    let mut all = [EventSpec::named("", CanonicalEvent::SessionStart); CanonicalEvent::COUNT + FAMILY_EVENTS];
    let mut i = 0;
    while i < CanonicalEvent::COUNT {
        let e = CanonicalEvent::ALL[i];
        all[i] = EventSpec::named(e.as_str(), e);
        i += 1;
    }
    let mut j = 0;
    while j < FAMILY_EVENTS {
        all[CanonicalEvent::COUNT + j] = crate::harness::family::events::EVENTS[j];
        j += 1;
    }
    all
};

/// Whether a native event name is Claude Code's (canonical names have a colon).
fn family_named(name: &str) -> bool {
    !name.contains(':')
}

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    env_file: true,
    ..Descriptor::new(Dialect::Native, &EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Native {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        Some(&schema::SCHEMA)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.home.join(".config/hooks-adapter/hooks.json"), Dialect::Native, Scope::Global),
            Candidate::of(r.home.join(".config/hookrt/hooks.json"), Dialect::Native, Scope::Global),
            Candidate::of(r.cwd.join(".dsh-hooks.json"), Dialect::Native, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        crate::config::candidate::path_parts(path).0 == ".dsh-hooks.json"
    }

    /// Colon names (`tool:before`) are canonical ones.
    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| k.contains(':')).then_some(NameClaim::Shape)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "hookrt hooks file"
    }

    /// A hook under a Claude Code event name has Claude Code's variables.
    fn env(&self, e: &crate::harness::EnvCtx) -> Vec<(String, String)> {
        let family = crate::vocab::field(e.input, "hook_event_name").and_then(Value::as_str).is_some_and(family_named);
        if family {
            return crate::harness::of(Dialect::CANONICAL).env(e);
        }
        vec![("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned())]
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        if family_named(ctx.spelling) {
            return crate::harness::of(Dialect::CANONICAL).input(ctx);
        }
        let mut m = Map::new();
        m.insert("event".into(), Value::String(ctx.canonical.as_str().to_owned()));
        m.insert("ts".into(), Value::String(ctx.ts.iso().to_owned()));
        fill_base(&mut m, ctx, Base::default());
        m.extend(ctx.host.iter().map(|(k, v)| (k.clone(), v.clone())));
        m.insert("hook_event_name".into(), Value::String(ctx.spelling.to_owned()));
        m
    }
}

impl Reader for Native {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.dsh-hooks.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        crate::harness::family::parse_member::<schema::NativeFamily>(ctx, root, true, sink)
    }

    /// The member holding the events: `events`, or `hooks` in a file that has that instead.
    fn member(&self, root: &Map<String, Value>) -> &'static str {
        if root.contains_key("hooks") {
            "hooks"
        } else {
            "events"
        }
    }
}

impl Planner for Native {}

impl AnswerReader for Native {}

impl Aggregator for Native {}

impl Replier for Native {}

impl Installer for Native {}

impl TrustGate for Native {}
