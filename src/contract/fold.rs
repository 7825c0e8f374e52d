//! Folding many runs into one outcome (docs/events.md "Folding"): precedence, reasons, stop,
//! contexts, messages, updated inputs, and the downgrade on non-blockable events.

use crate::vocab::answer::Rewake;
use crate::vocab::{CanonicalEvent, Decision, EventFields, RunOutcome};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The folded decision of one dispatch (`outcome` on the wire).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub decision: Decision,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub stop: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    pub contexts: Vec<String>,
    pub messages: Vec<String>,
    pub update_inputs: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_reason: Option<String>,
    pub downgraded: bool,
    /// Event-specific fields, first run in configuration order wins for single values.
    #[serde(flatten)]
    pub fields: EventFields,
    /// Variables the hooks exported through `CLAUDE_ENV_FILE` (SessionStart, Setup,
    /// CwdChanged, FileChanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,
    /// An `asyncRewake` hook of this session exited 2 since the last dispatch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rewake: Option<Rewake>,
}

impl Outcome {
    /// The outcome of a dispatch that ran nothing.
    pub fn empty() -> Self {
        Outcome {
            decision: Decision::None,
            reason: None,
            stop: false,
            stop_reason: None,
            contexts: Vec::new(),
            messages: Vec::new(),
            update_inputs: Vec::new(),
            raw_decision: None,
            raw_reason: None,
            downgraded: false,
            fields: EventFields::default(),
            env: None,
            rewake: None,
        }
    }
}

/// Folds runs given in configuration order; the result never depends on completion order.
/// Reasons of the winning decision are joined with `separator` (a blank line by default; Gemini
/// CLI and Qwen Code join them with a newline).
pub(crate) fn fold<'a>(
    runs: impl IntoIterator<Item = &'a RunOutcome> + Clone,
    event: CanonicalEvent,
    separator: &str,
) -> Outcome {
    let mut out = Outcome::empty();
    let decision = runs.clone().into_iter().filter_map(|r| r.decision).max().unwrap_or(Decision::None);
    for r in runs {
        if r.stop && !out.stop {
            out.stop = true;
            out.stop_reason = r.stop_reason.clone();
        }
        out.contexts.extend(r.contexts.iter().cloned());
        if event.plain_stdout_is_context() {
            out.contexts.extend(r.plain_stdout.iter().cloned());
        }
        out.messages.extend(r.messages.iter().cloned());
        out.update_inputs.extend(r.update_input.iter().cloned());
        out.fields.merge(&r.fields);
        // PermissionRequest: the decision object of the first run that decided the outcome.
        if out.fields.permission.is_none() && r.decision == Some(decision) {
            out.fields.permission.clone_from(&r.fields.permission);
        }
        if matches!(decision, Decision::Deny | Decision::Defer | Decision::Ask) && r.decision == Some(decision) {
            if let Some(reason) = r.reason.as_deref().filter(|s| !s.is_empty()) {
                out.reason = Some(match out.reason.take() {
                    Some(prev) => format!("{prev}{separator}{reason}"),
                    None => reason.to_owned(),
                });
            }
        }
    }
    out.decision = decision;
    if decision == Decision::Deny && !event.blockable() {
        out.decision = Decision::None;
        out.raw_decision = Some(Decision::Deny);
        out.raw_reason = out.reason.take();
        out.downgraded = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(decision: Option<Decision>, reason: Option<&str>) -> RunOutcome {
        RunOutcome { decision, reason: reason.map(str::to_owned), ..Default::default() }
    }

    #[test]
    fn precedence_and_reasons_of_winning_rank() {
        let runs = vec![
            r(Some(Decision::Allow), Some("a")),
            r(Some(Decision::Ask), Some("ask")),
            r(Some(Decision::Deny), Some("d1")),
            r(Some(Decision::Deny), None),
            r(Some(Decision::Deny), Some("d2")),
        ];
        let o = fold(&runs, CanonicalEvent::ToolBefore, "\n\n");
        assert_eq!(o.decision, Decision::Deny);
        assert_eq!(o.reason.as_deref(), Some("d1\n\nd2"));
        let o = fold(&runs[..1], CanonicalEvent::ToolBefore, "\n\n");
        assert_eq!((o.decision, o.reason), (Decision::Allow, None));
    }

    #[test]
    fn first_stop_wins_and_plain_stdout_only_where_taken() {
        let mut a = r(None, None);
        a.stop = true;
        let mut b = r(None, None);
        b.stop = true;
        b.stop_reason = Some("second".into());
        b.plain_stdout = Some("plain".into());
        b.contexts = vec!["structured".into()];
        let o = fold(&[a.clone(), b.clone()], CanonicalEvent::SessionStart, "\n\n");
        assert!(o.stop && o.stop_reason.is_none());
        assert_eq!(o.contexts, vec!["structured", "plain"]);
        let o = fold(&[b], CanonicalEvent::ToolAfter, "\n\n");
        assert_eq!(o.contexts, vec!["structured"]);
    }

    #[test]
    fn defer_beats_ask_and_loses_to_deny() {
        let o = fold(
            &[r(Some(Decision::Ask), Some("a")), r(Some(Decision::Defer), Some("later"))],
            CanonicalEvent::ToolBefore,
            "\n\n",
        );
        assert_eq!((o.decision, o.reason.as_deref()), (Decision::Defer, Some("later")));
        let o = fold(
            &[r(Some(Decision::Defer), Some("later")), r(Some(Decision::Deny), Some("no"))],
            CanonicalEvent::ToolBefore,
            "\n\n",
        );
        assert_eq!((o.decision, o.reason.as_deref()), (Decision::Deny, Some("no")));
    }

    #[test]
    fn event_fields_first_wins_and_lists_join() {
        let mut a = r(None, None);
        a.fields.session_title = Some("one".into());
        a.fields.watch_paths = Some(vec!["/a".into()]);
        let mut b = r(None, None);
        b.fields.session_title = Some("two".into());
        b.fields.watch_paths = Some(vec!["/b".into()]);
        b.fields.reload_skills = true;
        let o = fold(&[a, b], CanonicalEvent::SessionStart, "\n\n");
        assert_eq!(o.fields.session_title.as_deref(), Some("one"));
        assert_eq!(o.fields.watch_paths, Some(vec!["/a".to_string(), "/b".to_string()]));
        assert!(o.fields.reload_skills);
    }

    #[test]
    fn deny_downgraded_on_non_blockable_but_ask_passes() {
        let o = fold(&[r(Some(Decision::Deny), Some("x"))], CanonicalEvent::ToolAfter, "\n\n");
        assert_eq!(o.decision, Decision::None);
        assert_eq!((o.raw_decision, o.raw_reason.as_deref(), o.downgraded), (Some(Decision::Deny), Some("x"), true));
        assert_eq!(o.reason, None);
        let o = fold(&[r(Some(Decision::Ask), Some("q"))], CanonicalEvent::Notice, "\n\n");
        assert_eq!((o.decision, o.downgraded), (Decision::Ask, false));
    }
}
