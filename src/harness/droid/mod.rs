//! Factory Droid: `hooks.json` per scope (user `~/.factory`, project `.factory`) with the events
//! at its root, else the legacy `hooks/hooks.json`, else the `hooks` member of that scope's
//! `settings.json` (docs/harnesses/droid.md). Claude's events, matchers and answers; tools named
//! `Execute`, `Create`; stdin without a trailing newline; `sh -c`, with the project in
//! `FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`. Recorded from the real
//! CLI 0.225.2 (e2e/harnesses/droid), which differs from its docs: a project `hooks.json` whose
//! events sit under a `hooks` key is silently never run, and `settings.local.json` is not read.

mod answer;
mod input;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::family::groups;
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Scope, Severity};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub(crate) struct Droid;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

/// The nine events Droid 0.225.2 fires hooks for.
pub(crate) static EVENTS: [EventSpec; 9] = [
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("UserPromptSubmit", E::PromptSubmit),
    n("PreToolUse", E::ToolBefore),
    n("PostToolUse", E::ToolAfter),
    n("Stop", E::TurnStop),
    n("SubagentStop", E::SubagentEnd),
    n("Notification", E::Notice),
    n("PreCompact", E::CompactBefore),
];

/// The file Droid reads hooks from in one scope folder: the first of `hooks.json`,
/// `hooks/hooks.json` and `settings.json` that exists (all three when none does, so a server
/// watching them sees the first one appear).
fn scope_files(dir: &Path, scope: Scope) -> Vec<Candidate> {
    let order: [PathBuf; 3] = [dir.join("hooks.json"), dir.join("hooks/hooks.json"), dir.join("settings.json")];
    match order.iter().find(|p| p.is_file()) {
        Some(p) => vec![Candidate::of(p.clone(), Dialect::Droid, scope)],
        None => order.into_iter().map(|p| Candidate::of(p, Dialect::Droid, scope)).collect(),
    }
}

fn is_settings(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "settings.json")
}

/// Droid's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["Execute"]),
    ("Read", &["Read"]),
    ("Write", &["Create"]),
    ("Edit", &["Edit"]),
    ("Grep", &["Grep"]),
    ("Glob", &["Glob"]),
    ("LS", &["LS"]),
    ("WebFetch", &["FetchUrl"]),
    ("WebSearch", &["WebSearch"]),
    ("TodoWrite", &["TodoWrite"]),
    ("Task", &["Task"]),
];

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    env_file: true,
    ..Descriptor::new(Dialect::Droid, &EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Droid {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        let mut v = scope_files(&r.home.join(".factory"), Scope::Global);
        v.extend(scope_files(&r.cwd.join(".factory"), Scope::Project));
        v
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (_, parent, grand) = crate::config::candidate::path_parts(path);
        parent == ".factory" || (parent == "hooks" && grand == ".factory")
    }

    fn file_kind(&self, path: &Path) -> &'static str {
        if is_settings(path) {
            "Factory Droid settings"
        } else {
            "Factory Droid hooks.json"
        }
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<DroidHooksFile>();
        Some(&S)
    }

    /// The published schema is `hooks.json`'s (events at the root); `settings.json` holds them
    /// under `hooks`.
    fn file_schema_at(&self, path: &Path) -> Option<&'static crate::harness::schema::FileSchema> {
        static SETTINGS: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<DroidSettings>();
        if is_settings(path) {
            Some(&SETTINGS)
        } else {
            self.file_schema()
        }
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        input::env(e)
    }
}

impl Reader for Droid {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.factory/hooks.json", "/p/.factory/settings.json"]
    }

    fn dedicated(&self, path: &Path) -> bool {
        !is_settings(path)
    }

    /// `hooks.json` holds the events at its root; diagnostics name them without a member.
    fn member(&self, root: &Map<String, Value>) -> &'static str {
        if root.contains_key("hooks") {
            "hooks"
        } else {
            ""
        }
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        if is_settings(ctx.path) {
            return crate::harness::family::parse_member::<DroidFamily>(ctx, root, false, sink);
        }
        if root.get("hooks").is_some_and(Value::is_object) {
            let m = "hooks: Droid reads the events at the root of hooks.json: hooks under a \"hooks\" key never run \
                     (move the event names up a level)";
            sink.file_diag(ctx, Severity::Error, None, m.into());
            return 0;
        }
        groups::parse_event_map::<DroidFamily>(ctx, root, sink)
    }
}

