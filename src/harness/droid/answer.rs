//! How Factory Droid 0.225.2 reads a hook's run where it differs from Claude Code (recorded in
//! e2e/recordings/droid S13–S23, docs/harnesses/droid.md "Answers"): a JSON object on stdout is
//! the answer on every exit code and whatever its `hookEventName` says; exit 2 blocks even with
//! nothing on stderr, and then tells the model nothing; an exit code from 3 to 127 blocks the tool
//! and ends the session (a hook killed by a signal does not); on `PreToolUse` the legacy top-level
//! `decision` is ignored and `continue: false` blocks the tool as it ends the session.

use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, Decision, OutputRule, RunOutcome};
use serde_json::Value;

/// A run read Droid's own way; `false` leaves it to the common rules (exit 0 plain text, exit 1
/// non-blocking, exit 2 with its stderr as the reason).
pub(crate) fn read_run(code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) -> bool {
    if event.output_rule() == OutputRule::Standard {
        if let Ok(Value::Object(mut top)) = serde_json::from_str::<Value>(stdout.trim()) {
            out.answered = true;
            if event == E::ToolBefore {
                // `{"decision":"block"}` on PreToolUse: the tool runs (S21)
                top.remove("decision");
                top.remove("reason");
            }
            let a = Answer { top: &top, hso: top.get("hookSpecificOutput").and_then(Value::as_object) };
            crate::harness::family::answer::read(&a, event, out);
            fail(code, event, out);
            return true;
        }
    }
    let own_rule = (code == Some(2) && stderr.trim().is_empty()) || ends_session(code);
    if own_rule {
        fail(code, event, out);
    }
    own_rule
}

/// An exit code above 2 ends the session (S17); one a shell gives a hook killed by a signal
/// (128 + the signal) does not: the tool runs (S23).
fn ends_session(code: Option<i32>) -> bool {
    matches!(code, Some(3..=127))
}

/// What the exit code and a `continue: false` do beyond the answer's own fields.
fn fail(code: Option<i32>, event: E, out: &mut RunOutcome) {
    let ends = ends_session(code);
    if ends {
        out.stop = true;
    }
    let blocks = code == Some(2) || ends || (out.stop && event == E::ToolBefore);
    if blocks && event.blockable() && out.decision != Some(Decision::Deny) {
        out.decision = Some(Decision::Deny);
        out.reason = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(code: i32, event: E, stdout: &str, stderr: &str) -> Option<RunOutcome> {
        let mut out = RunOutcome::default();
        read_run(Some(code), event, stdout, stderr, &mut out).then_some(out)
    }

    const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;

    #[test]
    fn recorded_answers() {
        for code in [0, 1, 2] {
            let o = run(code, E::ToolBefore, DENY, "").unwrap();
            assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no")), "exit {code}");
        }
        let o = run(2, E::ToolBefore, "plain", "").unwrap();
        assert_eq!((o.decision, o.reason), (Some(Decision::Deny), None));
        let o = run(3, E::ToolBefore, "plain", "").unwrap();
        assert_eq!((o.decision, o.stop), (Some(Decision::Deny), true));
        assert!(run(137, E::ToolBefore, "", "").is_none(), "killed by SIGKILL: the common rule");
        let o = run(0, E::ToolBefore, r#"{"decision":"block","reason":"x"}"#, "").unwrap();
        assert_eq!(o.decision, None);
        let o = run(0, E::TurnStop, r#"{"decision":"block","reason":"x"}"#, "").unwrap();
        assert_eq!(o.decision, Some(Decision::Deny));
        let o = run(0, E::ToolBefore, r#"{"continue":false,"stopReason":"s"}"#, "").unwrap();
        assert_eq!((o.decision, o.stop), (Some(Decision::Deny), true));
        assert!(run(2, E::ToolBefore, "", "why").is_none(), "exit 2 with stderr: the common rule");
        assert!(run(0, E::ToolBefore, "checking...\n{}", "").is_none(), "not one JSON object: the common rule");
    }
}
