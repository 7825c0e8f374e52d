//! Ported answer cases: one hook's run on an event (exit code, stdout, stderr) and what its
//! harness does with it — the block's reason and the first thing passed on to the model — asked
//! of hookrt one way after another (the dialect's reader, a dispatch, `hookrt hook`).

use hookrt::{decode, CanonicalEvent, Decision, Dialect, Raw};
use serde_json::Value;

/// One run and its harness's effect, naming the upstream code or test it holds.
pub struct AnswerCase {
    pub upstream: &'static str,
    pub event: CanonicalEvent,
    pub code: i32,
    pub stdout: &'static str,
    pub stderr: &'static str,
    /// The block's reason, when the harness blocks.
    pub block: Option<&'static str>,
    /// The first context (or message) the harness passes on.
    pub said: Option<&'static str>,
}

impl AnswerCase {
    /// A run that exits `code` printing `stdout`, which changes nothing.
    pub const fn new(upstream: &'static str, event: CanonicalEvent, code: i32, stdout: &'static str) -> Self {
        AnswerCase { upstream, event, code, stdout, stderr: "", block: None, said: None }
    }
}

/// What one way gave: the block's reason and the first thing passed on.
pub type Said = (Option<String>, Option<String>);

/// Asks `got` for every case and fails naming each one that differs from its harness.
pub fn check_answers(cases: &[AnswerCase], way: &str, mut got: impl FnMut(&AnswerCase) -> Said) {
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let (block, said) = got(c);
            (block.as_deref() != c.block || said.as_deref() != c.said)
                .then(|| format!("{}: {way} gave block {block:?}, passed on {said:?}", c.upstream))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The dialect's reader on the case's run (or on `hookrt hook`'s own answer).
pub fn read_said(dialect: Dialect, event: CanonicalEvent, code: i32, stdout: &str, stderr: &str) -> Said {
    let raw = Raw { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), truncated: false };
    let o = decode(raw, event, dialect);
    ((o.decision == Some(Decision::Deny)).then(|| o.reason.unwrap_or_default()), o.contexts.into_iter().next())
}

/// A dispatch result's outcome (a deny the event cannot block counts as the block it was).
pub fn outcome_said(result: &Value) -> Said {
    let o = &result["outcome"];
    let (d, why) = if o["downgraded"] == true { ("rawDecision", "rawReason") } else { ("decision", "reason") };
    ((o[d] == "deny").then(|| o[why].as_str().unwrap_or("").to_owned()), o["contexts"][0].as_str().map(str::to_owned))
}
