//! `CLAUDE_ENV_FILE`: for SessionStart, Setup, CwdChanged and FileChanged hooks, a file the
//! hooks append `export K=V` lines to. Claude Code sources it before later Bash commands;
//! hookrt reads the assignments without running anything and returns them as `outcome.env`.
//! The file is removed when the dispatch ends.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of the file read at most (a hook cannot make hookrt hold more).
const MAX_BYTES: u64 = 1024 * 1024;

/// A per-dispatch environment file, removed on drop.
#[derive(Debug)]
pub(crate) struct EnvFile {
    pub path: PathBuf,
}

impl EnvFile {
    /// Creates an empty file only this user can read; `None` (with a warning) when the
    /// temporary directory is not writable.
    pub(crate) fn create() -> Option<EnvFile> {
        static N: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "hookrt-env-{}-{}.sh",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        match o.open(&path) {
            Ok(_) => Some(EnvFile { path }),
            Err(e) => {
                tracing::warn!("cannot create CLAUDE_ENV_FILE {}: {e}", path.display());
                None
            }
        }
    }

    /// The variables the hooks exported; `None` when they wrote none.
    pub(crate) fn take_exports(&self) -> Option<BTreeMap<String, String>> {
        use std::io::Read;
        let mut text = String::new();
        let f = std::fs::File::open(&self.path).ok()?;
        f.take(MAX_BYTES).read_to_string(&mut text).ok()?;
        let vars = parse(&text);
        (!vars.is_empty()).then_some(vars)
    }
}

impl Drop for EnvFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
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
    fn file_is_created_private_and_removed() {
        let f = EnvFile::create().unwrap();
        let p = f.path.clone();
        std::fs::write(&p, "export K=V\n").unwrap();
        assert_eq!(f.take_exports().unwrap().get("K").map(String::as_str), Some("V"));
        drop(f);
        assert!(!p.exists());
    }
}
