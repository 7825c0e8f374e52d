//! hookrt's entries in a harness's file, in that file's own shape, and the trust step for those
//! entries: the harness's [`Installer`](crate::harness::parts::Installer) says where the file
//! is, what one entry looks like and what its trust records need; this module writes, strips
//! and counts them (docs/inside.md names each harness's file and entry).

use crate::harness::install::{command, events, is_our_url, is_ours, name, parse, serialize};
use crate::inside::install::{Change, InstallError, InstallScope, Target};
use crate::vocab::Dialect;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The harness's hook file for a scope.
pub(crate) fn hook_file(h: Dialect, scope: InstallScope, t: &Target) -> Result<PathBuf, InstallError> {
    crate::harness::of(h)
        .install_file(scope, t)
        .unwrap_or_else(|| Err(InstallError::Unsupported(format!("hookrt cannot run inside {}", h.as_str()))))
}

/// The files the trust step writes, for uninstall.
pub(crate) fn trust_files(h: Dialect, t: &Target) -> Vec<PathBuf> {
    crate::harness::of(h).trust_files(t)
}

/// The file's text with hookrt's entries (old ones replaced).
pub(crate) fn with_ours(h: Dialect, file: &Path, before: Option<&str>, t: &Target) -> Result<String, InstallError> {
    let harness = crate::harness::of(h);
    let mut root = parse(file, before)?;
    strip(h, &mut root);
    harness.prepare_root(&mut root);
    let hooks = root.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        return Err(InstallError::Parse(file.to_path_buf(), "`hooks` is not an object".into()));
    };
    // `--http`: entries to `hookrt serve`'s endpoint instead of commands, where the harness has them.
    let http = t.http_port.map(|port| crate::inside::http::url(port, name(h)));
    for event in events(h) {
        let http_entry = http.as_deref().and_then(|url| harness.http_entry(url, crate::inside::http::TOKEN_VAR));
        let entry = http_entry.unwrap_or_else(|| harness.install_entry(&command(h, event, t)));
        match hooks.entry(event).or_insert_with(|| Value::Array(Vec::new())) {
            Value::Array(list) => list.push(entry),
            _ => return Err(InstallError::Parse(file.to_path_buf(), format!("`hooks.{event}` is not a list"))),
        }
    }
    Ok(serialize(file, &root))
}

/// Removes hookrt's entries, and the groups, event lists and `hooks` object they leave empty.
fn strip(h: Dialect, root: &mut Map<String, Value>) {
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else { return };
    let mut touched = false;
    hooks.retain(|_, list| {
        let Some(items) = list.as_array_mut() else { return true };
        let n = items.len();
        items.retain_mut(|item| !strip_item(h, item));
        touched |= items.len() != n;
        !(items.is_empty() && n > 0)
    });
    if touched && hooks.is_empty() {
        root.remove("hooks");
        crate::harness::of(h).emptied_root(root);
    }
}

/// Strips hookrt's handlers from one list item; `true` when the item is now to go.
fn strip_item(h: Dialect, item: &mut Value) -> bool {
    let own = |v: &Value| {
        ["command", "bash"].iter().any(|k| v.get(*k).and_then(Value::as_str).is_some_and(|c| is_ours(h, c)))
            || v.get("url").and_then(Value::as_str).is_some_and(|u| is_our_url(h, u))
    };
    if own(item) {
        return true;
    }
    let Some(handlers) = item.get_mut("hooks").and_then(Value::as_array_mut) else { return false };
    let n = handlers.len();
    handlers.retain(|x| !own(x));
    n > 0 && handlers.is_empty()
}

/// A file's text without hookrt's entries (or, for a trust file, without hookrt's records).
pub(crate) fn without_ours(h: Dialect, path: &Path, before: &str, _t: &Target) -> Result<String, InstallError> {
    if let Some(text) = crate::harness::of(h).without_trust(path, before) {
        return text;
    }
    let mut root = parse(path, Some(before))?;
    strip(h, &mut root);
    Ok(serialize(path, &root))
}

/// Whether two texts of a file mean the same (TOML: the same text).
pub(crate) fn same(path: &Path, a: &str, b: &str) -> bool {
    if path.extension().is_some_and(|e| e == "toml") {
        return a.trim() == b.trim();
    }
    match (parse(path, Some(a)), parse(path, Some(b))) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The trust step of an install: the harness's own trust records for hookrt's entries, and
/// notes on the trust the harness needs but hookrt does not give (a project's).
pub(crate) fn trust_step(
    h: Dialect,
    scope: InstallScope,
    file: (&Path, &str),
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<Change>, InstallError> {
    crate::harness::of(h).install_trust(scope, file, t, notes)
}

/// hookrt's entries in a harness's file: how many, and the programs they name that are gone.
pub(crate) fn installed(h: Dialect, file: &Path) -> Option<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(file).ok()?;
    let root = parse(file, Some(&text)).ok()?;
    let mut count = 0;
    let mut missing: Vec<String> = Vec::new();
    for list in root.get("hooks").and_then(Value::as_object).into_iter().flat_map(|m| m.values()) {
        for item in list.as_array().into_iter().flatten() {
            let handlers = item.get("hooks").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![item.clone()]);
            for x in handlers {
                let cmd = ["command", "bash"]
                    .iter()
                    .find_map(|k| x.get(*k).and_then(Value::as_str).filter(|c| is_ours(h, c)));
                let url = x.get("url").and_then(Value::as_str).filter(|u| is_our_url(h, u));
                if cmd.is_none() && url.is_none() {
                    continue;
                }
                count += 1;
                let program = cmd.and_then(shlex::split).and_then(|w| w.into_iter().next());
                if let Some(p) = program.filter(|p| p.contains('/') && !Path::new(p).is_file()) {
                    if !missing.contains(&p) {
                        missing.push(p);
                    }
                }
            }
        }
    }
    (count > 0).then_some((count, missing))
}
