//! Consent for every dialect's hooks (Hermes has its own in `hermes.rs`, Gemini honours
//! `trusted_hooks.json`): hooks of a gated scope (`requireHookApproval`: `"project"` gates
//! project and local files, `"all"` every file but managed settings) run only once approved
//! with `hookrt trust approve`; the approval records the hook's dialect, event and command and
//! the SHA-256 of the script the command runs, so an edited script needs a new approval.

use super::discovery::Candidate;
use super::hermes::{Consent, HermesHook};
use super::{Diagnostic, HandlerSpec, Hook, Scope, Severity};
use crate::trust::{script_hash, ApprovalScope, TrustStatus};
use std::path::Path;

/// What an approval names: `<dialect>:<event>` and the command (or URL, or prompt).
pub fn key(h: &Hook) -> (String, String) {
    let what = match &h.handler {
        HandlerSpec::Shell { command, args, .. } | HandlerSpec::Worker { command, args, .. } => match args {
            Some(a) => shlex::try_join(std::iter::once(command.as_str()).chain(a.iter().map(String::as_str)))
                .unwrap_or_else(|_| command.clone()),
            None => command.clone(),
        },
        HandlerSpec::Webhook { url, .. } | HandlerSpec::Http { url, .. } => url.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    };
    (format!("{}:{}", h.dialect.as_str(), h.event), what)
}

/// Checks the hooks a file added (from `first` on): lists them for `hookrt trust`, skips the
/// unapproved ones of a gated scope with a warning each, and otherwise says once per project
/// file that some of its hooks are not approved (a log line in drop-in mode).
#[allow(clippy::too_many_arguments)]
pub fn gate(
    cand: &Candidate,
    first: usize,
    hooks: &mut Vec<Hook>,
    diags: &mut Vec<Diagnostic>,
    consent: &Consent,
    scope: ApprovalScope,
    (project, drop_in): (&Path, bool),
    listed: &mut Vec<HermesHook>,
) {
    let gated = scope.gates(cand.scope);
    let listed_scope = gated || matches!(cand.scope, Scope::Project | Scope::Local);
    // `hookrt trust` lists project hooks whatever the setting, so they can be approved first.
    if !listed_scope || first >= hooks.len() {
        return;
    }
    let mut unapproved = 0;
    let mut i = first;
    while i < hooks.len() {
        let (event, command) = key(&hooks[i]);
        let argv = shlex::split(&command).unwrap_or_default();
        let hashed = script_hash(&argv, project);
        let hash = hashed.as_ref().map(|(_, h)| h.as_str());
        let status =
            if consent.accept_all { TrustStatus::Approved } else { consent.store.status(&event, &command, hash) };
        listed.push(HermesHook {
            event: event.clone(),
            command: command.clone(),
            script: hashed.as_ref().map(|(p, _)| p.clone()),
            sha256: hash.map(str::to_owned),
            status,
            file: cand.path.display().to_string(),
            scope: cand.scope,
        });
        if status == TrustStatus::Approved {
            i += 1;
            continue;
        }
        unapproved += 1;
        if !gated {
            i += 1;
            continue;
        }
        let what =
            if status == TrustStatus::Changed { "its script changed since it was approved" } else { "not approved" };
        diags.push(Diagnostic {
            severity: Severity::Warning,
            file: Some(cand.path.display().to_string()),
            event: Some(hooks[i].event.clone()),
            message: format!(
                "hook {command:?} {what}; skipped (run `hookrt trust approve {}`)",
                shlex::try_quote(&command).unwrap_or_default()
            ),
        });
        hooks.remove(i);
    }
    if !gated && unapproved > 0 && scope == ApprovalScope::Unset {
        let message = format!(
            "{unapproved} project hook(s) not approved; they run (requireHookApproval: \"project\" skips them; \
             approve with `hookrt trust approve --all --scope project`)"
        );
        if drop_in {
            tracing::warn!(file = %cand.path.display(), "{message}");
        } else {
            diags.push(Diagnostic {
                severity: Severity::Warning,
                file: Some(cand.path.display().to_string()),
                event: None,
                message,
            });
        }
    }
}
