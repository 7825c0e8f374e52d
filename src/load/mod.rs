//! Loading: which files are read ([`discovery`]), reading and parsing each with its harness
//! ([`read`]), the switches that turn hooks off ([`switches`]), approvals ([`consent`]),
//! de-duplication, and the [`HookTable`] the dispatcher plans from. Loading never fails: a
//! broken file only adds diagnostics.

pub(crate) mod consent;
pub(crate) mod discovery;
mod read;
pub(crate) mod schema_check;
pub(crate) mod script;
mod switches;
pub(crate) mod table;
pub(crate) mod trust_store;

use crate::config::{Candidate, HomeVars, Hook, PluginDir, Roots, Substitutions};
pub use crate::harness::trust::{TrustEnv, Verdict};
use crate::vocab::{ApprovalScope, CanonicalEvent, Diagnostic, Dialect, HostHarness, IfRules, Origin, Scope};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use consent::{ListedHook, Skipped};
pub(crate) use schema_check::schema_diagnostics;
pub(crate) use table::HookTable;
pub use trust_store::{legacy_store_path, store_path, Subject, TrustEntry, TrustStatus, TrustStore};

/// Which policy files are read first (Claude Code's managed settings).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Policy {
    /// None.
    #[default]
    Off,
    /// The harness's own location (`/etc/claude-code/managed-settings.json` on Linux).
    Default,
    /// This file.
    At(PathBuf),
}

/// What loading needs to know.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    pub home: PathBuf,
    pub cwd: PathBuf,
    /// One explicit file instead of discovery.
    pub config_path: Option<PathBuf>,
    /// Dialect of the explicit file, when the caller knows it.
    pub dialect: Option<Dialect>,
    /// Run discovery; `None`: only when no `config_path` is given.
    pub discover: Option<bool>,
    /// `HOOKS=0` in the environment.
    pub hooks_off: bool,
    pub subst: Substitutions,
    /// Which hooks do not run until approved.
    pub require_approval: ApprovalScope,
    /// Running as a drop-in for the JavaScript implementation (`listen`): the notice about
    /// unapproved project hooks is a log line, not a diagnostic.
    pub drop_in: bool,
    /// Each harness's own matcher rules, or the `listen` contract's.
    pub fidelity: crate::vocab::Fidelity,
    /// The host's environment accepts every hook that needs consent (`Consent::EveryHook`), as
    /// the harness's trust gate reads it.
    pub accept_hooks: bool,
    /// Claude Code plugin roots given by the host (`plugins`, `--plugin DIR`).
    pub plugins: Vec<PluginDir>,
    /// Machine-wide directory of Gemini, Cursor and Windsurf files (`/etc`).
    pub system_dir: PathBuf,
    /// Policy files read first.
    pub policy: Policy,
    /// Whether `if` rules are evaluated or reported and ignored.
    pub if_rules: IfRules,
    /// The harnesses' folder variables (`$CODEX_HOME`, `$HERMES_HOME`, ...), read once.
    pub homes: HomeVars,
    /// What the environment says about each harness's trust (`requireHookApproval: "harness"`).
    pub trust_env: TrustEnv,
    /// The harness hookrt runs inside (`hookrt hook`): its files are not read, it runs them.
    pub left_to_harness: Option<Dialect>,
    /// The harness hookrt runs inside, or the one the host says it is: under
    /// `requireHookApproval: "harness"` a project's files also need that harness's trust of
    /// the project (docs/security.md).
    pub host: Option<HostHarness>,
    /// The release of a harness whose rules its files are read by, where the host named one.
    pub versions: crate::vocab::HarnessVersions,
}

impl LoadOptions {
    fn roots(&self) -> Roots<'_> {
        Roots { home: &self.home, cwd: &self.cwd, system: &self.system_dir, homes: &self.homes }
    }
}

/// A file that was read (it existed), with how many matcher groups it contributed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Source {
    pub file: String,
    pub dialect: Dialect,
    pub scope: Scope,
    pub groups: usize,
}

/// The result of loading configuration: never an error, only diagnostics.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub table: HookTable,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Vec<Source>,
    /// The hooks that need approval, with their status (for `hookrt trust`).
    pub listed: Vec<ListedHook>,
    /// The hooks left out for trust: neither their harness nor hookrt's approvals admit them.
    pub skipped: Vec<Skipped>,
}

impl Loaded {
    /// The hooks of an event left out for trust.
    pub fn skipped_for(&self, event: CanonicalEvent) -> impl Iterator<Item = &Skipped> {
        self.skipped.iter().filter(move |s| s.canonical == event)
    }
}

/// Loads configuration. Never fails; problems become diagnostics.
pub fn load(opts: &LoadOptions) -> Loaded {
    let mut reader = read::Reader::new(opts);
    let mut list = discovery::candidates(opts);
    let mut i = 0;
    loop {
        if i == list.len() {
            // Every settings file is read: now the extensions they enable (once).
            let more = reader.enabled_extensions();
            if more.is_empty() {
                break;
            }
            list.extend(more);
            continue;
        }
        reader.file(&list[i]);
        i += 1;
    }
    reader.finish()
}

/// Parses one file's text as `dialect` (recognised when `None`) without touching the disk
/// beyond the name: the hooks and diagnostics it gives. For the fuzz targets.
pub fn parse_text(path: &Path, dialect: Option<Dialect>, text: &str) -> (Vec<Hook>, Vec<Diagnostic>) {
    let (hooks, diags, _) = parse_text_as(path, dialect, text);
    (hooks, diags)
}

/// [`parse_text`], with the dialect the file was read as (by its path and shape).
pub(crate) fn parse_text_as(
    path: &Path,
    dialect: Option<Dialect>,
    text: &str,
) -> (Vec<Hook>, Vec<Diagnostic>, Option<Dialect>) {
    let opts = LoadOptions { accept_hooks: true, ..Default::default() };
    let mut reader = read::Reader::new(&opts);
    reader.text(&Candidate::settings(path.to_path_buf(), dialect, Scope::Project), text);
    reader.into_parts()
}

/// Identical handlers reaching one event from different files run once: the first wins.
fn dedup(hooks: Vec<Hook>) -> Vec<Hook> {
    let mut first_file: HashMap<String, PathBuf> = HashMap::new();
    hooks
        .into_iter()
        .filter(|h| {
            let key = h.identity();
            match first_file.get(&key) {
                Some(f) if *f != h.file => false,
                Some(_) => true,
                None => {
                    first_file.insert(key, h.file.clone());
                    true
                }
            }
        })
        .collect()
}

/// Hooks of managed settings, which a settings file's switches cannot turn off.
fn is_managed(h: &Hook) -> bool {
    h.origin == Origin::Managed
}
