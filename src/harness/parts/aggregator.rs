//! The aggregator: a harness's own runs of one dispatch → that harness's decision. The first
//! step of the fold; the second, across harnesses, is `contract/fold.rs` (deny wins).

use crate::vocab::{CanonicalEvent, RunOutcome};

/// How a harness merges what its hooks said to one event, exactly as the harness does.
pub(crate) trait Aggregator {
    /// Rewrites its runs' outcomes (in configured order) into what the harness keeps of them:
    /// the first block's reason alone, a later answer's fields replacing an earlier one's. By
    /// default every run keeps what it said (the family joins every reason). The `listen`
    /// contract folds the runs as they are and does not ask.
    fn aggregate(&self, _event: CanonicalEvent, _runs: &mut [&mut RunOutcome]) {}

    /// Whether the harness merges its hooks' answers to this event in the order they arrive,
    /// not the order configured: [`Aggregator::aggregate`] then gets them in that order
    /// (answers that came at once keep their configured order).
    fn answer_order(&self, _event: CanonicalEvent) -> bool {
        false
    }

    /// What the harness puts between the reasons of several hooks that decided alike
    /// (`hookAggregator.ts` in Gemini CLI and Qwen Code: a newline).
    fn reason_separator(&self) -> &'static str {
        "\n\n"
    }
}
