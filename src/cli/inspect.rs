//! The commands that look at the configuration: `validate`, `dump`, `list`, `doctor`.

use crate::cli::Io;
use crate::runtime::Runtime;
use crate::vocab::Severity;
use serde_json::Value;

/// Prints every diagnostic; exit 1 on errors (or warnings with `--strict`).
pub(crate) fn validate(rt: &Runtime, strict: bool, json: bool, io: Io<'_>) -> i32 {
    let l = rt.loaded();
    // The loader's diagnostics, then what each file's JSON Schema adds.
    let mut diagnostics = l.diagnostics.clone();
    diagnostics.extend(crate::load::schema_diagnostics(&l));
    if json {
        let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&diagnostics).unwrap_or_default());
    } else {
        for d in &diagnostics {
            let sev = if d.severity == Severity::Error { "error" } else { "warning" };
            let _ = writeln!(io.out, "{sev}: {}: {}", d.file.as_deref().unwrap_or("-"), d.message);
        }
        let (files, hooks, problems) = (l.sources.len(), l.table.hooks().len(), diagnostics.len());
        let _ = writeln!(io.out, "{files} file(s), {hooks} hook(s), {problems} problem(s)");
    }
    let errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let warnings = diagnostics.iter().any(|d| d.severity == Severity::Warning);
    i32::from(errors || (strict && warnings))
}

pub(crate) fn dump(rt: &Runtime, io: Io<'_>) -> i32 {
    let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&rt.dump()).unwrap_or_default());
    0
}

/// The files read (scope, dialect, file), each followed by its hooks (id, matcher, enabled or
/// disabled).
pub(crate) fn list(rt: &Runtime, io: Io<'_>) -> i32 {
    let l = rt.loaded();
    for s in &l.sources {
        let _ = writeln!(io.out, "{}\t{}\t{}", s.scope.as_str(), s.dialect.as_str(), s.file);
        for h in l.table.hooks().iter().filter(|h| h.file.display().to_string() == s.file) {
            let state = if h.enabled { "enabled" } else { "disabled" };
            let _ = writeln!(io.out, "  {}\t{}\t{}", h.id, h.matcher_text.as_deref().unwrap_or("*"), state);
        }
    }
    0
}

/// Checks every hook; exit 1 when something is wrong.
pub(crate) async fn doctor(rt: &Runtime, shared: &crate::cli::args::Shared, json: bool, mut io: Io<'_>) -> i32 {
    let reports = crate::doctor::run(rt).await;
    let l = rt.loaded();
    if json {
        let all: Vec<crate::doctor::Report> =
            reports.iter().cloned().chain(l.skipped.iter().map(crate::doctor::Report::skipped)).collect();
        let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&all).unwrap_or_default());
        return i32::from(all.iter().any(|r| !r.problems.is_empty()));
    }
    for d in &l.diagnostics {
        let _ = writeln!(io.out, "config: {}: {}", d.file.as_deref().unwrap_or("-"), d.message);
    }
    if l.table.disabled {
        let _ = writeln!(io.out, "note: hooks are switched off (disableAllHooks or HOOKS=0)");
    }
    for r in &reports {
        let mark = if r.problems.is_empty() { "ok" } else { "PROBLEM" };
        let decision = r.decision.and_then(|d| serde_json::to_value(d).ok());
        let decision = decision.as_ref().and_then(Value::as_str).unwrap_or("-");
        let _ = writeln!(io.out, "{mark}\t{}\tdecision={decision}\t{} ms", r.id, r.duration_ms);
        for p in &r.problems {
            let _ = writeln!(io.out, "\t- {p}");
        }
    }
    // A hook left out for trust is a guard that does not run: a problem until approved.
    for s in &l.skipped {
        let _ = writeln!(io.out, "PROBLEM\tskipped {:?} ({}, {}): {}", s.command, s.file, s.event, s.why);
        let _ = writeln!(io.out, "\t- it does not run until trusted; to run it: {}", s.approve);
    }
    let bad = reports.iter().filter(|r| !r.problems.is_empty()).count() + l.skipped.len();
    let n = reports.len() + l.skipped.len();
    let _ = writeln!(io.out, "{n} hook(s), {bad} with problems ({} skipped for trust)", l.skipped.len());
    let inside_bad = crate::cli::inside::doctor(shared, &mut io).await;
    i32::from(bad > 0 || inside_bad)
}
