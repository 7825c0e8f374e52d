//! Loading: discovery (or one explicit file), reading, dialect roots, de-duplication and the
//! off switches (`disableAllHooks`, `HOOKS=0`).

use super::discovery::{self, Candidate, PluginDir};
use super::entry::LoadSink;
use super::file::{self, ReadError};
use super::groups::{self, FileCtx, Substitutions};
use super::{
    agents, copilot, cursor, gemini, hermes, windsurf, Diagnostic, Hook, HookTable, Loaded, Origin, Scope, Severity,
    Source,
};
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
    /// Which hooks do not run until approved (Hermes hooks under any scope but off).
    pub require_approval: crate::trust::ApprovalScope,
    /// Running as a drop-in for the JavaScript implementation (`listen`): the notice about
    /// unapproved project hooks is a log line, not a diagnostic.
    pub drop_in: bool,
    /// `HERMES_ACCEPT_HOOKS=1`: every Hermes hook counts as approved.
    pub accept_hooks: bool,
    /// Claude Code plugin roots given by the host (`plugins`, `--plugin DIR`).
    pub plugins: Vec<PluginDir>,
    /// Machine-wide directory of Gemini, Cursor and Windsurf files (`/etc`).
    pub system_dir: PathBuf,
    /// Claude Code managed settings; `None`: not read.
    pub managed_settings: Option<PathBuf>,
    /// Whether `if` rules are evaluated or reported and ignored.
    pub if_rules: super::IfRules,
}

/// What the files said about the whole configuration, beyond their hooks.
#[derive(Default)]
struct Switches {
    /// `disableAllHooks` of the settings files (the last one read wins).
    disabled: Option<bool>,
    /// `disableAllHooks` of managed settings: wins over everything.
    managed_disabled: bool,
    /// `allowManagedHooksOnly: true` in managed settings.
    managed_only: bool,
    /// `enabledPlugins` of the Claude settings read, later files winning.
    enabled_plugins: Vec<(String, bool)>,
}

/// Loads configuration. Never fails; problems become diagnostics.
pub fn load(opts: &LoadOptions) -> Loaded {
    let mut list: Vec<Candidate> = Vec::new();
    if let Some(m) = &opts.managed_settings {
        list.push(Candidate {
            origin: Origin::Managed,
            ..Candidate::settings(m.clone(), Some(Dialect::Claude), Scope::Managed)
        });
    }
    if opts.discover.unwrap_or(opts.config_path.is_none()) {
        list.extend(discovery::candidates(&opts.home, &opts.cwd));
        list.extend(discovery::harness_candidates(&opts.home, &opts.cwd, &opts.system_dir));
    }
    if let Some(p) = &opts.config_path {
        let path = if p.is_absolute() { p.clone() } else { opts.cwd.join(p) };
        list.push(Candidate::settings(path, opts.dialect, Scope::Explicit));
    }
    list.extend(opts.plugins.iter().map(|p| discovery::plugin_candidate(p, &opts.home)));

    let mut hooks: Vec<Hook> = Vec::new();
    let mut diags = Vec::new();
    let mut sources = Vec::new();
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    let mut sw = Switches::default();
    let consent = super::consent::Consent {
        store: TrustStore::load(&trust::store_path(&opts.home)),
        require: opts.require_approval.on(),
        accept_all: opts.accept_hooks,
    };
    let mut extra = hermes::HermesOut::default();

    let (mut i, mut plugins_added) = (0, false);
    loop {
        if i == list.len() {
            if plugins_added {
                break;
            }
            // Every settings file is read: now the plugins they enable.
            plugins_added = true;
            list.extend(enabled_plugins(opts, &mut sw));
            continue;
        }
        let cand = list[i].clone();
        i += 1;
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
        let first = hooks.len();
        let (dialect, groups) = load_file(&cand, &text, opts, &consent, &mut hooks, &mut diags, &mut extra, &mut sw);
        if !matches!(dialect, Dialect::Hermes | Dialect::Gemini) {
            let project = (opts.cwd.as_path(), opts.drop_in);
            super::consent::gate(
                &cand,
                first,
                &mut hooks,
                &mut diags,
                &consent,
                opts.require_approval,
                project,
                &mut extra.listed,
            );
        }
        sources.push(Source { file: cand.path.display().to_string(), dialect, scope: cand.scope, groups });
    }

    let mut hooks = dedup(hooks);
    let has_managed = hooks.iter().any(|h| h.origin == Origin::Managed);
    if sw.managed_only {
        let before = hooks.len();
        hooks.retain(|h| h.origin == Origin::Managed);
        if let Some(m) = &opts.managed_settings {
            let dropped = before - hooks.len();
            diags.push(Diagnostic {
                severity: Severity::Warning,
                file: Some(m.display().to_string()),
                event: None,
                message: format!("allowManagedHooksOnly: {dropped} hook(s) from other files are not loaded"),
            });
        }
    }
    // A settings file's disableAllHooks cannot switch off managed hooks; managed settings' can.
    let user_off = sw.disabled.unwrap_or(false);
    if user_off && has_managed && !sw.managed_disabled {
        hooks.retain(|h| h.origin == Origin::Managed);
    }
    let off = opts.hooks_off || sw.managed_disabled || (user_off && !has_managed);
    let mut table = HookTable::new(hooks, off);
    table.outbound = extra.outbound;
    Loaded { table, diagnostics: diags, sources, listed: extra.listed }
}

