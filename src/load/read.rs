//! Reading the candidate files one by one: each file's text, its root, its harness's parser,
//! its switches and the approvals its hooks need.

use crate::config::file::{parse_root, read_text, ReadError};
use crate::config::{Candidate, FileCtx, Hook, LoadSink, OutboundTarget};
use crate::harness::trust::{ProjectCtx, TrustCtx, Verdict};
use crate::harness::{self, Consent as Rule};
use crate::load::consent::{self, Consent};
use crate::load::switches::Switches;
use crate::load::{dedup, HookTable, LoadOptions, Loaded, Source};
use crate::vocab::{ApprovalScope, Diagnostic, Dialect, Origin, Scope};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::path::PathBuf;

/// The state of one load.
pub(crate) struct Reader<'a> {
    opts: &'a LoadOptions,
    consent: Consent,
    hooks: Vec<Hook>,
    listed: Vec<crate::load::ListedHook>,
    skipped: Vec<crate::load::Skipped>,
    diagnostics: Vec<Diagnostic>,
    sources: Vec<Source>,
    outbound: Vec<OutboundTarget>,
    seen: HashSet<PathBuf>,
    switches: Switches,
    /// Extensions the files switched on or off, later files winning, and whether they were
    /// added to the list yet.
    extensions: Vec<(Dialect, String, bool)>,
    extensions_added: bool,
    /// The host's trust of the project, once asked (`None` inside: it keeps no record).
    host_trust: Option<Option<Verdict>>,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(opts: &'a LoadOptions) -> Self {
        let consent = Consent {
            store: crate::load::TrustStore::load(&crate::load::store_path(&opts.home)),
            scope: opts.require_approval,
            accept_all: opts.accept_hooks,
            drop_in: opts.drop_in,
            home: opts.home.clone(),
            homes: opts.homes.clone(),
        };
        Reader {
            opts,
            consent,
            hooks: Vec::new(),
            listed: Vec::new(),
            skipped: Vec::new(),
            diagnostics: Vec::new(),
            sources: Vec::new(),
            outbound: Vec::new(),
            seen: HashSet::new(),
            switches: Switches::default(),
            extensions: Vec::new(),
            extensions_added: false,
            host_trust: None,
        }
    }

    /// Reads one candidate: skipped when missing or already read (home == cwd reads a file
    /// once, labelled with its first, global, scope).
    pub(crate) fn file(&mut self, cand: &Candidate) {
        // Most candidates do not exist: one failed open each, and only a file that is there
        // is resolved (a path walk per file) for the read-once check.
        let text = match read_text(&cand.path) {
            Ok(t) => t,
            Err(ReadError::Missing) => return,
            Err(e) => {
                if self.seen.insert(std::fs::canonicalize(&cand.path).unwrap_or_else(|_| cand.path.clone())) {
                    self.diagnostics.push(Diagnostic::error(&cand.path, None, e.to_string()));
                }
                return;
            }
        };
        let real = std::fs::canonicalize(&cand.path).unwrap_or_else(|_| cand.path.clone());
        if self.seen.insert(real) {
            self.text(cand, &text);
        }
    }

    /// Parses one file's text and gates its hooks.
    pub(crate) fn text(&mut self, cand: &Candidate, text: &str) {
        let first = self.hooks.len();
        let (dialect, groups, auto_accept) = self.parse(cand, text);
        // `hookrt install`'s own entries are for the harness: hookrt is already running.
        let mut index = 0;
        self.hooks.retain(|h| {
            index += 1;
            index <= first || !h.is_hookrt_entry()
        });
        let h = harness::of(dialect);
        let verdicts = (first < self.hooks.len()).then(|| {
            let ctx = TrustCtx { cand, roots: self.opts.roots(), env: &self.opts.trust_env, auto_accept };
            let own = h.trust(&ctx, &self.hooks[first..]);
            self.with_host(cand, dialect, own)
        });
        // A harness's own switch (Codex `[hooks.state] enabled = false`) holds in every mode.
        for (hook, v) in self.hooks[first..].iter_mut().zip(verdicts.iter().flatten()) {
            hook.enabled &= !v.disabled;
        }
        let out =
            consent::Out { diagnostics: &mut self.diagnostics, listed: &mut self.listed, skipped: &mut self.skipped };
        match h.consent() {
            // A file the user named (`configPath`, `--config`) is their own choice: its hooks
            // run, as dsh's Codex bridge runs the file it is pointed at.
            _ if self.opts.require_approval == ApprovalScope::Harness && cand.scope == Scope::Explicit => {}
            _ if self.opts.require_approval == ApprovalScope::Harness => {
                let verdicts = verdicts.unwrap_or_default();
                consent::gate_harness(cand, (first, verdicts), (&mut self.hooks, &self.opts.cwd), &self.consent, out);
            }
            Rule::Scoped => consent::gate(cand, first, &mut self.hooks, &self.opts.cwd, &self.consent, out),
            Rule::EveryHook => consent::gate_every(cand, first, &mut self.hooks, auto_accept, &self.consent, out),
            Rule::Own => {
                if cand.scope == Scope::Project && self.opts.require_approval.gates(cand.scope) {
                    h.keep_trusted(&mut self.hooks, first, self.opts.roots(), &mut self.diagnostics);
                }
            }
        }
        self.sources.push(Source { file: cand.path.display().to_string(), dialect, scope: cand.scope, groups });
    }

    /// The verdicts on a project file's hooks with the host's word added: inside a harness (or
    /// for a host that said which it is) a project file the host does not read itself runs only
    /// when the host trusts the project too; a host that keeps no record trusts none.
    fn with_host(&mut self, cand: &Candidate, dialect: Dialect, own: Vec<Verdict>) -> Vec<Verdict> {
        let Some(host) = self.opts.host else { return own };
        if !matches!(cand.scope, Scope::Project | Scope::Local) || host.dialect() == Some(dialect) {
            return own;
        }
        let opts = self.opts;
        let (roots, env) = (opts.roots(), &opts.trust_env);
        let word = self.host_trust.get_or_insert_with(|| {
            host.dialect().and_then(|d| harness::of(d).project_trust(&ProjectCtx { roots, env }))
        });
        let word = word.clone().unwrap_or_else(|| {
            Verdict::refused(
                format!("{} keeps no record of trusted projects", host.title()),
                "approve the project's hooks with hookrt",
            )
        });
        own.into_iter().map(|v| joined(v, &word)).collect()
    }

    /// The root of a file and its harness's reading of it: (dialect, groups, auto-accept).
    fn parse(&mut self, cand: &Candidate, text: &str) -> (Dialect, usize, bool) {
        let path = &cand.path;
        let provisional = cand.dialect.unwrap_or_else(|| harness::recognise(path, None));
        if harness::of(provisional).scripts() {
            // The file is the hook itself: nothing to parse.
            let (groups, auto_accept) = self.run_parser(cand, provisional, &Map::new());
            return (provisional, groups, auto_accept);
        }
        let root = match parse_root(text, path, harness::of(provisional).comments()) {
            Ok(v) => v,
            Err(e) => {
                let m = if cand.origin == Origin::Plugin {
                    format!("plugin {}: {e}", plugin_name(cand))
                } else {
                    e.to_string()
                };
                self.diagnostics.push(Diagnostic::error(path, None, m));
                return (provisional, 0, false);
            }
        };
        let dialect = cand.dialect.unwrap_or_else(|| harness::recognise(path, Some(&root)));
        let dialect = root.as_object().map_or(dialect, |o| harness::registry::by_shape(dialect, o));
        let h = harness::of(dialect);
        let Some(obj) = root.as_object() else {
            let m = format!("config root must be a JSON object ({})", h.file_kind(path));
            self.diagnostics.push(Diagnostic::error(path, None, m));
            return (dialect, 0, false);
        };
        self.switches.read(obj, path, cand.origin == Origin::Managed, h.switches_all());
        if cand.origin != Origin::Plugin {
            for (id, on) in h.enabled_extensions(obj) {
                self.extensions.retain(|(d, i, _)| !(*d == dialect && *i == id));
                self.extensions.push((dialect, id, on));
            }
        }
        let (groups, auto_accept) = self.run_parser(cand, dialect, obj);
        (dialect, groups, auto_accept)
    }

    fn run_parser(&mut self, cand: &Candidate, dialect: Dialect, obj: &Map<String, Value>) -> (usize, bool) {
        let h = harness::of(dialect);
        let mut subst = self.opts.subst.clone();
        subst.vars.extend(cand.vars.iter().cloned());
        let ctx = FileCtx {
            path: &cand.path,
            dialect,
            events: h.events(),
            style: h.matcher_style().under(self.opts.fidelity),
            member: h.member(obj),
            subst: &subst,
            origin: cand.origin,
            env: &cand.vars,
            if_rules: self.opts.if_rules,
            home: &self.opts.home,
            version: self.opts.versions.of(dialect).or(h.descriptor().releases.map(|r| r.newest)),
        };
        if let (Some(v), Some(r)) = (self.opts.versions.of(dialect), h.descriptor().releases) {
            for c in r.not_applied(v) {
                tracing::info!(
                    "{}: read by {} {v}'s rules (hookrt follows up to {}; its kit records {}), without: from {}, {}",
                    cand.path.display(),
                    dialect.as_str(),
                    r.newest,
                    r.recorded,
                    c.since,
                    c.what.split_whitespace().collect::<Vec<_>>().join(" ")
                );
            }
        }
        let mut sink = LoadSink {
            hooks: &mut self.hooks,
            diagnostics: &mut self.diagnostics,
            outbound: &mut self.outbound,
            auto_accept: false,
        };
        let groups = h.parse(&ctx, obj, &mut sink);
        (groups, sink.auto_accept)
    }

    /// The installed extensions the files read switch on, each once, except those the host
    /// named itself; empty after the first call.
    pub(crate) fn enabled_extensions(&mut self) -> Vec<Candidate> {
        if std::mem::replace(&mut self.extensions_added, true) {
            return Vec::new();
        }
        let named: Vec<PathBuf> = crate::load::discovery::plugin_files(self.opts).into_iter().map(|c| c.path).collect();
        self.extensions
            .iter()
            .filter(|(_, _, on)| *on)
            .filter_map(|(d, id, _)| harness::of(*d).extension_file(&self.opts.home, id))
            .filter(|c| !named.contains(&c.path))
            .collect()
    }

    /// De-duplication and the switches, then the table.
    pub(crate) fn finish(mut self) -> Loaded {
        let mut hooks = dedup(std::mem::take(&mut self.hooks));
        let off = self.switches.apply(&mut hooks, self.opts.hooks_off, &mut self.diagnostics);
        let mut table = HookTable::new(hooks, off);
        table.outbound = self.outbound;
        Loaded {
            table,
            diagnostics: self.diagnostics,
            sources: self.sources,
            listed: self.listed,
            skipped: self.skipped,
        }
    }

    /// The hooks and diagnostics read so far (the fuzz targets' view).
    pub(crate) fn into_parts(self) -> (Vec<Hook>, Vec<Diagnostic>, Option<Dialect>) {
        let dialect = self.sources.last().map(|s| s.dialect);
        (self.hooks, self.diagnostics, dialect)
    }
}

/// A hook's own harness's verdict and the host's on the project: it runs when both would run it.
fn joined(own: Verdict, host: &Verdict) -> Verdict {
    if !own.runs {
        return own;
    }
    // Refused by the host alone: its rule is the one to read.
    let rule = if host.runs { format!("{}; {}", own.rule, host.rule) } else { host.rule.clone() };
    Verdict { runs: host.runs, gated: true, disabled: own.disabled, rule, approve: host.approve.clone() }
}

fn plugin_name(cand: &Candidate) -> String {
    cand.path
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
