//! Claude Code: `settings.json` (user, project, local), plugins, managed settings
//! (docs/harnesses/claude.md). Its file shape, events and answers are the Claude Code family's,
//! shared with the harnesses that copied them from `harness/family/`.

mod install;
pub(crate) mod plugins;
mod schema;
mod trust;

use crate::config::{Candidate, FileCtx, LoadSink, PluginDir, Roots};
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Planner, Reader, Replier, TrustGate};
use crate::harness::{Discovery, EnvCtx, Harness, PayloadCtx};
use crate::vocab::{CanonicalEvent, Dialect, MatcherStyle, RunOutcome, Scope};
use crate::harness::family::{answer, events, input, parse_member};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Claude;

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    discovery: Discovery::Family,
    env_file: true,
    path_fallback: Some(1),
    ..Descriptor::new(Dialect::Claude, &events::EVENTS, MatcherStyle::LiteralOrRegex)
};

impl Harness for Claude {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema =
            crate::harness::schema::FileSchema::of::<schema::ClaudeSettings>();
        Some(&S)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.home.join(".claude/settings.json"), Dialect::Claude, Scope::Global),
            Candidate::of(r.cwd.join(".claude/settings.json"), Dialect::Claude, Scope::Project),
            Candidate::of(r.cwd.join(".claude/settings.local.json"), Dialect::Claude, Scope::Local),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (name, parent, _) = crate::config::candidate::path_parts(path);
        parent == ".claude" || (name.starts_with("settings") && name.ends_with(".json"))
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Claude Code settings"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn input_text(&self, ctx: &PayloadCtx) -> Option<String> {
        Some(input::stdin(ctx).to_text())
    }

    /// Claude Code 2.1.332 marks its hooks' environment with `CLAUDECODE=1` and the session.
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        vec![
            ("CLAUDECODE".into(), "1".into()),
            ("CLAUDE_CODE_SESSION_ID".into(), e.session_id.to_owned()),
            ("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ]
    }

    fn policy_files(&self, at: Option<&Path>) -> Vec<Candidate> {
        vec![plugins::managed(&at.map(Path::to_path_buf).unwrap_or_else(plugins::default_managed_settings))]
    }

    fn plugin_files(&self, list: &[PluginDir], home: &Path) -> Vec<Candidate> {
        list.iter().map(|p| plugins::candidate(p, home)).collect()
    }
}

impl Reader for Claude {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.claude/settings.json"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse_member::<schema::ClaudeFamily>(ctx, root, false, sink)
    }

    fn enabled_extensions(&self, root: &Map<String, Value>) -> Vec<(String, bool)> {
        match root.get("enabledPlugins") {
            Some(Value::Object(m)) => m.iter().filter_map(|(k, v)| v.as_bool().map(|b| (k.clone(), b))).collect(),
            _ => Vec::new(),
        }
    }

    fn extension_file(&self, home: &Path, id: &str) -> Option<Candidate> {
        plugins::installed(home, id).map(|p| plugins::candidate(&p, home))
    }
}

impl Planner for Claude {}

impl AnswerReader for Claude {
    fn read_run(&self, code: Option<i32>, event: CanonicalEvent, stdout: &str, _: &str, out: &mut RunOutcome) -> bool {
        answer::read_failed_run(code, event, stdout, out)
    }

    fn exit_two_reason(&self, stdout: &str) -> String {
        answer::exit_two_reason(stdout)
    }
}

impl Aggregator for Claude {
    /// Claude Code 2.1.332 tells the model the reason of the deny that answered last alone,
    /// whichever was configured first (the kit's S24 and S25; S21's two immediate denies race).
    fn aggregate(&self, event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        if event == CanonicalEvent::ToolBefore {
            crate::harness::family::aggregate::last_block_only(runs);
        }
    }

    fn answer_order(&self, event: CanonicalEvent) -> bool {
        event == CanonicalEvent::ToolBefore
    }
}

impl Replier for Claude {}

impl TrustGate for Claude {
    fn trust_vars(&self) -> &'static [&'static str] {
        trust::VARS
    }

    fn project_trust(&self, p: &crate::harness::trust::ProjectCtx) -> Option<crate::harness::trust::Verdict> {
        Some(trust::project(p))
    }

    /// Claude Code keeps no per-hook record; headless (`-p`) runs skip its workspace trust
    /// dialog and run project hooks.
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Claude Code runs project hooks without a trust step in headless (-p) mode".into()
    }
}
