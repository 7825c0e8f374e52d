//! The merged hook table and planning: which hooks run for one dispatch.

use crate::config::{Hook, OutboundTarget};
use crate::harness::tools;
use crate::vocab::{CanonicalEvent, DispatchEvent, MatcherStyle};
use serde_json::{Map, Value};
use std::sync::Arc;

/// All hooks in configuration order, indexed by canonical event.
#[derive(Debug, Clone, Default)]
pub struct HookTable {
    hooks: Vec<Arc<Hook>>,
    by_event: Vec<Vec<usize>>,
    /// `disableAllHooks` or `HOOKS=0`: nothing runs.
    pub disabled: bool,
    /// Compare literal matchers (claude, native, .agents) without regard to case, for hosts
    /// whose tool names are lower-case spellings of Claude's (dsh).
    pub case_insensitive_literals: bool,
    /// The dispatches come from a harness that may name tools its own way (`hookrt hook`):
    /// matchers of the harnesses that name tools as Claude Code does also see Claude's name.
    pub harness_tool_names: bool,
    /// Notify-only outbound webhooks (Hermes `hooks.outbound`).
    pub outbound: Vec<OutboundTarget>,
}

impl HookTable {
    pub fn new(hooks: Vec<Hook>, disabled: bool) -> Self {
        let mut by_event: Vec<Vec<usize>> = vec![Vec::new(); CanonicalEvent::COUNT];
        for (i, h) in hooks.iter().enumerate() {
            by_event[h.canonical as usize].push(i);
        }
        HookTable {
            hooks: hooks.into_iter().map(Arc::new).collect(),
            by_event,
            disabled,
            case_insensitive_literals: false,
            harness_tool_names: false,
            outbound: Vec::new(),
        }
    }

    /// Every hook, in configuration order (also when disabled).
    pub fn hooks(&self) -> &[Arc<Hook>] {
        &self.hooks
    }

    /// The enabled hooks of an event that admit its tool result (success or failure), in
    /// configuration order: none when hooks are disabled.
    fn candidates(&self, ev: DispatchEvent) -> impl Iterator<Item = &Arc<Hook>> {
        let idx: &[usize] = match self.by_event.get(ev.canonical as usize) {
            Some(v) if !self.disabled => v,
            _ => &[],
        };
        idx.iter().map(|&i| &self.hooks[i]).filter(move |h| h.enabled && h.tool_result.admits(ev.result))
    }