/// Parses one file's text as `dialect` (recognised when `None`) without touching the disk
/// beyond the name: the hooks and diagnostics it gives. For the fuzz targets.
pub fn parse_text(path: &Path, dialect: Option<Dialect>, text: &str) -> (Vec<Hook>, Vec<Diagnostic>) {
    let opts = LoadOptions::default();
    let cand = Candidate::settings(path.to_path_buf(), dialect, Scope::Project);
    let consent = super::consent::Consent { store: TrustStore::default(), require: false, accept_all: true };
    let (mut hooks, mut diags) = (Vec::new(), Vec::new());
    let mut extra = hermes::HermesOut::default();
    let mut sw = Switches::default();
    load_file(&cand, text, &opts, &consent, &mut hooks, &mut diags, &mut extra, &mut sw);
    (hooks, diags)
}

/// The installed plugins that the settings read enable, each once.
fn enabled_plugins(opts: &LoadOptions, sw: &mut Switches) -> Vec<Candidate> {
    let mut state: Vec<(String, bool)> = Vec::new();
    for (id, on) in sw.enabled_plugins.drain(..) {
        state.retain(|(i, _)| *i != id);
        state.push((id, on));
    }
    state
        .iter()
        .filter(|(_, on)| *on)
        .filter_map(|(id, _)| discovery::installed_plugin(&opts.home, id))
        .filter(|p| !opts.plugins.iter().any(|q| q.root == p.root))
        .map(|p| discovery::plugin_candidate(&p, &opts.home))
        .collect()
}

fn file_diag(path: &Path, message: String) -> Diagnostic {
    Diagnostic { severity: Severity::Error, file: Some(path.display().to_string()), event: None, message }
}

/// Parses one file's text; returns its dialect and group count, and records its switches.
#[allow(clippy::too_many_arguments)]
fn load_file(
    cand: &Candidate,
    text: &str,
    opts: &LoadOptions,
    consent: &super::consent::Consent,
    hooks: &mut Vec<Hook>,
    diags: &mut Vec<Diagnostic>,
    extra: &mut hermes::HermesOut,
    sw: &mut Switches,
) -> (Dialect, usize) {
    let provisional = cand.dialect.unwrap_or_else(|| discovery::recognise(&cand.path, None));
    let root = match file::parse_root(text, provisional, &cand.path) {
        Ok(v) => v,
        Err(m) => {
            if cand.origin == Origin::Plugin {
                diags.push(file_diag(&cand.path, format!("plugin {}: {m}", plugin_name(cand))));
            } else {
                diags.push(file_diag(&cand.path, m));
            }
            return (provisional, 0);
        }
    };
    let dialect = cand.dialect.unwrap_or_else(|| discovery::recognise(&cand.path, Some(&root)));
    let Some(obj) = root.as_object() else {
        diags.push(file_diag(
            &cand.path,
            format!("config root must be a JSON object ({})", file::describe(dialect, &cand.path)),
        ));
        return (dialect, 0);
    };
    let off = obj.get("disableAllHooks").and_then(Value::as_bool);
    if cand.origin == Origin::Managed {
        sw.managed_disabled = off == Some(true);
        sw.managed_only = obj.get("allowManagedHooksOnly") == Some(&Value::Bool(true));
    } else if let Some(off) = off.filter(|_| dialect != Dialect::Copilot) {
        // Copilot's disableAllHooks speaks for its own file only (its parser skips the file).
        sw.disabled = Some(off);
    }
    if dialect == Dialect::Claude && cand.origin != Origin::Plugin {
        if let Some(Value::Object(m)) = obj.get("enabledPlugins") {
            sw.enabled_plugins.extend(m.iter().filter_map(|(k, v)| v.as_bool().map(|b| (k.clone(), b))));
        }
    }
    let mut subst = opts.subst.clone();
    subst.vars.extend(cand.vars.iter().cloned());
    let file_ctx = |member| FileCtx {
        path: &cand.path,
        dialect,
        member,
        subst: &subst,
        origin: cand.origin,
        env: &cand.vars,
        if_rules: opts.if_rules,
    };
    match dialect {
        Dialect::Hermes => {
            return (dialect, hermes::parse(&file_ctx("hooks"), obj, &opts.home, consent, hooks, diags, extra));
        }
        Dialect::Agents | Dialect::Gemini | Dialect::Cursor | Dialect::Copilot | Dialect::Windsurf => {
            let first = hooks.len();
            let mut sink = LoadSink { hooks, diagnostics: diags };
            let ctx = file_ctx("hooks");
            let n = match dialect {
                Dialect::Gemini => gemini::parse(&ctx, obj, &mut sink),
                Dialect::Cursor => cursor::parse(&ctx, obj, &mut sink),
                Dialect::Copilot => copilot::parse(&ctx, obj, &mut sink),
                Dialect::Windsurf => windsurf::parse(&ctx, obj, &mut sink),
                _ => agents::parse(&ctx, obj, &mut sink),
            };
            if n == 0 && !obj.contains_key("hooks") && dialect != Dialect::Agents && dialect != Dialect::Gemini {
                diags.push(file_diag(&cand.path, "config has no \"hooks\" object".into()));
            }
            if dialect == Dialect::Gemini && cand.scope == Scope::Project && opts.require_approval.gates(cand.scope) {
                gemini::keep_trusted(hooks, first, &opts.home, &opts.cwd, diags);
            }
            return (dialect, n);
        }
        _ => {}
    }
    let member = if dialect == Dialect::Native && !obj.contains_key("hooks") { "events" } else { "hooks" };
    let groups = match obj.get(member) {
        Some(Value::Object(map)) => groups::parse_event_map(&file_ctx(member), map, hooks, diags),
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
    (dialect, groups)
}

fn plugin_name(cand: &Candidate) -> String {
    cand.path
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
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
