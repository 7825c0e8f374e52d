//! The planner: which of a harness's hooks run for one fire, and what passes between them.

use crate::config::Hook;
use crate::vocab::CanonicalEvent;
use serde_json::Value;

/// How a harness selects its hooks for an event (beyond its matcher style, a descriptor
/// field) and what one hook's answer passes on.
pub(crate) trait Planner {
    /// Whether it names tools its own way (`run_shell_command`), so a dispatch's tool name is
    /// also tried under its spelling.
    fn names_tools(&self) -> bool {
        false
    }

    /// Whether a matcher entry that is exactly Claude's name of a tool (`Bash`) matches it too
    /// (Qwen Code's tool aliases).
    fn canonical_aliases(&self) -> bool {
        false
    }

    /// Whether its matchers see a tool only under its own spelling, never under the name a host
    /// dispatched (Copilot, whose PascalCase mode names tools as Claude does, sees both).
    fn own_tool_names_only(&self) -> bool {
        false
    }

    /// The payload fields its matchers see on an event that has no canonical subject (Gemini
    /// matches `PreCompress` by its `trigger`); `None`: the canonical subject.
    fn own_subject(&self, _event: CanonicalEvent) -> Option<&'static [&'static str]> {
        None
    }

    /// The key under which the harness runs a hook once per event fire, whatever matcher
    /// group or file it came from (Gemini's `hookPlanner.ts` `deduplicateHooks`); `None`: the
    /// load-time rule alone (identical handlers from different files run once).
    fn once_per_fire(&self, _hook: &Hook) -> Option<String> {
        None
    }

    /// How an input update a hook returned applies to the tool's arguments.
    fn update_input(&self, _original: Option<&Value>, update: Value) -> Value {
        update
    }
}
