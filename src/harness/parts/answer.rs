//! The answer reader: one run's exit code, stdout and stderr → that hook's outcome
//! (`contract/decode.rs` applies the common rules and asks it where the harness differs).

use crate::config::Hook;
use crate::vocab::{Answer, CanonicalEvent, RunOutcome, BLOCKED_BY_HOOK};

/// How a harness reads one of its hooks' runs.
pub(crate) trait AnswerReader {
    /// The part of a clean run's stdout that holds the answer.
    fn answer_text<'a>(&self, stdout: &'a str) -> &'a str {
        stdout
    }

    /// Reads a finished run its own way, exit code and output together; `false` leaves it to
    /// the common rules (exit 0 answers, exit 2 denies) and [`AnswerReader::exit_rule`].
    fn read_run(
        &self,
        _code: Option<i32>,
        _event: CanonicalEvent,
        _stdout: &str,
        _stderr: &str,
        _out: &mut RunOutcome,
    ) -> bool {
        false
    }

    /// Reads a JSON answer object.
    fn read_answer(&self, answer: &Answer, event: CanonicalEvent, out: &mut RunOutcome) {
        crate::harness::family::answer::read(answer, event, out);
    }

    /// A clean run's stdout that is not JSON.
    fn plain_stdout(&self, stdout: &str, out: &mut RunOutcome) {
        out.plain_stdout = Some(stdout.to_owned());
    }

    /// The reason of an exit-2 deny with an empty stderr.
    fn exit_two_reason(&self, _stdout: &str) -> String {
        BLOCKED_BY_HOOK.to_owned()
    }

    /// Its own exit-code rules, applied after the common ones.
    fn exit_rule(
        &self,
        _code: Option<i32>,
        _event: CanonicalEvent,
        _stdout: &str,
        _stderr: &str,
        _out: &mut RunOutcome,
    ) {
    }

    /// Whether its hooks answer only in JSON (plain stdout is a broken answer, which
    /// `failClosed` turns into a deny).
    fn json_only(&self) -> bool {
        false
    }

    /// `failClosed`: the reason a run that gave no usable answer denies with, `None` when it
    /// lets the action through. `error` is why the run gave no answer at all (could not start,
    /// timed out, HTTP failure). By default a failure, a kill by a signal, and (where its hooks
    /// answer only in JSON) a clean run whose stdout is not a JSON object deny.
    fn failed_closed(&self, _hook: &Hook, out: &RunOutcome, error: Option<&str>) -> Option<String> {
        let not_json = || {
            !out.stdout.is_empty()
                && !matches!(serde_json::from_str::<serde_json::Value>(&out.stdout), Ok(serde_json::Value::Object(_)))
        };
        let why = match (error, out.exit_code) {
            (Some(e), _) => e.to_owned(),
            (None, Some(None)) => "hook was killed by a signal".to_owned(),
            (None, Some(Some(0))) if self.json_only() && not_json() => "stdout is not a JSON object".to_owned(),
            _ => return None,
        };
        Some(format!("hook failed closed: {why}"))
    }

    /// Reads a decoded run again where the hook's own entry changes the rules (Copilot reads a
    /// camelCase `preToolUse` hook by its own fields only); runs before the next hook of a
    /// sequence looks at the answer.
    fn read_for_hook(&self, _hook: &Hook, _out: &mut RunOutcome) {}

    /// What the harness decides once a run is in, beyond reading its answer (Cursor's
    /// `loop_limit`).
    fn settle(&self, _hook: &Hook, _out: &mut RunOutcome, _loop_count: u32) {}
}
