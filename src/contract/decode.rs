//! Decoding one run into a [`RunOutcome`]: exit codes, JSON answer fields, plain stdout
//! (docs/events.md "Answers"), with each harness's own rules.

use crate::harness::{self, answer_for, Harness};
use crate::vocab::{
    CanonicalEvent, Decision, Dialect, ExitTwo, Fidelity, OnError, OutputRule, Raw, RunOutcome, BLOCKED_BY_HOOK,
};
use serde_json::Value;

/// Decodes a process (or webhook body) result for a dispatch of `event`, read the way hooks
/// of `dialect` are written by their harness.
pub fn decode(raw: Raw, event: CanonicalEvent, dialect: Dialect) -> RunOutcome {
    decode_as(raw, event, dialect, Fidelity::Harness)
}

/// [`decode`] under `fidelity`. Under the `listen` contract a Claude-format hook is read as the JavaScript implementation
/// reads it (exit 0 answers, exit 2 denies with "blocked by hook", other exits say nothing),
/// not as Claude Code 2.1.332 does (a JSON answer on any exit, its own exit-2 wording).
pub(crate) fn decode_as(raw: Raw, event: CanonicalEvent, dialect: Dialect, fidelity: Fidelity) -> RunOutcome {
    let h = harness::of(dialect);
    let contract_canonical = fidelity == Fidelity::Contract && dialect == Dialect::CANONICAL;
    let stdout = raw.stdout.trim().to_owned();
    let stderr = raw.stderr.trim().to_owned();
    let mut out = RunOutcome { exit_code: Some(raw.exit_code), truncated: raw.truncated, ..Default::default() };
    if event.output_rule() != OutputRule::Discarded
        && !contract_canonical
        && h.read_run(raw.exit_code, event, &stdout, &stderr, &mut out)
    {
        out.stdout = stdout;
        out.stderr = stderr;
        return out;
    }
    match (event.output_rule(), raw.exit_code) {
        // StopFailure: output and exit code are ignored.
        (OutputRule::Discarded, _) => {}
        // WorktreeCreate: any non-zero exit fails the creation.
        (OutputRule::PathOrFail, code) if code != Some(0) => {
            out.decision = Some(Decision::Deny);
            out.reason = Some(if stderr.is_empty() {
                match code {
                    Some(c) => format!("hook failed with exit code {c}"),
                    None => "hook was killed by a signal".to_owned(),
                }
            } else {
                stderr.clone()
            });
        }
        (rule, Some(0)) => clean_exit(h, &stdout, rule, event, &mut out),
        (_, Some(2)) if event.exit_two() == ExitTwo::Denies => {
            out.decision = Some(Decision::Deny);
            out.reason = Some(match (stderr.is_empty(), contract_canonical) {
                (false, _) => stderr.clone(),
                (true, true) => BLOCKED_BY_HOOK.to_owned(),
                (true, false) => h.exit_two_reason(&stdout),
            });
        }
        _ => {}
    }
    h.exit_rule(raw.exit_code, event, &stdout, &stderr, &mut out);
    out.stdout = stdout;
    out.stderr = stderr;
    out
}

/// Exit 0: a JSON answer, a worktree path, or plain stdout.
fn clean_exit(h: &dyn Harness, stdout: &str, rule: OutputRule, event: CanonicalEvent, out: &mut RunOutcome) {
    let answer = h.answer_text(stdout);
    if answer.starts_with('{') {
        match serde_json::from_str::<Value>(answer) {
            Ok(Value::Object(obj)) => {
                out.answered = true;
                h.read_answer(&answer_for(&obj, event), event, out);
            }
            _ => tracing::warn!("hook stdout starts with '{{' but is not a JSON object; ignored"),
        }
    } else if rule == OutputRule::PathOrFail {
        out.fields.worktree_path = stdout.lines().next().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned);
    } else if !stdout.is_empty() {
        h.plain_stdout(stdout, out);
    }
}

