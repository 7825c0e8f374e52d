//! Claude Code: `settings.json` (user, project, local), plugins, managed settings
//! (docs/harnesses/claude.md). Its file shape and answer are the family's: Codex, opencode and
//! native files reuse [`groups`], and most harnesses' answers go through [`answer`].

pub(crate) mod answer;
pub(crate) mod events;
mod fields;
pub(crate) mod groups;
mod handlers;
pub(crate) mod input;
pub(crate) mod plugins;
pub(crate) mod reply;
pub(crate) mod schema;
mod trust;

use crate::config::{Candidate, FileCtx, LoadSink, PluginDir, Roots};
use crate::harness::{Discovery, EnvCtx, Harness, PayloadCtx};
use crate::vocab::{CanonicalEvent, Dialect, EventSpec, HandlerKind, MatcherStyle, RunOutcome, Scope};
use groups::GroupRules;
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Claude;

/// The types Claude and Codex files accept.
pub(crate) fn claude_kinds(ty: &str) -> Option<HandlerKind> {
    matches!(ty, "command" | "http" | "prompt" | "agent" | "mcp_tool").then(|| HandlerKind::from_type(ty)).flatten()
}

/// Reads the `hooks` member of a family file (`member` names it in diagnostics): an object of
/// events, missing (an error only in a dedicated hooks file without `disableAllHooks`), or wrong.
pub(crate) fn parse_member(
    ctx: &FileCtx,
    rules: GroupRules,
    root: &Map<String, Value>,
    dedicated: bool,
    sink: &mut LoadSink,
) -> usize {
    let member = ctx.member;
    match root.get(member) {
        Some(Value::Object(map)) => groups::parse_event_map(ctx, rules, map, sink),
        None | Some(Value::Null) => {
            if dedicated && root.get("disableAllHooks").and_then(Value::as_bool).is_none() {
                sink.file_diag(ctx, crate::vocab::Severity::Error, None, format!("config has no \"{member}\" object"));
            }
            0
        }
        Some(_) => {
            let m = format!("\"{member}\" must be an object of event names");
            sink.file_diag(ctx, crate::vocab::Severity::Error, None, m);
            0
        }
    }
}

const RULES: GroupRules = GroupRules::seconds(true, true, claude_kinds);

impl Harness for Claude {
    /// Claude Code 2.1.332 tells the model the first configured deny's reason alone, even when
    /// that hook finishes last (the kit's S21, S24).
    fn first_block_wins(&self, event: CanonicalEvent) -> bool {
        event == CanonicalEvent::ToolBefore
    }

    fn project_trust(&self, p: &crate::harness::trust::ProjectCtx) -> Option<crate::harness::trust::Verdict> {
        Some(trust::project(p))
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema =
            crate::harness::schema::FileSchema::of::<schema::ClaudeSettings>();
        Some(&S)
    }

    fn dialect(&self) -> Dialect {
        Dialect::Claude
    }

    fn events(&self) -> &'static [EventSpec] {
        &events::EVENTS
    }

    fn matcher_style(&self) -> MatcherStyle {
        MatcherStyle::LiteralOrRegex
    }

    fn discovery(&self) -> Discovery {
        Discovery::Family
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

    fn path_fallback(&self) -> Option<u8> {
        Some(1)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Claude Code settings"
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse_member(ctx, RULES, root, false, sink)
    }

    fn read_run(&self, code: Option<i32>, event: CanonicalEvent, stdout: &str, _: &str, out: &mut RunOutcome) -> bool {
        answer::read_failed_run(code, event, stdout, out)
    }

    fn exit_two_reason(&self, stdout: &str) -> String {
        answer::exit_two_reason(stdout)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    /// Claude Code keeps no per-hook record; headless (`-p`) runs skip its workspace trust
    /// dialog and run project hooks.
    fn why_ungated(&self) -> String {
        "Claude Code runs project hooks without a trust step in headless (-p) mode".into()
    }

    /// Claude Code 2.1.332 marks its hooks' environment with `CLAUDECODE=1` and the session.
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        vec![
            ("CLAUDECODE".into(), "1".into()),
            ("CLAUDE_CODE_SESSION_ID".into(), e.session_id.to_owned()),
            ("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ]
    }

    fn env_file(&self) -> bool {
        true
    }

    fn policy_files(&self, at: Option<&Path>) -> Vec<Candidate> {
        vec![plugins::managed(&at.map(Path::to_path_buf).unwrap_or_else(plugins::default_managed_settings))]
    }

    fn plugin_files(&self, list: &[PluginDir], home: &Path) -> Vec<Candidate> {
        list.iter().map(|p| plugins::candidate(p, home)).collect()
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