impl Planner for Droid {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }
}

impl AnswerReader for Droid {
    fn read_run(
        &self,
        code: Option<i32>,
        event: crate::vocab::CanonicalEvent,
        stdout: &str,
        stderr: &str,
        out: &mut crate::vocab::RunOutcome,
    ) -> bool {
        answer::read_run(code, event, stdout, stderr, out)
    }
}

impl Aggregator for Droid {}

impl Replier for Droid {}

impl Installer for Droid {}

impl TrustGate for Droid {
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Droid runs project hooks without a trust step (droid exec)".into()
    }
}

/// Droid runs `command` hooks only, with Claude's matchers.
struct DroidFamily;

impl crate::harness::family::schema::Family for DroidFamily {
    const NAME: &'static str = "Droid";
    /// Droid runs only `command` hooks.
    const KINDS: &'static [&'static str] = &["command"];
    const FULL_HANDLERS: bool = false;
    type Of = DroidDialect;
}

crate::harness::family::schema::events_object!(DroidEvents, DroidFamily, [SessionStart, SessionEnd, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop, Notification, PreCompact],
    hooks: Option<crate::harness::schema::NotAnObject>);

/// Droid's `hooks.json`: the events at the root; a `"hooks"` object there is never run.
type DroidHooksFile = DroidEvents;

crate::harness::schema::dialect_marker!(DroidDialect, Dialect::Droid);

/// Droid's `settings.json`: the events under `hooks`, beside the rest of its settings.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct DroidSettings {
    #[allow(dead_code)]
    hooks: Option<crate::harness::schema::EventMap<DroidDialect, crate::harness::family::schema::Group<DroidFamily>>>,
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    fn parse(path: &str, text: &str) -> (usize, Vec<String>) {
        let (hooks, diags) = crate::load::parse_text(Path::new(path), Some(Dialect::Droid), text);
        (hooks.len(), diags.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn the_schema_knows_every_event_the_loader_reads() {
        assert_eq!(super::DroidEvents::NAMES, crate::harness::event_names(Dialect::Droid));
    }

    #[test]
    fn hooks_json_holds_the_events_at_its_root_and_a_wrapped_one_is_reported() {
        let flat = r#"{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"true"}]}]}"#;
        assert_eq!(parse("/p/.factory/hooks.json", flat), (1, vec![]));
        let wrapped = format!(r#"{{"hooks":{flat}}}"#);
        let (n, diags) = parse("/p/.factory/hooks.json", &wrapped);
        assert_eq!(n, 0);
        assert!(diags[0].contains("never run"), "{diags:?}");
        // the same wrapper is a settings file's own shape
        assert_eq!(parse("/p/.factory/settings.json", &wrapped).0, 1);
    }

    #[test]
    fn a_scope_reads_the_first_of_hooks_json_legacy_and_settings() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join(".factory");
        std::fs::create_dir_all(f.join("hooks")).unwrap();
        std::fs::write(f.join("settings.json"), "{}").unwrap();
        let only = |v: Vec<crate::config::Candidate>| v.into_iter().map(|c| c.path).collect::<Vec<_>>();
        assert_eq!(only(super::scope_files(&f, crate::vocab::Scope::Project)), vec![f.join("settings.json")]);
        std::fs::write(f.join("hooks/hooks.json"), "{}").unwrap();
        assert_eq!(only(super::scope_files(&f, crate::vocab::Scope::Project)), vec![f.join("hooks/hooks.json")]);
        std::fs::write(f.join("hooks.json"), "{}").unwrap();
        assert_eq!(only(super::scope_files(&f, crate::vocab::Scope::Project)), vec![f.join("hooks.json")]);
    }
}
