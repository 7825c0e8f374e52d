//! Approvals for every dialect's hooks (docs/security.md). Hooks of a gated scope
//! (`requireHookApproval`: `"project"` gates project and local files, `"all"` every file but
//! managed settings) run only once approved with `hookrt trust approve`; the approval records
//! the hook's dialect, event and command, the script the command runs (its variables expanded)
//! with its SHA-256, and the project or file it was given in, so an edited script or another
//! project needs a new approval. Hermes hooks follow Hermes' first-use consent: every one is
//! listed and, once any approval is required, skipped until approved.

use crate::config::{Candidate, HandlerSpec, HomeVars, Hook};
use crate::harness::trust::Verdict;
use crate::harness::EnvCtx;
use crate::load::script::{expand_words, hash_file, script_of};
use crate::load::trust_store::{Subject, TrustStatus, TrustStore};
use crate::vocab::{ApprovalScope, CanonicalEvent, Diagnostic, Scope};
use serde::{Deserialize, Serialize};
use serde_json::Map;
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
    /// The project an approval of this hook is bound to (hooks of a project's files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// What the hook's own harness says of it, by its trust records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harness: Option<Verdict>,
}

/// A hook loading left out because neither its harness (nor, inside one, the host) would run it
/// nor hookrt has an approval for it: `hookrt hook` says so on stderr and to the user, history
/// records it on its event, `hookrt doctor` counts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Skipped {
    pub file: String,
    /// The event as the file spells it.
    pub event: String,
    pub canonical: CanonicalEvent,
    pub command: String,
    /// The rule that left it out, in its harness's terms.
    pub why: String,
    /// The command that approves it with hookrt.
    pub approve: String,
}

impl Skipped {
    fn of(file: &Path, h: &Hook, command: String, why: String, approve: String) -> Self {
        let file = file.display().to_string();
        Skipped { file, event: h.event.clone(), canonical: h.canonical, command, why, approve }
    }
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
    /// The home directory and the harnesses' folders, for the variables a command names its
    /// script by.
    pub home: PathBuf,
    pub homes: HomeVars,
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

/// One hook as the approvals see it: its words (variables expanded), the folder relative
/// script paths start from, and where it was declared.
pub(crate) struct Asked<'a> {
    pub event: &'a str,
    pub command: &'a str,
    pub argv: Vec<String>,
    pub base: &'a Path,
    pub file: &'a Path,
    pub scope: Scope,
    /// The project directory (an approval of a project file's hook is bound to it).
    pub project: &'a Path,
}

/// Where one hook stands with the approvals: the script its command runs is found, and hashed
/// only when an approval for the hook exists to compare with; `accept_all` approves everything.
pub(crate) fn assess(store: &TrustStore, accept_all: bool, a: &Asked) -> ListedHook {
    let script = script_of(&a.argv, a.base);
    let project = matches!(a.scope, Scope::Project | Scope::Local).then_some(a.project);
    let subject = Subject { event: a.event, command: a.command, script: script.as_deref(), project, file: a.file };
    let status = if accept_all {
        TrustStatus::Approved
    } else if !store.covers(&subject) {
        TrustStatus::Unapproved
    } else {
        store.status(&subject, script.as_deref().and_then(hash_file).as_deref())
    };
    ListedHook {
        event: a.event.to_owned(),
        command: a.command.to_owned(),
        sha256: None,
        script,
        status,
        file: a.file.display().to_string(),
        scope: a.scope,
        project: project.map(Path::to_path_buf),
        harness: None,
    }
}

