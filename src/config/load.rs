//! Loading: discovery (or one explicit file), reading, dialect roots, de-duplication and the
//! off switches (`disableAllHooks`, `HOOKS=0`).

use super::discovery::{self, Candidate};
use super::file::{self, ReadError};
use super::groups::{self, FileCtx, Substitutions};
use super::{agents, hermes, Diagnostic, Hook, HookTable, Loaded, Scope, Severity, Source};
use crate::dialect::Dialect;
use crate::trust::{self, TrustStore};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

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
    /// Unapproved Hermes hooks do not run.
    pub require_approval: bool,
    /// `HERMES_ACCEPT_HOOKS=1`: every Hermes hook counts as approved.
    pub accept_hooks: bool,
}

/// Loads configuration. Never fails; problems become diagnostics.
pub fn load(opts: &LoadOptions) -> Loaded {
    let mut list: Vec<Candidate> = Vec::new();
    if opts.discover.unwrap_or(opts.config_path.is_none()) {
        list.extend(discovery::candidates(&opts.home, &opts.cwd));
    }
    if let Some(p) = &opts.config_path {
        let path = if p.is_absolute() { p.clone() } else { opts.cwd.join(p) };
        list.push(Candidate { path, dialect: opts.dialect, scope: Scope::Explicit });
    }

    let mut hooks: Vec<Hook> = Vec::new();
    let mut diags = Vec::new();
    let mut sources = Vec::new();
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    let mut disabled: Option<bool> = None;
    let consent = hermes::Consent {
        store: TrustStore::load(&trust::store_path(&opts.home)),
        require: opts.require_approval,
        accept_all: opts.accept_hooks,
    };
    let mut extra = hermes::HermesOut::default();

    for cand in list {
        let real = std::fs::canonicalize(&cand.path).unwrap_or_else(|_| cand.path.clone());
        if !seen_files.insert(real) {
            continue; // home == cwd: read once, labelled with its first (global) scope
        }
        let text = match file::read_text(&cand.path) {
            Ok(t) => t,
            Err(ReadError::Missing) => continue,
            Err(ReadError::Problem(m)) => {
                diags.push(file_diag(&cand.path, m));
                continue;
            }
        };
        let (dialect, groups, off) = load_file(&cand, &text, opts, &consent, &mut hooks, &mut diags, &mut extra);
        if let Some(off) = off {
            disabled = Some(off);
        }
        sources.push(Source { file: cand.path.display().to_string(), dialect, scope: cand.scope, groups });
    }

    let hooks = dedup(hooks);
    let mut table = HookTable::new(hooks, opts.hooks_off || disabled.unwrap_or(false));
    table.outbound = extra.outbound;
    Loaded { table, diagnostics: diags, sources, hermes: extra.listed }
}

fn file_diag(path: &Path, message: String) -> Diagnostic {
    Diagnostic { severity: Severity::Error, file: Some(path.display().to_string()), event: None, message }
}

/// Parses one file's text; returns its dialect, group count and its `disableAllHooks`.
fn load_file(
    cand: &Candidate,
    text: &str,
    opts: &LoadOptions,
    consent: &hermes::Consent,
    hooks: &mut Vec<Hook>,
    diags: &mut Vec<Diagnostic>,
    extra: &mut hermes::HermesOut,
) -> (Dialect, usize, Option<bool>) {
    let provisional = cand.dialect.unwrap_or_else(|| discovery::recognise(&cand.path, None));
    let root = match file::parse_root(text, provisional, &cand.path) {
        Ok(v) => v,
        Err(m) => {
            diags.push(file_diag(&cand.path, m));
            return (provisional, 0, None);
        }
    };
    let dialect = cand.dialect.unwrap_or_else(|| discovery::recognise(&cand.path, Some(&root)));
    let Some(obj) = root.as_object() else {
        diags.push(file_diag(
            &cand.path,
            format!("config root must be a JSON object ({})", file::describe(dialect, &cand.path)),
        ));
        return (dialect, 0, None);
    };
    let off = obj.get("disableAllHooks").and_then(Value::as_bool);
    match dialect {
        Dialect::Hermes => {
            let ctx = FileCtx { path: &cand.path, dialect, member: "hooks", subst: &opts.subst };
            return (dialect, hermes::parse(&ctx, obj, &opts.home, consent, hooks, diags, extra), off);
        }
        Dialect::Agents => {
            let ctx = FileCtx { path: &cand.path, dialect, member: "hooks", subst: &opts.subst };
            return (dialect, agents::parse(&ctx, obj, hooks, diags), off);
        }
        _ => {}
    }
    let member = if dialect == Dialect::Native && !obj.contains_key("hooks") { "events" } else { "hooks" };
    let groups = match obj.get(member) {
        Some(Value::Object(map)) => {
            let ctx = FileCtx { path: &cand.path, dialect, member, subst: &opts.subst };
            groups::parse_event_map(&ctx, map, hooks, diags)
        }
        None | Some(Value::Null) => {
            if file::is_dedicated_hooks_file(dialect, &cand.path) && off.is_none() {
                diags.push(file_diag(&cand.path, format!("config has no \"{member}\" object")));
            }
            0
        }
        Some(_) => {
            diags.push(file_diag(&cand.path, format!("\"{member}\" must be an object of event names")));
            0
        }
    };
    (dialect, groups, off)
}

/// Identical handlers reaching one event from different files run once: the first wins.
fn dedup(hooks: Vec<Hook>) -> Vec<Hook> {
    let mut first_file: std::collections::HashMap<String, PathBuf> = std::collections::HashMap::new();
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
