//! The answer Gemini CLI acts on: `decision: "deny"` with a reason (a blocked tool, prompt, or a
//! retried turn on AfterAgent), a BeforeTool `hookSpecificOutput.tool_input` rewrite, and
//! `additionalContext` on the events that show it to the model.

use crate::harness::reply::{common_top, json, nest, Reply, Said};
use crate::vocab::{CanonicalEvent as E, Decision};
use serde_json::Map;

const CONTEXT_EVENTS: &[E] = &[E::ToolAfter, E::PromptSubmit, E::SessionStart];

pub(crate) fn reply(s: &Said) -> Reply {
    let mut top = Map::new();
    let mut hso = Map::new();
    match s.decision {
        Decision::Deny => {
            top.insert("decision".into(), "deny".into());
            top.insert("reason".into(), s.reason_or_default().into());
        }
        Decision::Ask if s.event == E::ToolBefore => {
            top.insert("decision".into(), "ask".into());
            if let Some(r) = s.reason {
                top.insert("reason".into(), r.into());
            }
        }
        _ => {}
    }
    if let Some(input) = s.update_input.filter(|_| s.event == E::ToolBefore) {
        hso.insert("tool_input".into(), input.clone());
    }
    if let Some(c) = s.context().filter(|_| CONTEXT_EVENTS.contains(&s.event)) {
        hso.insert("additionalContext".into(), c.into());
    }
    nest(s, &mut top, hso);
    common_top(s, &mut top);
    json(top)
}
