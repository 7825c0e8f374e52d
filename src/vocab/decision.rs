//! The decisions a hook can reach, in precedence order.

use serde::Serialize;

/// A decision, ordered by precedence (deny > defer > ask > allow > none), so folding many runs
/// is taking the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
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

impl Decision {
    /// Reads the `allow` / `deny` / `ask` words every harness uses in its decision fields.
    pub fn from_word(word: &str) -> Option<Decision> {
        match word {
            "allow" => Some(Decision::Allow),
            "deny" => Some(Decision::Deny),
            "ask" => Some(Decision::Ask),
            _ => None,
        }
    }
}
