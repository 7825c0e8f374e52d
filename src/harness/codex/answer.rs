//! Where Codex 0.171.0 reads an answer differently from Claude Code (docs/harnesses/codex.md
//! "Answers", recorded): a PostToolUse block or exit 2 puts the reason where the tool's output
//! was; `continue: false` on PreToolUse and exit 2 on PreModelRequest change nothing; a
//! PermissionRequest's `updatedInput` is not applied.

use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, Decision, RunOutcome};
use serde_json::Value;

pub(crate) fn read(a: &Answer, event: E, out: &mut RunOutcome) {
    crate::harness::claude::answer::read(a, event, out);
    settle(event, out);
}

pub(crate) fn exit_rule(code: Option<i32>, event: E, out: &mut RunOutcome) {
    if code == Some(2) && event == E::ModelBefore {
        out.decision = None;
        out.reason = None;
    }
    settle(event, out);
}

fn settle(event: E, out: &mut RunOutcome) {
    match event {
        E::ToolBefore => {
            out.stop = false;
            out.stop_reason = None;
        }
        E::ToolAfter if out.decision == Some(Decision::Deny) => {
            let reason = out.reason.clone().unwrap_or_default();
            out.fields.updated_tool_output = Some(Value::String(reason));
        }
        E::PermissionRequest => {
            out.update_input = None;
            if let Some(Value::Object(p)) = out.fields.permission.as_mut() {
                p.remove("updatedInput");
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(v: Value, event: E) -> RunOutcome {
        let obj = v.as_object().cloned().unwrap();
        let mut out = RunOutcome::default();
        read(&crate::harness::answer_for(&obj, event), event, &mut out);
        out
    }

    #[test]
    fn codex_reads_these_answers_its_own_way() {
        let o = answer(json!({"decision": "block", "reason": "lint failed"}), E::ToolAfter);
        assert_eq!(o.fields.updated_tool_output, Some(json!("lint failed")));
        let o = answer(json!({"continue": false, "stopReason": "s"}), E::ToolBefore);
        assert!(!o.stop);
        let o = answer(
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedInput": {"cmd": "x"}}}}),
            E::PermissionRequest,
        );
        assert_eq!(o.fields.permission, Some(json!({"behavior": "allow"})));
        let mut o = RunOutcome { decision: Some(Decision::Deny), reason: Some("r".into()), ..Default::default() };
        exit_rule(Some(2), E::ModelBefore, &mut o);
        assert_eq!(o.decision, None);
    }
}
