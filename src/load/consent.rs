//! Approvals for every dialect's hooks (docs/security.md). Hooks of a gated scope
//! (`requireHookApproval`: `"project"` gates project and local files, `"all"` every file but
//! managed settings) run only once approved with `hookrt trust approve`; the approval records
//! the hook's dialect, event and command and the SHA-256 of the script the command runs, so an
//! edited script needs a new approval. Hermes hooks follow Hermes' first-use consent: every one
//! is listed and, once any approval is required, skipped until approved.

use crate::config::{Candidate, HandlerSpec, Hook};
use crate::harness::trust::Verdict;
use crate::load::script::{hash_file, script_of};
use crate::load::trust_store::{TrustStatus, TrustStore};
use crate::vocab::{ApprovalScope, Diagnostic, Scope};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A hook that needs approval, as `hookrt trust` lists it.
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
    pub scope: Scope,
    /// What the hook's own harness says of it, by its trust records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harness: Option<Verdict>,
}

/// How consent is applied while loading.
#[derive(Debug, Clone, Default)]
pub(crate) struct Consent {
    pub store: TrustStore,
    /// Which scopes are gated.
    pub scope: ApprovalScope,
    /// `HERMES_ACCEPT_HOOKS=1`: every Hermes hook counts as approved.
    pub accept_all: bool,
    /// Running as a drop-in for the JavaScript implementation (`listen`): the notice about
    /// unapproved project hooks is a log line, not a diagnostic.
    pub drop_in: bool,
}

