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
        // the contexts of several hooks as Hermes joins its plugins' (`agent/turn_context.py`):
        // with a blank line between them
        E::PromptSubmit if !s.contexts.is_empty() => {
            top.insert("context".into(), s.contexts.join("\n\n").into());
        }
        _ => {}
    }
    json(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said<'a>(event: E, decision: Decision, reason: Option<&'a str>, contexts: &'a [String]) -> Said<'a> {
        Said {
            event,
            spelling: "",
            decision,
            reason,
            contexts,
            messages: &[],
            update_input: None,
            stop: false,
            stop_reason: None,
            permission: None,
            after_block: None,
        }
    }

    #[test]
    fn contexts_are_joined_as_hermes_joins_its_plugins() {
        let two = ["Today is Friday".to_owned(), "Be brief".to_owned()];
        let r = reply(&said(E::PromptSubmit, Decision::None, None, &two));
        assert_eq!(r.stdout, r#"{"context":"Today is Friday\n\nBe brief"}"#);
        assert_eq!(reply(&said(E::PromptSubmit, Decision::None, None, &[])).stdout, "");
        let r = reply(&said(E::ToolBefore, Decision::Deny, Some("first block"), &[]));
        assert_eq!(r.stdout, r#"{"decision":"block","reason":"first block"}"#);
    }
}
