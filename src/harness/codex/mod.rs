//! OpenAI Codex CLI: `hooks.json` and `config.toml` `[hooks]` tables, user and project
//! (docs/harnesses/codex.md). Claude's file shape and answers; stdin without a trailing newline,
//! `transcript_path: null` when unknown, `model` and `turn_id`. Codex has no failure event: its
//! `PostToolUse` groups run for every outcome.

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::claude::groups::GroupRules;
use crate::harness::claude::input::{shaped, Base};
use crate::harness::{Discovery, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Scope};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Codex;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

pub(crate) static EVENTS: [EventSpec; 13] = [
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("UserPromptSubmit", E::PromptSubmit),
    n("PreToolUse", E::ToolBefore),
    n("PostToolUse", E::ToolAfter),
    n("Stop", E::TurnStop),
    n("SubagentStart", E::SubagentStart),
    n("SubagentStop", E::SubagentEnd),
    n("Notification", E::Notice),
    n("PreCompact", E::CompactBefore),
    n("PermissionRequest", E::PermissionRequest),
    n("Interrupt", E::TurnInterrupt),
    n("PostCompact", E::CompactAfter),
];

const RULES: GroupRules =
    GroupRules { claude_handlers: true, enabled_flag: true, kind: crate::harness::claude::claude_kinds };

impl Harness for Codex {
    fn dialect(&self) -> Dialect {
        Dialect::Codex
    }

    fn events(&self) -> &'static [EventSpec] {
        &EVENTS
    }

    fn matcher_style(&self) -> MatcherStyle {
        MatcherStyle::Regex
    }

    fn discovery(&self) -> Discovery {
        Discovery::Family
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.home.join(".codex/hooks.json"), Dialect::Codex, Scope::Global),
            Candidate::of(r.home.join(".codex/config.toml"), Dialect::Codex, Scope::Global),
            Candidate::of(r.cwd.join(".codex/hooks.json"), Dialect::Codex, Scope::Project),
            Candidate::of(r.cwd.join(".codex/config.toml"), Dialect::Codex, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (name, parent, _) = crate::config::candidate::path_parts(path);
        parent == ".codex" || name == "config.toml"
    }

    fn file_kind(&self, path: &Path) -> &'static str {
        if is_toml(path) {
            "Codex config.toml"
        } else {
            "Codex hooks.json"
        }
    }

    fn dedicated(&self, path: &Path) -> bool {
        !is_toml(path)
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        crate::harness::claude::parse_member(ctx, RULES, root, self.dedicated(ctx.path), sink)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        shaped(ctx, Base { null_transcript: true, permission_mode: true, model_and_turn: true })
    }

    fn stdin_newline(&self) -> bool {
        false
    }
}

fn is_toml(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".toml"))
}
