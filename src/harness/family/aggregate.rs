//! The ways harnesses merge several of their hooks' answers to one event, for their
//! [`Aggregator`](crate::harness::parts::Aggregator)s. Every run's outcome is given in
//! configured order, or in the order the answers came to a harness that merges them so
//! (`answer_order`); what a harness does not keep is cleared from it.

use crate::vocab::{Decision, RunOutcome};

/// Only the first block's reason, in configured order, is said; a later block still blocks
/// (Codex on PreToolUse, Hermes everywhere).
pub(crate) fn first_block_only(runs: &mut [&mut RunOutcome]) {
    one_block_reason(runs.iter_mut());
}

/// Only the last block's reason is said; an earlier block still blocks (Claude Code on
/// PreToolUse, its answers in the order they came: each deny's reason replaces the one before).
pub(crate) fn last_block_only(runs: &mut [&mut RunOutcome]) {
    one_block_reason(runs.iter_mut().rev());
}

/// The first block met keeps its reason; the blocks after it lose theirs.
fn one_block_reason<'a, 'b: 'a>(runs: impl Iterator<Item = &'a mut &'b mut RunOutcome>) {
    let mut blocked = false;
    for r in runs.filter(|r| r.decision == Some(Decision::Deny)) {
        if blocked {
            r.reason = None;
        }
        blocked = true;
    }
}

/// A stop asked by any run cancels every run's block: the turn ends rather than going on with
/// a block's reason (Codex's `stop.rs` `aggregate_results`: `should_block = !should_stop && …`).
pub(crate) fn stop_cancels_blocks(runs: &mut [&mut RunOutcome]) {
    if runs.iter().any(|r| r.stop) {
        for r in runs.iter_mut().filter(|r| r.decision == Some(Decision::Deny)) {
            r.decision = None;
            r.reason = None;
        }
    }
}

/// Field by field, a later answer's field replaces an earlier one's (Gemini CLI's
/// `hookAggregator.ts` `mergeWithFieldReplacement`): each field is kept from the last run that
/// set it and cleared from the earlier ones. A stop, once asked, stays: an answer cannot be told
/// to have said `continue: true`.
pub(crate) fn replace_fields(runs: &mut [&mut RunOutcome]) {
    let mut seen = [false; 5];
    for o in runs.iter_mut().rev() {
        keep_last(&mut seen[0], o.decision.is_some(), || o.decision = None);
        keep_last(&mut seen[1], o.reason.is_some(), || o.reason = None);
        keep_last(&mut seen[2], !o.messages.is_empty(), || o.messages.clear());
        keep_last(&mut seen[3], !o.contexts.is_empty(), || o.contexts.clear());
        keep_last(&mut seen[4], o.stop_reason.is_some(), || o.stop_reason = None);
    }
}

/// Walking runs from the last: the first one that has the field keeps it, the others lose it.
fn keep_last(seen: &mut bool, has: bool, clear: impl FnOnce()) {
    if *seen {
        clear();
    } else if has {
        *seen = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(decision: Option<Decision>, reason: Option<&str>) -> RunOutcome {
        RunOutcome { decision, reason: reason.map(String::from), ..RunOutcome::default() }
    }

    #[test]
    fn only_the_first_block_keeps_its_reason_and_every_block_still_blocks() {
        let (mut a, mut b, mut c) = (
            said(Some(Decision::Allow), Some("fine")),
            said(Some(Decision::Deny), Some("first")),
            said(Some(Decision::Deny), Some("second")),
        );
        first_block_only(&mut [&mut a, &mut b, &mut c]);
        assert_eq!(a.reason.as_deref(), Some("fine"));
        assert_eq!((b.decision, b.reason.as_deref()), (Some(Decision::Deny), Some("first")));
        assert_eq!((c.decision, c.reason), (Some(Decision::Deny), None));
    }

    #[test]
    fn only_the_last_block_keeps_its_reason_and_every_block_still_blocks() {
        let (mut a, mut b, mut c) = (
            said(Some(Decision::Deny), Some("first")),
            said(Some(Decision::Deny), Some("second")),
            said(Some(Decision::Allow), Some("fine")),
        );
        last_block_only(&mut [&mut a, &mut b, &mut c]);
        assert_eq!((a.decision, a.reason), (Some(Decision::Deny), None));
        assert_eq!((b.decision, b.reason.as_deref()), (Some(Decision::Deny), Some("second")));
        assert_eq!(c.reason.as_deref(), Some("fine"));
    }

    #[test]
    fn a_stop_cancels_the_blocks_before_and_after_it() {
        let (mut a, mut b, mut c) =
            (said(Some(Decision::Deny), Some("first")), said(None, None), said(Some(Decision::Deny), Some("last")));
        b.stop = true;
        stop_cancels_blocks(&mut [&mut a, &mut b, &mut c]);
        assert_eq!([a.decision, c.decision], [None, None]);
        let mut d = said(Some(Decision::Deny), Some("kept"));
        stop_cancels_blocks(&mut [&mut d]);
        assert_eq!(d.decision, Some(Decision::Deny));
    }

    #[test]
    fn a_later_answer_s_fields_replace_an_earlier_one_s() {
        let (mut a, mut b, mut c) =
            (said(Some(Decision::Deny), Some("no")), said(Some(Decision::Allow), None), said(None, None));
        a.messages.push("first".into());
        c.messages.push("last".into());
        replace_fields(&mut [&mut a, &mut b, &mut c]);
        assert_eq!((a.decision, a.reason.as_deref()), (None, Some("no")));
        assert_eq!(b.decision, Some(Decision::Allow));
        assert!(a.messages.is_empty());
        assert_eq!(c.messages, vec!["last".to_owned()]);
    }
}