/// The words of a hook's command as its shell would see them: the variables its harness sets
/// (`$CLAUDE_PROJECT_DIR`, ...), its own `env` and `~` expanded.
fn words(h: &Hook, command: &str, c: &Consent, project: &Path) -> Vec<String> {
    let dir = project.display().to_string();
    let input = Map::new();
    let ctx = EnvCtx {
        project_dir: &dir,
        cwd: &dir,
        session_id: "",
        home: &c.home,
        homes: &c.homes,
        file: &h.file,
        input: &input,
    };
    let vars = crate::harness::of(h.dialect).env(&ctx);
    let home = c.home.display().to_string();
    let lookup = |k: &str| {
        h.env
            .iter()
            .chain(vars.iter())
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .or_else(|| (k == "HOME").then(|| home.clone()))
    };
    expand_words(&argv_of(h, command), &lookup)
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
        let argv = words(&hooks[i], &command, c, project);
        let asked = Asked {
            event: &event,
            command: &command,
            argv,
            base: project,
            file: &cand.path,
            scope: cand.scope,
            project,
        };
        let entry = assess(&c.store, c.accept_all, &asked);
        let status = entry.status;
        out.listed.push(entry);
        if status == TrustStatus::Approved || !gated {
            unapproved += usize::from(status != TrustStatus::Approved);
            i += 1;
            continue;
        }
        let approve = approve_command(project, &command);
        let m = format!("hook {command:?} {}; skipped (run `{approve}`)", status.why_not());
        out.diagnostics.push(Diagnostic::warning(&cand.path, Some(&hooks[i].event), m));
        let why = format!("{} (requireHookApproval gates {} files)", status.why_not(), cand.scope.as_str());
        out.skipped.push(Skipped::of(&cand.path, &hooks[i], command, why, approve));
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
        let argv = match &h.handler {
            HandlerSpec::Shell { .. } => words(h, &command, c, base),
            _ => Vec::new(),
        };
        let accept = c.accept_all || auto_accept;
        let asked = Asked {
            event: &h.event,
            command: &command,
            argv,
            base,
            file: &cand.path,
            scope: Scope::Global,
            project: base,
        };
        let entry = assess(&c.store, accept, &asked);
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
            let approve = format!("hookrt trust approve {}", shlex::try_quote(&command).unwrap_or_default());
            let why = format!("{} hook {what}", hooks[i].dialect.title());
            out.skipped.push(Skipped::of(&cand.path, &hooks[i], command, why, approve));
            hooks.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether a dialect's harness asks consent for every hook, whatever its scope.
fn every_hook(d: crate::vocab::Dialect) -> bool {
    crate::harness::of(d).consent() == crate::harness::Consent::EveryHook
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
    // A harness that asks consent for every hook (Hermes) names a script from its file's folder.
    let base = if hooks.get(first).is_some_and(|h| every_hook(h.dialect)) {
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
        // Its approvals name the bare event, as Hermes' own allowlist does.
        let (event, command) =
            if every_hook(hooks[i].dialect) { (hooks[i].event.clone(), command_of(&hooks[i])) } else { key(&hooks[i]) };
        let argv = words(&hooks[i], &command, c, project);
        let asked =
            Asked { event: &event, command: &command, argv, base, file: &cand.path, scope: cand.scope, project };
        let mut entry = assess(&c.store, false, &asked);
        let keep = v.runs || v.disabled || entry.status == TrustStatus::Approved;
        if !keep {
            let approve = approve_command(project, &command);
            let how = v.approve.as_deref().map(|a| format!("{a}, or ")).unwrap_or_default();
            let m = format!("hook {command:?} skipped: {}; {how}run `{approve}`", v.rule);
            out.diagnostics.push(Diagnostic::warning(&cand.path, Some(&hooks[i].event), m));
            out.skipped.push(Skipped::of(&cand.path, &hooks[i], command.clone(), v.rule.clone(), approve));
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

/// The command that approves a hook of a project with hookrt, runnable from anywhere.
fn approve_command(project: &Path, command: &str) -> String {
    let dir = project.display().to_string();
    let q = |s: &str| shlex::try_quote(s).map(|q| q.into_owned()).unwrap_or_else(|_| s.to_owned());
    format!("hookrt trust approve --cwd {} {}", q(&dir), q(command))
}

/// Where consent's warnings, listed and skipped hooks go.
pub(crate) struct Out<'a> {
    pub diagnostics: &'a mut Vec<Diagnostic>,
    pub listed: &'a mut Vec<ListedHook>,
    pub skipped: &'a mut Vec<Skipped>,
}
