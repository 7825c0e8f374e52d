//! What an approval is about: the script a hook's command runs, and its SHA-256.
//!
//! A repository changes a hook by editing its script (`./hooks/guard.py`), not the interpreter
//! that runs it (`/usr/bin/python3`): hashing the interpreter binds the approval to the wrong
//! file and costs a 100 MB read per hook. So the script is the first argument naming an
//! existing file after an interpreter, a runner (`uv run`, `npx`) or any system binary, or the
//! command itself when it is a file of its own. Hashes are computed only when asked for and
//! cached by (device, inode, size, modification time), so a reload or another runtime in the
//! process reads an unchanged script once.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Programs that run another file named among their arguments; the file is what a hook is.
const INTERPRETERS: &[&str] = &[
    "node",
    "nodejs",
    "deno",
    "bun",
    "tsx",
    "ts-node",
    "npx",
    "pnpm",
    "yarn",
    "npm",
    "python",
    "python3",
    "python2",
    "pypy",
    "pypy3",
    "uv",
    "uvx",
    "pipx",
    "poetry",
    "pdm",
    "hatch",
    "conda",
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "ruby",
    "perl",
    "php",
    "lua",
    "luajit",
    "rscript",
    "java",
    "pwsh",
    "powershell",
    "osascript",
    "env",
    "sudo",
    "nice",
    "nohup",
    "timeout",
    "time",
    "exec",
    "command",
    "xargs",
];

/// Directories holding system binaries and installed interpreters, never a hook's own script.
const SYSTEM_DIRS: &[&str] =
    &["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/homebrew/", "/nix/store/", "/snap/", "/etc/alternatives/"];

/// Scripts larger than this are still hashed (once per change, then cached), with a warning.
const LARGE_SCRIPT: u64 = 4 << 20;

/// Cached hashes at most; the cache starts over when full.
const CACHE_ENTRIES: usize = 4096;

/// `python3.12` → `python3`, `node20` → `node`: the interpreter family of a program name.
fn family(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let lower = lower.strip_suffix(".exe").unwrap_or(&lower);
    let trimmed = lower.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    match trimmed {
        "python" if lower.starts_with("python3") => "python3".into(),
        "" => lower.to_owned(),
        t => t.to_owned(),
    }
}

fn is_interpreter(program: &str) -> bool {
    let name = Path::new(program).file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    INTERPRETERS.contains(&family(&name).as_str())
}

fn is_system(path: &Path) -> bool {
    let s = path.to_string_lossy();
    SYSTEM_DIRS.iter().any(|d| s.starts_with(d))
}

/// A word as a path: absolute, `~/`, or relative to `cwd`.
fn resolve(word: &str, cwd: &Path) -> PathBuf {
    if let Some(rest) = word.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return Path::new(&home).join(rest);
        }
    }
    if Path::new(word).is_absolute() {
        PathBuf::from(word)
    } else {
        cwd.join(word)
    }
}

/// The script a command line runs, resolved from `cwd`: after leading `VAR=value` words, the
/// program itself when it is a file outside the system directories and not an interpreter,
/// else the first later argument naming an existing file. `None` for inline commands
/// (`echo hi`, `bash -c '…'`).
pub fn script_of(argv: &[String], cwd: &Path) -> Option<PathBuf> {
    let mut words = argv.iter().skip_while(|w| is_assignment(w));
    let program = words.next()?;
    let own = program.contains('/') && !is_interpreter(program) && {
        let p = resolve(program, cwd);
        !is_system(&p) && p.is_file()
    };
    if own {
        return Some(resolve(program, cwd));
    }
    words
        .filter(|w| !w.starts_with('-') && !is_assignment(w) && (w.contains('/') || w.contains('.')))
        .map(|w| resolve(w, cwd))
        .find(|p| !is_system(p) && p.is_file())
}

/// The words of a command with the variables its shell would expand (`$CLAUDE_PROJECT_DIR`,
/// `${GEMINI_PROJECT_DIR}`, a leading `~/`) replaced by their values, so the script a command
/// names through them is found; unknown variables are left as written.
pub(crate) fn expand_words(argv: &[String], vars: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    argv.iter().map(|w| expand(w, vars)).collect()
}

