//! The answer Copilot CLI acts on: a flat `permissionDecision` (and `modifiedArgs`) on
//! preToolUse, `behavior` on permissionRequest, `decision: "block"` to keep a turn going, and a
//! top-level `additionalContext`.

use crate::harness::reply::{block, json, Reply, Said};
use crate::vocab::{CanonicalEvent as E, Decision};
use serde_json::Map;

const CONTEXT_EVENTS: &[E] = &[E::ToolAfter, E::PromptSubmit, E::SessionStart];

pub(crate) fn reply(s: &Said) -> Reply {
    let mut top = Map::new();
    match s.event {
        E::ToolBefore => {
            let word = match (s.decision, s.update_input) {
                (Decision::Deny, _) => Some("deny"),
                (Decision::Ask, _) => Some("ask"),
                (Decision::Allow, _) | (_, Some(_)) => Some("allow"),
                _ => None,
            };
            if let Some(w) = word {
                top.insert("permissionDecision".into(), w.into());
            }
            if s.decision == Decision::Deny || (word.is_some() && s.reason.is_some()) {
                top.insert("permissionDecisionReason".into(), s.reason_or_default().into());
            }
            if let Some(input) = s.update_input {
                top.insert("modifiedArgs".into(), input.clone());
            }
        }
        E::PermissionRequest => match s.decision {
            Decision::Deny => {
                top.insert("behavior".into(), "deny".into());
                top.insert("message".into(), s.reason_or_default().into());
            }
            Decision::Allow => {
                top.insert("behavior".into(), "allow".into());
            }
            _ => {}
        },
        _ if s.decision == Decision::Deny => {
            block(s, &mut top);
        }
        _ => {}
    }
    if let Some(c) = s.context().filter(|_| CONTEXT_EVENTS.contains(&s.event)) {
        top.insert("additionalContext".into(), c.into());
    }
    json(top)
}
