//! What each harness's own trust records say about its hooks (`requireHookApproval: "harness"`,
//! docs/security.md): a [`Verdict`] per hook, read-only from the harness's files. Each harness
//! reads its own records in its folder (`codex/trust.rs`, `gemini/trust.rs`, ...); this module
//! holds what they share.

use crate::config::{Candidate, Hook, Roots};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What the host's environment says about trust, read once when options are resolved: the
/// variables each harness's [`TrustGate::trust_vars`] names (`GEMINI_CLI_TRUST_WORKSPACE`,
/// `CLAUDE_CONFIG_DIR`, ...), which only that harness's trust gate interprets.
///
/// [`TrustGate::trust_vars`]: crate::harness::parts::TrustGate::trust_vars
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustEnv {
    vars: BTreeMap<&'static str, String>,
}

impl TrustEnv {
    /// Reads the variables from `env`.
    pub fn read(env: &dyn Fn(&str) -> Option<String>) -> Self {
        let names = crate::harness::HARNESSES.iter().flat_map(|h| h.trust_vars().iter().copied());
        TrustEnv { vars: names.filter_map(|k| Some((k, env(k)?))).collect() }
    }

    /// A variable's value as the host set it.
    pub(crate) fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// A variable read as a switch word: trimmed and lowercase, empty when unset.
    pub(crate) fn word(&self, name: &str) -> String {
        self.var(name).map(|v| v.trim().to_ascii_lowercase()).unwrap_or_default()
    }

    /// An environment of these variables alone (tests).
    #[cfg(test)]
    pub(crate) fn of(pairs: &[(&'static str, &str)]) -> Self {
        TrustEnv { vars: pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect() }
    }
}

/// Everything a harness needs to judge the hooks of one file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TrustCtx<'a> {
    pub cand: &'a Candidate,
    pub roots: Roots<'a>,
    pub env: &'a TrustEnv,
    /// The file's own accept-everything switch (Hermes `hooks_auto_accept: true`).
    pub auto_accept: bool,
}

/// Everything a harness needs to say whether it trusts a project folder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProjectCtx<'a> {
    pub roots: Roots<'a>,
    pub env: &'a TrustEnv,
}

/// Whether a hook's own harness would run it, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// The harness would run it.
    pub runs: bool,
    /// The harness checks a trust record for this hook at all.
    pub gated: bool,
    /// The harness's own configuration switches it off (Codex `[hooks.state] enabled = false`):
    /// it never runs, whatever the approval mode.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// The rule that decided, in the harness's terms.
    pub rule: String,
    /// How to make the harness run it, when it would not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approve: Option<String>,
}

impl Verdict {
    /// The harness runs its hooks without a trust record.
    pub(crate) fn not_gated(rule: impl Into<String>) -> Self {
        Verdict { runs: true, gated: false, disabled: false, rule: rule.into(), approve: None }
    }

    /// A trust record admits the hook.
    pub(crate) fn trusted(rule: impl Into<String>) -> Self {
        Verdict { runs: true, gated: true, disabled: false, rule: rule.into(), approve: None }
    }

    /// The harness would skip the hook.
    pub(crate) fn refused(rule: impl Into<String>, approve: impl Into<String>) -> Self {
        Verdict { runs: false, gated: true, disabled: false, rule: rule.into(), approve: Some(approve.into()) }
    }

    /// The harness's configuration switches the hook off.
    pub(crate) fn disabled(rule: impl Into<String>) -> Self {
        Verdict { runs: false, gated: true, disabled: true, rule: rule.into(), approve: None }
    }
}

/// The same verdict for every hook of a file.
pub(crate) fn each(hooks: &[Hook], v: Verdict) -> Vec<Verdict> {
    vec![v; hooks.len()]
}

/// Reads a JSON (or JSONC) file into a value; `None` when missing or broken.
pub(crate) fn read_json(path: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(path).ok()?;
    crate::config::file::parse_root(&text, path, true).ok()
}

/// Whether `dir` is `root` or lies below it (component-wise, after resolving links where both
/// exist).
pub(crate) fn within(dir: &Path, root: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    dir.starts_with(root) || real(dir).starts_with(real(root))
}
