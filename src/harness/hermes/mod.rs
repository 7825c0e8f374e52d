//! Hermes Agent: the `hooks:` block of `~/.hermes/config.yaml` (docs/harnesses/hermes.md):
//! one flat entry per hook, commands split shell-style and run without a shell, first-use
//! consent, and `hooks.outbound` notify-only webhooks.

mod config;
mod input;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::{Consent, Discovery, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Scope, ToolResult};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Hermes;

pub(crate) static EVENTS: [EventSpec; 8] = [
    EventSpec::plain("on_session_start", E::SessionStart),
    EventSpec::plain("on_session_end", E::SessionEnd),
    EventSpec::plain("pre_llm_call", E::PromptSubmit),
    EventSpec::tool("pre_tool_call", E::ToolBefore, ToolResult::Either),
    EventSpec::tool("post_tool_call", E::ToolAfter, ToolResult::Either),
    EventSpec::plain("post_llm_call", E::TurnStop),
    EventSpec::plain("subagent_start", E::SubagentStart),
    EventSpec::plain("subagent_stop", E::SubagentEnd),
];

impl Harness for Hermes {
    fn dialect(&self) -> Dialect {
        Dialect::Hermes
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
        vec![Candidate::of(r.home.join(".hermes/config.yaml"), Dialect::Hermes, Scope::Global)]
    }

    fn owns_path(&self, path: &Path) -> bool {
        let (name, parent, _) = crate::config::candidate::path_parts(path);
        parent == ".hermes" || name.ends_with(".yaml") || name.ends_with(".yml")
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Hermes config.yaml"
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        config::parse(ctx, root, sink)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn consent(&self) -> Consent {
        Consent::EveryHook
    }
}
