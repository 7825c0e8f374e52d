//! The answer Hermes acts on — only three: a block on `pre_tool_call`, a keep-going on
//! `pre_verify` (both `{"decision": "block", "reason"}`), and `{"context"}` on `pre_llm_call`.
//! Exit codes never block in Hermes, so the answer is always on stdout with exit 0.

use crate::harness::reply::{block, json, Reply, Said};
use crate::vocab::{CanonicalEvent as E, Decision};
use serde_json::Map;

pub(crate) fn reply(s: &Said) -> Reply {
    let mut top = Map::new();
    match s.event {
        E::ToolBefore | E::TurnStop if s.decision == Decision::Deny => {
            block(s, &mut top);
        }
        E::PromptSubmit => {
            if let Some(c) = s.context() {
                top.insert("context".into(), c.into());
            }
        }
        _ => {}
    }
    json(top)
}
