//! The answer Claude Code (and Codex, which reads the same shapes) acts on: a PreToolUse
//! `permissionDecision` with its reason and `updatedInput`, a PermissionRequest `decision`
//! object, `decision: "block"` with a reason on the events that can be blocked, and
//! `additionalContext` where the harness shows it to the model.

use crate::harness::reply::{block, common_top, json, nest, Reply, Said};
use crate::vocab::{CanonicalEvent as E, Decision};
use serde_json::{json, Map};

/// Events whose `hookSpecificOutput.additionalContext` reaches the model.
const CONTEXT_EVENTS: &[E] = &[E::ToolBefore, E::ToolAfter, E::PromptSubmit, E::SessionStart, E::SubagentStart];

pub(crate) fn reply(s: &Said) -> Reply {
    let mut top = Map::new();
    let mut hso = Map::new();
    match s.event {
        E::ToolBefore => {
            let word = match s.decision {
                Decision::Deny => Some("deny"),
                Decision::Ask => Some("ask"),
                Decision::Defer => Some("defer"),
                Decision::Allow => Some("allow"),
                Decision::None => None,
            };
            if let Some(w) = word {
                hso.insert("permissionDecision".into(), w.into());
                if s.decision == Decision::Deny || s.reason.is_some() {
                    hso.insert("permissionDecisionReason".into(), s.reason_or_default().into());
                }
            }
            if let Some(input) = s.update_input {
                hso.insert("updatedInput".into(), input.clone());
            }
        }
        E::PermissionRequest => {
            let decision = match (s.permission, s.decision) {
                (Some(p), _) => Some(p.clone()),
                (None, Decision::Deny) => Some(json!({"behavior": "deny", "message": s.reason_or_default()})),
                (None, Decision::Allow) => Some(match s.update_input {
                    Some(i) => json!({"behavior": "allow", "updatedInput": i}),
                    None => json!({"behavior": "allow"}),
                }),
                _ => None,
            };
            if let Some(d) = decision {
                hso.insert("decision".into(), d);
            }
        }
        _ if s.decision == Decision::Deny => {
            block(s, &mut top);
        }
        // PostToolUse: the tool ran, but the harness shows the model why a hook objected
        // (Codex puts it where the tool's output was)
        E::ToolAfter if s.after_block.is_some() => {
            top.insert("decision".into(), "block".into());
            top.insert("reason".into(), s.after_block.unwrap_or_default().into());
        }
        _ => {}
    }
    if let Some(c) = s.context().filter(|_| CONTEXT_EVENTS.contains(&s.event)) {
        hso.insert("additionalContext".into(), c.into());
    }
    nest(s, &mut top, hso);
    common_top(s, &mut top);
    json(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_tool_use_block_is_said_again_for_the_model() {
        let mut s = Said {
            event: E::ToolAfter,
            spelling: "PostToolUse",
            decision: Decision::None,
            reason: None,
            contexts: &[],
            messages: &[],
            update_input: None,
            stop: false,
            stop_reason: None,
            permission: None,
            after_block: Some("lint failed"),
        };
        assert_eq!(reply(&s).stdout, r#"{"decision":"block","reason":"lint failed"}"#);
        s.after_block = None;
        assert_eq!(reply(&s).stdout, "");
    }
}