    fn selected<'a>(
        &'a self,
        ev: DispatchEvent,
        subject: Option<&'a str>,
        payload: Option<&'a Map<String, Value>>,
    ) -> impl Iterator<Item = &'a Arc<Hook>> + 'a {
        // Dispatched as `beforeShellExecution` without a tool name: the tool is the class's.
        let subject = subject.or_else(|| ev.class.map(tools::class_matcher_name));
        let class = ev.class.or_else(|| subject.and_then(tools::class_of));
        self.candidates(ev).filter(move |h| {
            h.harness.class.is_none_or(|c| class == Some(c)) && self.matches_fire(h, ev, subject, payload)
        })
    }

    /// A hook's matcher against what its harness matches on this event: its own payload field
    /// where it has one (without the payload — the no-match shortcuts — such a hook may run),
    /// else the canonical subject.
    fn matches_fire(&self, h: &Hook, ev: DispatchEvent, subject: Option<&str>, p: Option<&Map<String, Value>>) -> bool {
        match crate::harness::of(h.dialect).own_subject(ev.canonical) {
            Some(keys) => p.is_none_or(|p| {
                h.matcher.matches(keys.iter().find_map(|k| crate::vocab::field(p, k).and_then(Value::as_str)))
            }),
            None => self.matches(h, subject),
        }
    }

    /// A hook's matcher against the subject; harnesses that name tools their own way also see
    /// the tool under their own name (`Bash` is `run_shell_command` to a Gemini matcher).
    fn matches(&self, h: &Hook, subject: Option<&str>) -> bool {
        let harness = crate::harness::of(h.dialect);
        if harness.names_tools() {
            // Qwen Code and Droid match a tool under their own spelling only (a Droid `Bash` matcher
            // never sees Droid's `Execute`; Qwen's `Bash` is an exact alias, not a regex subject).
            let own = subject.map(|s| tools::spelling(h.dialect, s).unwrap_or(s));
            if harness.own_tool_names_only() {
                return h.matcher.matches(own)
                    || (harness.canonical_aliases() && own.is_some_and(|s| names_canonical_tool(h, s)));
            }
            return h.matcher.matches(subject) || (own != subject && h.matcher.matches(own));
        }
        let try_name = |name: Option<&str>| {
            if self.case_insensitive_literals && harness.matcher_style() == MatcherStyle::LiteralOrRegex {
                h.matcher.matches_ignoring_case(name)
            } else {
                h.matcher.matches(name)
            }
        };
        // The others name tools as Claude Code does: inside a harness (`hookrt hook`) a tool it
        // dispatched under its own name (Gemini's `run_shell_command`, Hermes' `terminal`,
        // Copilot's `bash`) is also tried under Claude's (`Bash`). Elsewhere a host's tool name
        // is matched as given (the `listen` contract).
        try_name(subject)
            || (self.harness_tool_names
                && subject
                    .map(tools::canonical_name)
                    .filter(|c| Some(*c) != subject)
                    .is_some_and(|c| try_name(Some(c))))
    }

    /// The hooks that run for a dispatch, in configuration order; of the hooks a harness
    /// runs once per event fire (Gemini's `name:command`), only the first.
    pub fn plan(&self, ev: DispatchEvent, subject: Option<&str>, payload: &Map<String, Value>) -> Vec<Arc<Hook>> {
        let mut seen: Vec<(crate::vocab::Dialect, String)> = Vec::new();
        self.selected(ev, subject, Some(payload))
            .filter(|h| match crate::harness::of(h.dialect).once_per_fire(h) {
                Some(key) if seen.iter().any(|(d, k)| *d == h.dialect && *k == key) => false,
                Some(key) => {
                    seen.push((h.dialect, key));
                    true
                }
                None => true,
            })
            .cloned()
            .collect()
    }

    /// Whether any hook runs (or an outbound webhook wants the event), without allocating:
    /// the no-match fast path.
    pub fn any_match(&self, ev: DispatchEvent, subject: Option<&str>) -> bool {
        self.selected(ev, subject, None).next().is_some() || self.wants_outbound(ev.canonical)
    }

    /// Whether a hook runs for this event whatever the subject: one with no matcher, no tool
    /// class and no success/failure condition that excludes the event. Lets a host skip the
    /// per-dispatch [`HookTable::any_match`] question for such events until the next reload.
    pub fn always_matches(&self, ev: DispatchEvent) -> bool {
        self.candidates(ev)
            .any(|h| h.harness.class.is_none() && matches!(h.matcher, crate::config::matcher::Matcher::All))
    }

    /// Outbound webhooks subscribed to an event.
    pub fn outbound_for(&self, e: CanonicalEvent) -> impl Iterator<Item = &OutboundTarget> {
        let on = !self.disabled;
        self.outbound.iter().filter(move |t| on && t.events.iter().any(|(c, _)| *c == e))
    }

    fn wants_outbound(&self, e: CanonicalEvent) -> bool {
        !self.outbound.is_empty() && self.outbound_for(e).next().is_some()
    }

    /// Whether any hook at all is declared for the canonical event.
    pub fn has_event(&self, e: CanonicalEvent) -> bool {
        !self.disabled && self.by_event.get(e as usize).is_some_and(|v| !v.is_empty())
    }
}

/// Whether one of a matcher's `|` entries is exactly Claude's name of the tool (Qwen Code also
/// matches a tool by its Claude alias, `Bash` for `run_shell_command`, but only as a whole entry).
fn names_canonical_tool(h: &Hook, subject: &str) -> bool {
    let canonical = tools::canonical_name(subject);
    h.matcher_text.as_deref().is_some_and(|m| m.split('|').any(|e| e.trim() == canonical))
}
