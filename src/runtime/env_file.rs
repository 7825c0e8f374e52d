//! `CLAUDE_ENV_FILE`: for SessionStart, Setup, CwdChanged and FileChanged hooks, a file the
//! hook appends `export K=V` lines to. Claude Code 2.1.332 gives each hook its own file,
//! `~/.claude/session-env/<session>/<event>-hook-<n>.sh`, and sources them before later Bash
//! commands; hookrt gives each hook the same path, reads the assignments without running
//! anything, returns them as `outcome.env` and removes the files when the dispatch ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Bytes of a file read at most (a hook cannot make hookrt hold more).
const MAX_BYTES: u64 = 1024 * 1024;

/// The environment files of one dispatch, one per hook, removed on drop.
#[derive(Debug)]
pub(crate) struct EnvFiles {
    dir: PathBuf,
    /// `sessionstart`, `setup`, ...: the event as Claude names its files.
    stem: String,
    files: Mutex<Vec<PathBuf>>,
}

/// A session id that is safe as one path component.
fn safe(session: &str) -> bool {
    !session.is_empty() && session != "." && session != ".." && !session.contains(['/', '\\', '\0'])
}

impl EnvFiles {
    /// Files under `home/.claude/session-env/<session>/` (the temporary directory when the
    /// session has no usable id).
    pub(crate) fn new(home: &Path, session: &str, event: &str) -> EnvFiles {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = if safe(session) {
            home.join(".claude/session-env").join(session)
        } else {
            std::env::temp_dir().join(format!(
                "hookrt-env-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ))
        };
        EnvFiles { dir, stem: event.to_lowercase(), files: Mutex::new(Vec::new()) }
    }

    /// A fresh empty file for the next hook, only this user can read; `None` (with a warning)
    /// when it cannot be created.
    pub(crate) fn next(&self) -> Option<PathBuf> {
        let mut files = match self.files.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        let path = self.dir.join(format!("{}-hook-{}.sh", self.stem, files.len()));
        let created = std::fs::create_dir_all(&self.dir).and_then(|_| {
            let mut o = std::fs::OpenOptions::new();
            o.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
            o.open(&path)
        });
        match created {
            Ok(_) => {
                files.push(path.clone());
                Some(path)
            }
            Err(e) => {
                tracing::warn!("cannot create CLAUDE_ENV_FILE {}: {e}", path.display());
                None
            }
        }
    }

    /// The variables the hooks exported, file by file; `None` when they wrote none.
    pub(crate) fn take_exports(&self) -> Option<BTreeMap<String, String>> {
        use std::io::Read;
        let files = match self.files.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        };
        let mut vars = BTreeMap::new();
        for p in files {
            let mut text = String::new();
            let Ok(f) = std::fs::File::open(&p) else { continue };
            if f.take(MAX_BYTES).read_to_string(&mut text).is_ok() {
                vars.extend(parse(&text));
            }
        }
        (!vars.is_empty()).then_some(vars)
    }
}

impl Drop for EnvFiles {
    fn drop(&mut self) {
        let files = match self.files.get_mut() {
            Ok(g) => std::mem::take(g),
            Err(p) => std::mem::take(p.into_inner()),
        };
        for p in files {
            let _ = std::fs::remove_file(p);
        }
        // The folder goes too when nothing else is in it.
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Reads `export K=V` (and plain `K=V`) lines with shell quoting, later lines winning; other
/// lines (comments, commands) are skipped, never run.
pub(crate) fn parse(text: &str) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        let rest = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let Some(words) = shlex::split(rest) else { continue };
        // Only a line of assignments counts; it ends at the first word that is not one.
        for w in words {
            let Some((k, v)) = w.split_once('=') else { break };
            let valid = !k.is_empty()
                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !k.starts_with(|c: char| c.is_ascii_digit());
            if !valid {
                break;
            }
            vars.insert(k.to_owned(), v.to_owned());
        }
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_with_quotes_and_noise() {
        let v = parse(
            "export A=1\n# comment\nexport B=\"two words\"\nC='x y' D=z\necho not=run; rm -rf /\nexport 9X=no\nexport A=3\n",
        );
        let got: Vec<_> = v.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(got, ["A=3", "B=two words", "C=x y", "D=z"]);
    }

    #[test]
    fn files_are_per_hook_in_claudes_layout_and_removed() {
        let home = tempfile::tempdir().unwrap();
        let f = EnvFiles::new(home.path(), "s-1", "SessionStart");
        let (a, b) = (f.next().unwrap(), f.next().unwrap());
        assert_eq!(a, home.path().join(".claude/session-env/s-1/sessionstart-hook-0.sh"));
        assert_eq!(b.file_name().unwrap(), "sessionstart-hook-1.sh");
        std::fs::write(&a, "export K=V\n").unwrap();
        std::fs::write(&b, "export L=W\n").unwrap();
        let got = f.take_exports().unwrap();
        assert_eq!((got["K"].as_str(), got["L"].as_str()), ("V", "W"));
        drop(f);
        assert!(!a.exists() && !b.exists());
        assert!(!EnvFiles::new(home.path(), "../x", "Setup").dir.starts_with(home.path()));
    }
}
