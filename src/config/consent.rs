//! Consent for every dialect's hooks (Hermes applies it per entry in `hermes.rs`, Gemini honours
//! `trusted_hooks.json`): hooks of a gated scope (`requireHookApproval`: `"project"` gates
//! project and local files, `"all"` every file but managed settings) run only once approved
//! with `hookrt trust approve`; the approval records the hook's dialect, event and command and
//! the SHA-256 of the script the command runs, so an edited script needs a new approval.

use super::discovery::Candidate;
use super::{Diagnostic, HandlerSpec, Hook, Scope, Severity};
use crate::trust::{script_hash, ApprovalScope, TrustStatus, TrustStore};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A hook that needs approval, as `hookrt trust` lists it (Hermes hooks, project and local
/// hooks of every dialect, and global ones under `requireHookApproval: "all"`).
#[derive(Debug, Clone, Serialize)]
pub struct ListedHook {
    pub event: String,
    pub command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    pub status: TrustStatus,
    pub file: String,
    /// Where the file sits (`hookrt trust approve --scope`).
    pub scope: super::Scope,
}

/// How consent is applied while loading.
#[derive(Debug, Clone, Default)]
pub struct Consent {
    pub store: TrustStore,
    /// Unapproved hooks do not run (otherwise they run with a warning).
    pub require: bool,
    /// `HERMES_ACCEPT_HOOKS=1` or `hooks_auto_accept: true`: everything counts as approved.
    pub accept_all: bool,
}

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

/// Where one hook stands with the approvals, as `hookrt trust list` shows it: the script its
/// command runs (resolved from `base`) is hashed and looked up; `accept_all` approves everything.
/// Shared by every dialect's gate and by Hermes' own consent.
pub fn assess(
    consent: &Consent,
    accept_all: bool,
    (event, command): (&str, &str),
    argv: &[String],
    base: &Path,
    (file, scope): (&Path, Scope),
) -> ListedHook {
    let hashed = script_hash(argv, base);
    let hash = hashed.as_ref().map(|(_, h)| h.as_str());
    let status = if accept_all { TrustStatus::Approved } else { consent.store.status(event, command, hash) };
    ListedHook {
        event: event.to_owned(),
        command: command.to_owned(),
        sha256: hash.map(str::to_owned),
        script: hashed.map(|(p, _)| p),
        status,
        file: file.display().to_string(),
        scope,
    }
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
    listed: &mut Vec<ListedHook>,
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
        let entry = assess(consent, consent.accept_all, (&event, &command), &argv, project, (&cand.path, cand.scope));
        let status = entry.status;
        listed.push(entry);
        if status == TrustStatus::Approved {
            i += 1;
            continue;
        }
        unapproved += 1;
        if !gated {
            i += 1;
            continue;
        }
        let what = status.why_not();
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
