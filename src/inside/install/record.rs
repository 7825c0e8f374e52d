//! What each file looked like before hookrt first installed into it (`<state>/installs/`, one
//! JSON file per installed-into file, named by the hash of its path), so uninstalling can give
//! back the exact bytes, and remove the file and the folders install created.

use crate::inside::install::{InstallError, Plan};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

#[derive(Debug, Serialize, Deserialize)]
struct Record {
    path: PathBuf,
    /// The file's text before the first install; `None`: install created it.
    original: Option<String>,
    /// Folders install created for it, outermost first.
    #[serde(default)]
    created_dirs: Vec<PathBuf>,
}

fn record_path(state: &Path, file: &Path) -> PathBuf {
    let id = hex::encode(&Sha256::digest(file.to_string_lossy().as_bytes())[..12]);
    state.join("installs").join(format!("{id}.json"))
}

fn load(state: &Path, file: &Path) -> Option<Record> {
    let text = std::fs::read_to_string(record_path(state, file)).ok()?;
    serde_json::from_str::<Record>(&text).ok().filter(|r| r.path == file)
}

/// The text to leave after hookrt's entries are removed: the recorded original when what is
/// left means the same (`same`), nothing when install created the file and nothing else is
/// in it, else the cleaned text.
pub(crate) fn restore(state: &Path, file: &Path, cleaned: String, same: impl Fn(&str, &str) -> bool) -> Option<String> {
    match load(state, file) {
        Some(Record { original: Some(o), .. }) if same(&cleaned, &o) => Some(o),
        Some(Record { original: None, .. }) if same(&cleaned, "") => None,
        _ => Some(cleaned),
    }
}

/// Writes a plan: each file atomically (or removes it), recording first states when
/// installing and dropping the records (and the folders install created, when empty) when
/// uninstalling.
pub(crate) fn apply(plan: &Plan, state: &Path) -> Result<(), InstallError> {
    if plan.installing {
        crate::vocab::files::private_dir(state).map_err(|e| InstallError::Write(state.to_path_buf(), e))?;
    }
    for c in &plan.changes {
        let rec = load(state, &c.path);
        if plan.installing && rec.is_none() {
            let created_dirs = missing_dirs(&c.path);
            let r = Record { path: c.path.clone(), original: c.before.clone(), created_dirs };
            let rec = record_path(state, &c.path);
            let text = serde_json::to_string_pretty(&r).unwrap_or_default();
            // The original may hold secrets (a user's settings): the record is the user's alone.
            crate::vocab::files::write_private(&rec, text.as_bytes()).map_err(|e| InstallError::Write(rec, e))?;
        }
        match &c.after {
            Some(text) => write(&c.path, text, if c.private { 0o600 } else { 0o644 })?,
            None => {
                std::fs::remove_file(&c.path).or_else(not_found).map_err(|e| InstallError::Write(c.path.clone(), e))?;
                for d in rec.iter().flat_map(|r| r.created_dirs.iter().rev()) {
                    let _ = std::fs::remove_dir(d); // only when empty
                }
            }
        }
        if !plan.installing && rec.is_some() {
            let _ = std::fs::remove_file(record_path(state, &c.path));
        }
    }
    Ok(())
}

fn not_found(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::NotFound {
        Ok(())
    } else {
        Err(e)
    }
}

/// The folders above `file` that do not exist yet, outermost first.
fn missing_dirs(file: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = file
        .ancestors()
        .skip(1)
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// Writes through a temporary file created exclusively beside the file and a rename, creating
/// the folders; an existing file keeps its mode, a new one gets `new_mode`.
fn write(path: &Path, text: &str, new_mode: u32) -> Result<(), InstallError> {
    let err = |e| InstallError::Write(path.to_path_buf(), e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let mode = crate::vocab::files::mode_of(path).unwrap_or(new_mode);
    crate::vocab::files::write_atomic(path, text.as_bytes(), mode).map_err(err)
}
