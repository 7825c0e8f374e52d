//! Decoding one run into a [`RunOutcome`]: exit codes, JSON answer fields, and the answer
//! shapes of the other ecosystems (SPEC §8).

use crate::config::OnError;
use crate::dialect::Dialect;
use crate::event::{resolve_any_name, CanonicalEvent, ExitTwo, OutputRule};
use crate::event_fields::EventFields;
use serde::Serialize;
use serde_json::{Map, Value};

/// A decision, ordered by precedence (deny > defer > ask > allow > none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    None,
    Allow,
    Ask,
    /// PreToolUse `permissionDecision: "defer"`: leave the call for later (Claude Code's
    /// deferred tool calls); beats ask, loses to deny.
    Defer,
    Deny,
}

/// What one process-like run produced, before decoding.
#[derive(Debug, Clone, Default)]
pub struct Raw {
    /// `Some(code)` on exit, `None` when ended by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Output beyond the capture cap was discarded.
    pub truncated: bool,
}

/// The decoded result of one run (`runs[i].outcome` on the wire).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunOutcome {
    /// Absent after an infrastructure error; `null` after death by signal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<Option<i32>>,
    pub stderr: String,
    pub stdout: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub stop: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Structured contexts only; plain-stdout context is kept apart for the fold.
    pub contexts: Vec<String>,
    pub messages: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_input: Option<Value>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Event-specific answer fields (PermissionRequest's decision, `sessionTitle`, ...).
    #[serde(flatten)]
    pub fields: EventFields,
    /// Plain stdout of a clean exit 0 (candidate context on events that take it).
    #[serde(skip)]
    pub plain_stdout: Option<String>,
    /// An async hook still running: no outcome yet.
    #[serde(skip)]
    pub pending: bool,
}

impl RunOutcome {
    /// An async hook that has not finished.
    pub fn is_pending(&self) -> bool {
        self.pending
    }

    /// Cuts every context and message longer than `cap` characters to `cap`, with a marker
    /// saying how much was cut (Claude Code's 10,000-character limit on hook output strings).
    pub fn cap_texts(&mut self, cap: usize) {
        for t in self.contexts.iter_mut().chain(self.messages.iter_mut()).chain(self.plain_stdout.iter_mut()) {
            cap_text(t, cap);
        }
    }
}

/// Cuts one text to `cap` characters plus a marker.
pub fn cap_text(t: &mut String, cap: usize) {
    let Some((cut_at, _)) = t.char_indices().nth(cap) else { return };
    let cut = t[cut_at..].chars().count();
    t.truncate(cut_at);
    t.push_str(&format!("\n[hookrt: {cut} more characters cut]"));
}

/// Default reason of an exit-2 run with empty stderr.
pub const BLOCKED_BY_HOOK: &str = "blocked by hook";
/// Default reason of `ok:false` without a reason.
pub const DENIED_BY_EVALUATION: &str = "denied by evaluation";

/// Decodes a process (or webhook body) result for a dispatch of `event`, read the way hooks
/// of `dialect` are written.
pub fn decode(raw: Raw, event: CanonicalEvent, dialect: Dialect) -> RunOutcome {
    let stdout = raw.stdout.trim().to_owned();
    let stderr = raw.stderr.trim().to_owned();
    let mut out = RunOutcome { exit_code: Some(raw.exit_code), truncated: raw.truncated, ..Default::default() };
    // `.agents` hooks answer on the last line of stdout, after any log lines.
    let answer = if dialect == Dialect::Agents {
        stdout.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
    } else {
        stdout.as_str()
    };
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
        (rule, Some(0)) => {
            if answer.starts_with('{') {
                match serde_json::from_str::<Value>(answer) {
                    Ok(Value::Object(obj)) => {
                        apply_answer(&obj, event, &mut out);
                        crate::harness::apply_answer(dialect, &obj, event, &mut out);
                        if dialect == Dialect::Agents {
                            apply_agents_answer(&obj, &mut out);
                        }
                    }
                    _ => tracing::warn!("hook stdout starts with '{{' but is not a JSON object; ignored"),
                }
            } else if rule == OutputRule::PathOrFail {
                out.fields.worktree_path =
                    stdout.lines().next().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned);
            } else if !stdout.is_empty() && dialect == Dialect::Gemini {
                // Gemini: stdout that is not JSON is a message for the user.
                out.messages.push(stdout.clone());
            } else if !stdout.is_empty() {
                out.plain_stdout = Some(stdout.clone());
            }
        }
        (_, Some(2)) if event.exit_two() == ExitTwo::Denies => {
            out.decision = Some(Decision::Deny);
            let fallback =
                if dialect == Dialect::Agents && !stdout.is_empty() { stdout.as_str() } else { BLOCKED_BY_HOOK };
            out.reason = Some(if stderr.is_empty() { fallback.to_owned() } else { stderr.clone() });
        }
        _ => {}
    }
    if dialect == Dialect::Copilot {
        crate::harness::copilot::exit_rule(raw.exit_code, event, &stdout, &stderr, &mut out);
    }
    out.stdout = stdout;
    out.stderr = stderr;
    out
}

