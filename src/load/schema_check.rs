//! `hookrt validate`'s second opinion: each file read, checked against its dialect's JSON Schema
//! (crate::harness::schema), reported with the loader's naming of places and the schema named,
//! so a user sees what an editor validating with `schemas/<dialect>.schema.json` will flag.

use crate::config::file::{parse_root, read_text};
use crate::harness::schema::SchemaProblem;
use crate::load::Loaded;
use crate::vocab::{Diagnostic, Dialect};
use std::path::Path;

/// The schema problems of the files a load read.
pub(crate) fn schema_diagnostics(loaded: &Loaded) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in &loaded.sources {
        let path = Path::new(&s.file);
        let Ok(text) = read_text(path) else { continue };
        let Some(Some(p)) = verdict(path, s.dialect, &text) else { continue };
        let at = if p.at.is_empty() { String::new() } else { format!("{}: ", p.at) };
        let m = format!("{at}{} ({} schema)", p.message, s.dialect.as_str());
        out.push(Diagnostic::error(path, p.event.as_deref(), m));
    }
    out
}

/// The schema's verdict on a file read as `dialect`: `None` when no schema describes the file
/// or its text does not parse (the loader reports that), else its first problem, if any.
pub(crate) fn verdict(path: &Path, dialect: Dialect, text: &str) -> Option<Option<SchemaProblem>> {
    let h = crate::harness::of(dialect);
    h.file_schema_at(path)?;
    let root = parse_root(text, path, h.comments()).ok()?;
    crate::harness::schema::check_file(dialect, path, &root)
}
