//! The trust gate: which of a harness's hooks may run, by hookrt's approvals and the
//! harness's own records.

use crate::config::{Hook, Roots};
use crate::harness::trust::{self, ProjectCtx, TrustCtx, TrustEnv, Verdict};
use crate::harness::Consent;
use crate::vocab::{Diagnostic, Dialect};

/// How a harness's hooks are approved before they run.
pub(crate) trait TrustGate {
    fn consent(&self) -> Consent {
        Consent::Scoped
    }

    /// The host's variables its trust depends on, read once into the [`TrustEnv`].
    fn trust_vars(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the host's environment accepts every hook that needs consent
    /// ([`Consent::EveryHook`]) without asking (Hermes' `HERMES_ACCEPT_HOOKS`).
    fn accepts_every_hook(&self, _env: &TrustEnv) -> bool {
        false
    }

    /// Whether it would run each of a file's hooks, by its own trust records (read-only); a
    /// harness without any runs them all, for [`TrustGate::why_ungated`].
    fn trust(&self, _ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
        match hooks.first() {
            Some(h) => trust::each(hooks, Verdict::not_gated(self.why_ungated(h.dialect))),
            None => Vec::new(),
        }
    }

    /// Whether it trusts the project folder for hooks, by its own record (read-only), when hookrt
    /// runs inside it or a host says it is this harness; `None` when it keeps no such record.
    fn project_trust(&self, _p: &ProjectCtx) -> Option<Verdict> {
        None
    }

    /// Why a harness without trust records runs a file's hooks (shown by `hookrt trust`).
    fn why_ungated(&self, dialect: Dialect) -> String {
        format!("{} runs its hooks without a trust record", dialect.as_str())
    }

    /// Drops the project hooks (from `first` on) its own trust record does not hold.
    fn keep_trusted(&self, _hooks: &mut Vec<Hook>, _first: usize, _roots: Roots, _diags: &mut Vec<Diagnostic>) {}
}