/// `denyOnFailure`: a run that exited non-zero (other than 2) denies.
pub(crate) fn deny_on_failure(out: &mut RunOutcome) {
    if let Some(code) = out.exit_code {
        if code != Some(0) && out.decision != Some(Decision::Deny) {
            out.decision = Some(Decision::Deny);
            let what = match code {
                Some(c) => format!("hook failed with exit code {c}"),
                None => "hook was killed by a signal".to_owned(),
            };
            out.reason = Some(if !out.stderr.is_empty() { out.stderr.clone() } else { what });
        }
    }
}

/// The outcome of a run that could not run (spawn failure, timeout, HTTP error, ...).
pub(crate) fn infra_failure(error: &str, on_error: OnError) -> RunOutcome {
    let mut out = RunOutcome { stderr: error.to_owned(), ..Default::default() };
    if on_error == OnError::Block {
        out.decision = Some(Decision::Deny);
        out.reason = Some(format!("hook failed: {error}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::DENIED_BY_EVALUATION;
    use CanonicalEvent::*;

    fn run(code: Option<i32>, stdout: &str, stderr: &str, ev: CanonicalEvent) -> RunOutcome {
        decode(
            Raw { exit_code: code, stdout: stdout.into(), stderr: stderr.into(), truncated: false },
            ev,
            Dialect::Claude,
        )
    }

    #[test]
    fn exit_two_denies_with_stderr_or_default() {
        let o = run(Some(2), "{\"decision\":\"approve\"}", " no \n", ToolBefore);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no")));
        let raw = Raw { exit_code: Some(2), stdout: String::new(), stderr: String::new(), truncated: false };
        let o = decode(raw, ToolBefore, Dialect::Native);
        assert_eq!(o.reason.as_deref(), Some(BLOCKED_BY_HOOK));
        assert!(o.plain_stdout.is_none());
        // Claude Code 2.1.332 (recorded): the JSON reason on stdout, else "No stderr output"
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        let o = run(Some(2), deny, "", ToolBefore);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("json says no")));
        let o = run(Some(2), "plain words", "", ToolBefore);
        assert_eq!(o.reason.as_deref(), Some("No stderr output"));
        let o = run(Some(2), "", "", TurnStop);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("No stderr output")));
    }

    #[test]
    fn claude_reads_a_json_answer_whatever_the_exit_code() {
        // recorded: a guard that prints its deny and exits 1 blocks the tool with its reason
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        let o = run(Some(1), deny, "oops", ToolBefore);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("json says no")));
        let o = run(Some(1), r#"{"decision":"block","reason":"keep going"}"#, "", TurnStop);
        assert_eq!(o.decision, Some(Decision::Deny));
        // the dialects without a rule of their own keep the common one: exit 1 decides nothing
        // (Droid reads the JSON too, as recorded: harness::droid::answer)
        let raw = Raw { exit_code: Some(1), stdout: deny.into(), stderr: String::new(), truncated: false };
        assert_eq!(decode(raw.clone(), ToolBefore, Dialect::Native).decision, None);
        assert_eq!(decode(raw, ToolBefore, Dialect::Droid).decision, Some(Decision::Deny));
    }

    #[test]
    fn the_listen_contract_reads_claude_hooks_as_the_javascript_implementation_does() {
        let raw = |code, stdout: &str| Raw {
            exit_code: Some(code),
            stdout: stdout.into(),
            stderr: String::new(),
            truncated: false,
        };
        let deny = r#"{"decision":"block","reason":"json says no"}"#;
        let o = decode_as(raw(3, deny), ToolBefore, Dialect::Claude, Fidelity::Contract);
        assert_eq!(o.decision, None);
        let o = decode_as(raw(2, deny), ToolBefore, Dialect::Claude, Fidelity::Contract);
        assert_eq!(o.reason.as_deref(), Some(BLOCKED_BY_HOOK));
        let o = decode_as(raw(2, deny), ToolBefore, Dialect::Claude, Fidelity::Harness);
        assert_eq!(o.reason.as_deref(), Some("json says no"));
    }

    #[test]
    fn other_exits_decide_nothing() {
        let o = run(Some(3), "not json", "e", ToolBefore);
        assert_eq!(o.decision, None);
        assert_eq!(o.exit_code, Some(Some(3)));
        let o = run(None, "x", "", ToolBefore);
        assert_eq!(o.exit_code, Some(None));
        assert!(o.plain_stdout.is_none());
    }

    #[test]
    fn json_fields() {
        let o = run(
            Some(0),
            r#"{"decision":"block","reason":"legacy","continue":false,"stopReason":"s","systemMessage":"","additionalContext":"",
               "hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"c","updatedInput":{"a":1}}}"#,
            "",
            ToolBefore,
        );
        assert_eq!(o.decision, Some(Decision::Allow));
        assert_eq!(o.reason.as_deref(), Some("legacy"));
        assert!(o.stop);
        assert_eq!(o.stop_reason.as_deref(), Some("s"));
        assert_eq!(o.messages, vec![String::new()]);
        assert_eq!(o.contexts, vec!["c".to_string()]);
        assert_eq!(o.update_input, Some(serde_json::json!({"a":1})));
    }

    #[test]
    fn other_event_hso_is_discarded_but_top_level_kept() {
        let o = run(
            Some(0),
            r#"{"ok":false,"reason":"no","hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"allow","additionalContext":"x"}}"#,
            "",
            ToolBefore,
        );
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no")));
        assert!(o.contexts.is_empty());
        let o = run(
            Some(0),
            r#"{"hookSpecificOutput":{"hookEventName":"tool.execute.before","permissionDecision":"ask"}}"#,
            "",
            ToolBefore,
        );
        assert_eq!(o.decision, Some(Decision::Ask));
    }

    #[test]
    fn ok_false_beats_approve_and_defaults_reason() {
        let o = run(Some(0), r#"{"ok":false,"decision":"approve"}"#, "", PromptSubmit);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some(DENIED_BY_EVALUATION)));
    }

    #[test]
    fn foreign_answer_shapes() {
        let o = run(Some(0), r#"{"action":"block","message":"hermes says no"}"#, "", ToolBefore);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("hermes says no")));
        let o = run(Some(0), r#"{"context":"from hermes"}"#, "", SessionStart);
        assert_eq!(o.contexts, vec!["from hermes".to_string()]);
        let o = run(Some(0), r#"{"behavior":"deny"}"#, "", ToolBefore);
        assert_eq!(o.decision, Some(Decision::Deny));
    }

    #[test]
    fn plain_and_broken_json_stdout() {
        let o = run(Some(0), " hello \n", "", SessionStart);
        assert_eq!(o.plain_stdout.as_deref(), Some("hello"));
        assert_eq!(o.stdout, "hello");
        let o = run(Some(0), "{\"decision\": \"block\"", "", ToolBefore);
        assert_eq!(o.decision, None);
        assert!(o.plain_stdout.is_none());
    }

    #[test]
    fn agents_answers_on_the_last_line() {
        let raw = |code, out: &str, err: &str| Raw {
            exit_code: Some(code),
            stdout: out.into(),
            stderr: err.into(),
            truncated: false,
        };
        let o = decode(
            raw(0, "checking...\n{\"permissionDecision\":\"deny\",\"reason\":\"no\"}\n", ""),
            ToolBefore,
            Dialect::Agents,
        );
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no")));
        let o = decode(raw(0, "{\"decision\":\"deny\"}", ""), ToolBefore, Dialect::Agents);
        assert_eq!(o.decision, Some(Decision::Deny));
        let o = decode(raw(0, "{\"decision\":\"deny\"}", ""), ToolBefore, Dialect::Claude);
        assert_eq!(o.decision, None);
        let o = decode(raw(2, "Bash blocked", ""), ToolBefore, Dialect::Agents);
        assert_eq!(o.reason.as_deref(), Some("Bash blocked"));
        let mut o = decode(raw(1, "", "oops"), ToolBefore, Dialect::Agents);
        deny_on_failure(&mut o);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("oops")));
    }

    #[test]
    fn infra_failure_respects_on_error() {
        let o = infra_failure("timed out after 1s", OnError::Block);
        assert_eq!(o.reason.as_deref(), Some("hook failed: timed out after 1s"));
        assert_eq!(o.exit_code, None);
        assert_eq!(infra_failure("x", OnError::Warn).decision, None);
    }
}