fn str_field<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

/// Reads the fields of a JSON answer object into `out`.
pub fn apply_answer(obj: &Map<String, Value>, event: CanonicalEvent, out: &mut RunOutcome) {
    let mut decision = match str_field(obj, "decision") {
        Some("approve") => Some(Decision::Allow),
        Some("block") => Some(Decision::Deny),
        _ => None,
    };
    let mut reason = str_field(obj, "reason").map(str::to_owned);
    // Hermes: {"action":"block","message":...}; .agents: {"behavior":"deny"}.
    if str_field(obj, "action") == Some("block") {
        decision = Some(Decision::Deny);
        if reason.is_none() {
            reason = str_field(obj, "message").map(str::to_owned);
        }
    }
    if str_field(obj, "behavior") == Some("deny") {
        decision = Some(Decision::Deny);
        if reason.is_none() {
            reason = str_field(obj, "message").map(str::to_owned);
        }
    }
    if obj.get("continue") == Some(&Value::Bool(false)) {
        out.stop = true;
        out.stop_reason = str_field(obj, "stopReason").map(str::to_owned);
    }
    if let Some(m) = str_field(obj, "systemMessage") {
        out.messages.push(m.to_owned());
    }
    if let Some(c) = str_field(obj, "additionalContext").filter(|c| !c.is_empty()) {
        out.contexts.push(c.to_owned());
    }
    let hso =
        obj.get("hookSpecificOutput").and_then(Value::as_object).filter(|hso| match str_field(hso, "hookEventName") {
            None => true,
            Some(name) => resolve_any_name(name) == Some(event),
        });
    if let Some(hso) = hso {
        match str_field(hso, "permissionDecision") {
            Some("allow") => decision = Some(Decision::Allow),
            Some("deny") => decision = Some(Decision::Deny),
            Some("ask") => decision = Some(Decision::Ask),
            Some("defer") => decision = Some(Decision::Defer),
            _ => {}
        }
        if let Some(r) = str_field(hso, "permissionDecisionReason") {
            reason = Some(r.to_owned());
        }
        if let Some(c) = str_field(hso, "additionalContext").filter(|c| !c.is_empty()) {
            out.contexts.push(c.to_owned());
        }
        if let Some(u) = hso.get("updatedInput").filter(|u| u.is_object()) {
            out.update_input = Some(u.clone());
        }
        // PermissionRequest: {"decision": {"behavior": "allow"|"deny", "updatedInput", "message", ...}}.
        if let Some(d) =
            hso.get("decision").and_then(Value::as_object).filter(|_| event == CanonicalEvent::PermissionRequest)
        {
            match str_field(d, "behavior") {
                Some("allow") => decision = Some(Decision::Allow),
                Some("deny") => {
                    decision = Some(Decision::Deny);
                    if let Some(m) = str_field(d, "message") {
                        reason = Some(m.to_owned());
                    }
                }
                _ => tracing::warn!("PermissionRequest decision.behavior must be \"allow\" or \"deny\"; ignored"),
            }
            if let Some(u) = d.get("updatedInput").filter(|u| u.is_object()) {
                out.update_input = Some(u.clone());
            }
        }
    }
    out.fields = EventFields::read(obj, hso, event);
    if let Some(c) = str_field(obj, "context").filter(|c| !c.is_empty()) {
        out.contexts.push(c.to_owned());
    }
    // Claude's prompt-hook answer `{ok, reason, impossible}`: `impossible` lets a Stop or
    // SubagentStop end instead of feeding the reason back.
    let impossible = obj.get("impossible") == Some(&Value::Bool(true))
        && matches!(event, CanonicalEvent::TurnStop | CanonicalEvent::SubagentEnd);
    if obj.get("ok") == Some(&Value::Bool(false)) && !impossible {
        decision = Some(Decision::Deny);
        reason = Some(reason.unwrap_or_else(|| DENIED_BY_EVALUATION.to_owned()));
    }
    out.decision = decision;
    out.reason = reason;
}

/// `.agents` deny spellings: `permissionDecision`, `decision` or `behavior` equal to `deny`.
fn apply_agents_answer(obj: &Map<String, Value>, out: &mut RunOutcome) {
    if ["permissionDecision", "decision", "behavior"].iter().any(|k| str_field(obj, k) == Some("deny")) {
        out.decision = Some(Decision::Deny);
        if out.reason.is_none() {
            out.reason = str_field(obj, "message").map(str::to_owned).or_else(|| Some(BLOCKED_BY_HOOK.to_owned()));
        }
    }
}

/// `denyOnFailure`: a run that exited non-zero (other than 2) denies.
pub fn deny_on_failure(out: &mut RunOutcome) {
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
pub fn infra_failure(error: &str, on_error: OnError) -> RunOutcome {
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
        let o = run(Some(2), "", "", ToolBefore);
        assert_eq!(o.reason.as_deref(), Some(BLOCKED_BY_HOOK));
        assert!(o.plain_stdout.is_none());
    }

    #[test]
    fn other_exits_decide_nothing() {
        let o = run(Some(3), "{\"decision\":\"block\"}", "e", ToolBefore);
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