/// The command a hook runs, as approvals name it: the file's own words where the dialect
/// splits them itself, else the command (exec form joined shell-style), URL or prompt.
fn command_of(h: &Hook) -> String {
    if let Some(w) = &h.harness.written {
        return w.clone();
    }
    match &h.handler {
        HandlerSpec::Shell { command, args, .. } | HandlerSpec::Worker { command, args, .. } => match args {
            Some(a) => shlex::try_join(std::iter::once(command.as_str()).chain(a.iter().map(String::as_str)))
                .unwrap_or_else(|_| command.clone()),
            None => command.clone(),
        },
        HandlerSpec::Webhook { url, .. } | HandlerSpec::Http { url, .. } => url.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// What an approval names: `<dialect>:<event>` and the command (or URL, or prompt).
pub(crate) fn key(h: &Hook) -> (String, String) {
    (format!("{}:{}", h.dialect.as_str(), h.event), command_of(h))
}

/// Where one hook stands with the approvals: the script its command runs (resolved from
/// `base`) is found, and hashed only when an approval for the hook exists to compare with;
/// `accept_all` approves everything.
pub(crate) fn assess(
    store: &TrustStore,
    accept_all: bool,
    (event, command): (&str, &str),
    argv: &[String],
    base: &Path,
    (file, scope): (&Path, Scope),
) -> ListedHook {
    let script = script_of(argv, base);
    let status = match store.entry(event, command) {
        _ if accept_all => TrustStatus::Approved,
        None => TrustStatus::Unapproved,
        Some(_) => store.status(event, command, script.as_deref().and_then(hash_file).as_deref()),
    };
    ListedHook {
        event: event.to_owned(),
        command: command.to_owned(),
        sha256: None,
        script,
        status,
        file: file.display().to_string(),
        scope,
        harness: None,
    }
}

impl ListedHook {
    /// The hook with its script's hash filled in (`hookrt trust list` shows it, `approve`
    /// records it); loading leaves it out unless an approval needed it.
    pub fn hashed(mut self) -> Self {
        if self.sha256.is_none() {
            self.sha256 = self.script.as_deref().and_then(hash_file);
        }
        self
    }
}

/// Checks the hooks a file added (from `first` on): lists them for `hookrt trust`, skips the
/// unapproved ones of a gated scope with a warning each, and otherwise says once per project
/// file that some of its hooks are not approved (a log line in drop-in mode).
pub(crate) fn gate(cand: &Candidate, first: usize, hooks: &mut Vec<Hook>, project: &Path, c: &Consent, out: Out) {
    let gated = c.scope.gates(cand.scope);
    // `hookrt trust` lists project hooks whatever the setting, so they can be approved first.
    if !(gated || matches!(cand.scope, Scope::Project | Scope::Local)) || first >= hooks.len() {
        return;
    }
    let mut unapproved = 0;
    let mut i = first;
    while i < hooks.len() {
        let (event, command) = key(&hooks[i]);
        let argv = shlex::split(&command).unwrap_or_default();
        let entry = assess(&c.store, c.accept_all, (&event, &command), &argv, project, (&cand.path, cand.scope));
        let status = entry.status;
        out.listed.push(entry);
        if status == TrustStatus::Approved || !gated {
            unapproved += usize::from(status != TrustStatus::Approved);
            i += 1;
            continue;
        }
        let quoted = shlex::try_quote(&command).unwrap_or_default();
        let m = format!("hook {command:?} {}; skipped (run `hookrt trust approve {quoted}`)", status.why_not());
        out.diagnostics.push(Diagnostic::warning(&cand.path, Some(&hooks[i].event), m));
        hooks.remove(i);
    }
    if !gated && unapproved > 0 && c.scope == ApprovalScope::Unset {
        let message = format!(
            "{unapproved} project hook(s) not approved; they run (requireHookApproval: \"project\" skips them; \
             approve with `hookrt trust approve --all --scope project`)"
        );
        if c.drop_in {
            tracing::warn!(file = %cand.path.display(), "{message}");
        } else {
            out.diagnostics.push(Diagnostic::warning(&cand.path, None, message));
        }
    }
}

/// Hermes' first-use consent for the hooks a file added (from `first` on): each is listed;
/// an unapproved one is skipped when any approval is required and runs with a warning
/// otherwise. `auto_accept`: the file's `hooks_auto_accept: true`.
pub(crate) fn gate_every(
    cand: &Candidate,
    first: usize,
    hooks: &mut Vec<Hook>,
    auto_accept: bool,
    c: &Consent,
    out: Out,
) {
    let base = cand.path.parent().unwrap_or(Path::new("/"));
    let mut i = first;
    while i < hooks.len() {
        let h = &hooks[i];
        let command = command_of(h);
        let argv: Vec<String> = match &h.handler {
            HandlerSpec::Shell { command, args, .. } => {
                std::iter::once(command.clone()).chain(args.iter().flatten().cloned()).collect()
            }
            _ => Vec::new(),
        };
        let accept = c.accept_all || auto_accept;
        let entry = assess(&c.store, accept, (&h.event, &command), &argv, base, (&cand.path, Scope::Global));
        let status = entry.status;
        out.listed.push(entry);
        if status == TrustStatus::Approved {
            i += 1;
            continue;
        }
        let at = h.id.split(':').rev().nth(1).unwrap_or("0");
        let (what, skip) = (status.why_not(), c.scope.on());
        let then = if skip { "skipped" } else { "runs anyway" };
        let m = format!("hooks[{}][{at}]: {what}; {then} (approve with `hookrt trust approve`)", h.event);
        out.diagnostics.push(Diagnostic::warning(&cand.path, Some(&h.event), m));
        if skip {
            hooks.remove(i);
        } else {
            i += 1;
        }
    }
}

/// `requireHookApproval: "harness"` for the hooks a file added (from `first` on), given their
/// harness's verdicts: a hook runs when its harness would run it or hookrt's own approval
/// holds; otherwise it is skipped with a warning naming the rule and how to approve. Every hook
/// a harness gates is listed for `hookrt trust`, with both verdicts.
pub(crate) fn gate_harness(
    cand: &Candidate,
    (first, verdicts): (usize, Vec<Verdict>),
    (hooks, project): (&mut Vec<Hook>, &Path),
    c: &Consent,
    out: Out,
) {
    let base = if hooks.get(first).is_some_and(|h| h.dialect == crate::vocab::Dialect::Hermes) {
        cand.path.parent().unwrap_or(Path::new("/"))
    } else {
        project
    };
    let mut verdicts = verdicts.into_iter();
    let mut i = first;
    while i < hooks.len() {
        let Some(v) = verdicts.next() else { return };
        if !v.gated && !matches!(cand.scope, Scope::Project | Scope::Local) {
            i += 1;
            continue;
        }
        // Hermes approvals name the bare event, as Hermes' own allowlist does.
        let (event, command) = match hooks[i].dialect {
            crate::vocab::Dialect::Hermes => (hooks[i].event.clone(), command_of(&hooks[i])),
            _ => key(&hooks[i]),
        };
        let argv = argv_of(&hooks[i], &command);
        let mut entry = assess(&c.store, false, (&event, &command), &argv, base, (&cand.path, cand.scope));
        let keep = v.runs || v.disabled || entry.status == TrustStatus::Approved;
        if !keep {
            let quoted = shlex::try_quote(&command).unwrap_or_default();
            let how = v.approve.as_deref().map(|a| format!("{a}, or ")).unwrap_or_default();
            let m = format!("hook {command:?} skipped: {}; {how}run `hookrt trust approve {quoted}`", v.rule);
            out.diagnostics.push(Diagnostic::warning(&cand.path, Some(&hooks[i].event), m));
        }
        entry.harness = Some(v);
        out.listed.push(entry);
        if keep {
            i += 1;
        } else {
            hooks.remove(i);
        }
    }
}

/// The words of a hook's command, for finding the script it runs.
fn argv_of(h: &Hook, command: &str) -> Vec<String> {
    match &h.handler {
        HandlerSpec::Shell { command, args: Some(args), .. } => {
            std::iter::once(command.clone()).chain(args.iter().cloned()).collect()
        }
        _ => shlex::split(command).unwrap_or_default(),
    }
}

/// Where consent's warnings and listed hooks go.
pub(crate) struct Out<'a> {
    pub diagnostics: &'a mut Vec<Diagnostic>,
    pub listed: &'a mut Vec<ListedHook>,
}
