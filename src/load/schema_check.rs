//! `hookrt validate`'s second opinion: each file read, checked against its dialect's JSON Schema
//! (crate::harness::schema), reported with the loader's naming of places and the schema named,
//! so a user sees what an editor validating with `schemas/<dialect>.schema.json` will flag.

use crate::config::file::{parse_root, read_text};
use crate::load::Loaded;
use crate::vocab::Diagnostic;
use std::path::Path;

/// The schema problems of the files a load read.
pub(crate) fn schema_diagnostics(loaded: &Loaded) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in &loaded.sources {
        let path = Path::new(&s.file);
        let h = crate::harness::of(s.dialect);
        if h.file_schema().is_none() || !h.schema_applies(path) {
            continue;
        }
        let Ok(text) = read_text(path) else { continue };
        let Ok(root) = parse_root(&text, path, h.comments()) else { continue };
        let Some(p) = crate::harness::schema::check_root(s.dialect, &root) else { continue };
        let at = if p.at.is_empty() { String::new() } else { format!("{}: ", p.at) };
        let m = format!("{at}{} ({} schema)", p.message, s.dialect.as_str());
        out.push(Diagnostic::error(path, p.event.as_deref(), m));
    }
    out
}
