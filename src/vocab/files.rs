//! How hookrt writes files: atomically through a temporary file created exclusively beside the
//! target (so a planted `<name>.tmp` link cannot redirect the write), with the mode the caller
//! wants set before the rename; its own state (approvals, install records, history, the HTTP
//! endpoint's token) private to the user: files 0600 in folders 0700.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Mode of hookrt's own state files.
pub(crate) const PRIVATE: u32 = 0o600;

/// Makes a folder of hookrt's own state (and the folders above it): the folder itself is made
/// private (0700), and must be a folder, not a link to one.
pub(crate) fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(std::io::Error::other(format!("{} is not a folder (a link?)", dir.display())));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically with `mode`: a temporary file made exclusively (`O_EXCL`,
/// a random name) in the same folder, then renamed over `path`. The folder must exist.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut tmp = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".hookrt-tmp").tempfile_in(dir)?;
    tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes one of hookrt's own state files: its folder made private, the file 0600.
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        private_dir(dir)?;
    }
    write_atomic(path, bytes, PRIVATE)
}

/// Opens a file for appending, creating it 0600 (an existing file keeps its mode).
pub(crate) fn append_private(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().create(true).append(true).mode(PRIVATE).open(path)
}

/// The mode of an existing file (not following a link), if it exists.
pub(crate) fn mode_of(path: &Path) -> Option<u32> {
    std::fs::symlink_metadata(path).ok().map(|m| m.permissions().mode() & 0o7777)
}

/// The first link on the way from `root` down to `path` (the path itself included), if any:
/// `path` must lie under `root`.
pub(crate) fn link_below(root: &Path, path: &Path) -> Option<std::path::PathBuf> {
    let rest = path.strip_prefix(root).ok()?;
    let mut at = root.to_path_buf();
    for part in rest.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Some(at),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_is_never_written_through() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let target = t.path().join("settings.json");
        // Links at every name the old scheme would have used.
        for pid in 0..50 {
            let _ = std::os::unix::fs::symlink(&victim, t.path().join(format!("settings.hookrt-{pid}.tmp")));
        }
        write_atomic(&target, b"{}", 0o640).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}");
        assert_eq!(mode_of(&target), Some(0o640));
    }

    #[test]
    fn private_state_is_0600_in_a_0700_folder_and_links_are_found() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("state/hookrt/x.json");
        write_private(&f, b"1").unwrap();
        assert_eq!(mode_of(&f), Some(0o600));
        assert_eq!(mode_of(f.parent().unwrap()), Some(0o700));
        let proj = t.path().join("proj");
        std::fs::create_dir_all(proj.join("real")).unwrap();
        std::os::unix::fs::symlink(proj.join("real"), proj.join(".claude")).unwrap();
        assert_eq!(link_below(&proj, &proj.join(".claude/settings.json")), Some(proj.join(".claude")));
        assert_eq!(link_below(&proj, &proj.join("real/settings.json")), None);
        let linked = t.path().join("linked");
        std::os::unix::fs::symlink(t.path().join("state"), &linked).unwrap();
        assert!(private_dir(&linked).is_err());
    }
}