fn expand(word: &str, vars: &dyn Fn(&str) -> Option<String>) -> String {
    let word = match (word.strip_prefix("~/"), vars("HOME")) {
        (Some(rest), Some(home)) => format!("{home}/{rest}"),
        _ => word.to_owned(),
    };
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(word.len());
    let mut rest = word.as_str();
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (name, len) = match after.strip_prefix('{') {
            Some(b) => match b.find('}') {
                Some(end) => (&b[..end], end + 2),
                None => ("", 0),
            },
            None => {
                let end = after.find(|c: char| !name_char(c)).unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        match vars(name).filter(|_| !name.is_empty() && name.chars().all(name_char)) {
            Some(v) => out.push_str(&v),
            None => out.push_str(&rest[i..i + 1 + len]),
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty()
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// What identifies one version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
}

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.len(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        }
    }
    #[cfg(not(unix))]
    {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128);
        Stamp { dev: 0, ino: 0, size: meta.len(), mtime_ns }
    }
}

type Cache = Mutex<HashMap<PathBuf, (Stamp, String)>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// The SHA-256 (hex) of a file, read once per (device, inode, size, mtime) and streamed in
/// fixed-size blocks, so neither a reload nor a large script costs more than one read.
pub fn hash_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    let now = stamp(&meta);
    if let Ok(c) = cache().lock() {
        if let Some((s, h)) = c.get(path) {
            if *s == now {
                return Some(h.clone());
            }
        }
    }
    if meta.len() > LARGE_SCRIPT {
        tracing::warn!(
            script = %path.display(),
            bytes = meta.len(),
            "hook script is over 4 MiB; hashing it for its approval (once per change)"
        );
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    let hash = hex::encode(hasher.finalize());
    if let Ok(mut c) = cache().lock() {
        if c.len() >= CACHE_ENTRIES {
            c.clear();
        }
        c.insert(path.to_path_buf(), (now, hash.clone()));
    }
    Some(hash)
}

/// The script a command runs and its SHA-256 (see [`script_of`]).
pub fn script_hash(argv: &[String], cwd: &Path) -> Option<(PathBuf, String)> {
    let script = script_of(argv, cwd)?;
    let hash = hash_file(&script)?;
    Some((script, hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shlex::split(s).unwrap_or_default()
    }

    #[test]
    fn the_script_not_the_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("hooks")).unwrap();
        std::fs::write(d.join("hooks/g.py"), "print(1)").unwrap();
        std::fs::write(d.join("run.sh"), "true").unwrap();
        let g = Some(d.join("hooks/g.py"));
        assert_eq!(script_of(&words("/usr/bin/python3 hooks/g.py"), d), g);
        assert_eq!(script_of(&words("python3.12 -u ./hooks/g.py --flag"), d), g);
        assert_eq!(script_of(&words("uv run hooks/g.py"), d), g);
        assert_eq!(script_of(&words("FOO=1 env BAR=2 python hooks/g.py"), d), g);
        assert_eq!(script_of(&words("/bin/bash run.sh"), d), Some(d.join("run.sh")));
        assert_eq!(script_of(&words("./run.sh arg"), d), Some(d.join("run.sh")));
        assert_eq!(script_of(&words("bash -c 'echo hi'"), d), None);
        assert_eq!(script_of(&words("echo hi"), d), None);
        assert_eq!(script_of(&words("/usr/bin/env"), d), None);
    }

    #[test]
    fn variables_and_home_are_expanded_before_the_script_is_looked_for() {
        let vars = |k: &str| match k {
            "CLAUDE_PROJECT_DIR" => Some("/p".to_owned()),
            "HOME" => Some("/h".to_owned()),
            _ => None,
        };
        let w = expand_words(
            &words("uv run $CLAUDE_PROJECT_DIR/.claude/hooks/x.py ${CLAUDE_PROJECT_DIR}/y ~/z $NOPE/a $ ${"),
            &vars,
        );
        assert_eq!(w, ["uv", "run", "/p/.claude/hooks/x.py", "/p/y", "/h/z", "$NOPE/a", "$", "${"]);
    }

    #[test]
    fn the_cache_follows_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("h.sh");
        std::fs::write(&p, "one").unwrap();
        let a = hash_file(&p).unwrap();
        assert_eq!(hash_file(&p).unwrap(), a);
        std::fs::write(&p, "two!").unwrap();
        let b = hash_file(&p).unwrap();
        assert_ne!(a, b);
        assert_eq!(b, hex::encode(Sha256::digest(b"two!")));
    }
}
