//! Where Cline finds its hook files and how it runs one (`listHookConfigFiles`,
//! `inferHookCommand` in `@cline/core`).

use crate::config::candidate::sorted_dir;
use crate::config::{Candidate, Roots};
use crate::vocab::{Dialect, Scope};
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// The extensions a hook file may have (none, a shell, Node, TypeScript, Python, PowerShell).
const EXTENSIONS: &[&str] = &["", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "mts", "cts", "py", "ps1"];

/// Every name Cline recognises, `PreCompact` included (listed, never run).
const NAMES: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "TaskError",
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "PreCompact",
    "SessionShutdown",
];

/// The folders, user ones first: `~/Documents/Cline/Hooks`, `~/.cline/hooks`, then the
/// project's `.clinerules/hooks` and `.cline/hooks`.
fn folders(r: Roots) -> [(PathBuf, Scope); 4] {
    [
        (r.home.join("Documents/Cline/Hooks"), Scope::Global),
        (r.home.join(".cline/hooks"), Scope::Global),
        (r.cwd.join(".clinerules/hooks"), Scope::Project),
        (r.cwd.join(".cline/hooks"), Scope::Project),
    ]
}

/// The hook files of every folder, sorted by path as Cline sorts them.
pub(super) fn files(r: Roots) -> Vec<Candidate> {
    let mut v: Vec<Candidate> = folders(r)
        .into_iter()
        .flat_map(|(dir, scope)| {
            sorted_dir(&dir)
                .into_iter()
                .filter(|p| p.is_file() && event_of(p).is_some())
                .map(move |p| Candidate::of(p, Dialect::Cline, scope))
        })
        .collect();
    v.sort_by(|a, b| a.path.cmp(&b.path));
    v.dedup_by(|a, b| a.path == b.path);
    v
}

/// The event a file is named after (case-insensitive, one of the allowed extensions).
pub(super) fn event_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if !EXTENSIONS.contains(&ext.as_str()) {
        return None;
    }
    let stem = path.file_stem()?.to_str()?.trim();
    NAMES.iter().copied().find(|n| n.eq_ignore_ascii_case(stem))
}

/// Whether the file sits in a folder named like one of Cline's (`hooks` under `.cline` or
/// `.clinerules`, or `Documents/Cline/Hooks`).
pub(super) fn in_hooks_dir(path: &Path) -> bool {
    let (_, parent, grand) = crate::config::candidate::path_parts(path);
    (parent == "hooks" && matches!(grand, ".cline" | ".clinerules")) || (parent == "Hooks" && grand == "Cline")
}

/// The program and arguments Cline runs a hook file with: its shebang (`env` skipped, a shell
/// or Python by name), else by extension, else `bash`.
pub(super) fn command(path: &Path) -> (String, Vec<String>) {
    let file = path.display().to_string();
    if let Some(mut words) = shebang(path) {
        let program = words.remove(0);
        let mut args = words;
        args.push(file);
        return (program, args);
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let (program, pre): (&str, &[&str]) = match ext.as_str() {
        "js" | "mjs" | "cjs" => ("node", &[]),
        "ts" | "mts" | "cts" => ("bun", &["run"]),
        "py" => ("python3", &[]),
        "ps1" => ("pwsh", &["-File"]),
        _ => ("bash", &[]),
    };
    let mut args: Vec<String> = pre.iter().map(|s| (*s).to_owned()).collect();
    args.push(file);
    (program.to_owned(), args)
}

/// The shebang's words, normalised as Cline does: `env` dropped, `bash`/`sh`/`zsh`/`python3`
/// looked up by name.
fn shebang(path: &Path) -> Option<Vec<String>> {
    use std::io::BufRead;
    let f = std::fs::File::open(path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(f).take(4096).read_line(&mut line).ok()?;
    let rest = line.trim().strip_prefix("#!")?.trim();
    let mut words: Vec<String> = rest.split_whitespace().map(str::to_owned).collect();
    loop {
        let name = words.first()?.rsplit(['/', '\\']).next()?.to_ascii_lowercase();
        match name.as_str() {
            "env" => {
                words.remove(0);
            }
            "bash" | "sh" | "zsh" | "python3" | "python" => {
                words[0] = name;
                return Some(words);
            }
            _ => return Some(words),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_named_after_its_event_and_run_by_its_shebang_or_extension() {
        assert_eq!(event_of(Path::new("/p/.clinerules/hooks/pretooluse")), Some("PreToolUse"));
        assert_eq!(event_of(Path::new("/p/.clinerules/hooks/TaskStart.py")), Some("TaskStart"));
        assert_eq!(event_of(Path::new("/p/.clinerules/hooks/TaskStart.txt")), None);
        assert_eq!(event_of(Path::new("/p/.clinerules/hooks/README.md")), None);
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("PreToolUse");
        std::fs::write(&f, "#!/usr/bin/env python3 -u\nprint()\n").unwrap();
        let file = f.display().to_string();
        assert_eq!(command(&f), ("python3".into(), vec!["-u".into(), file.clone()]));
        std::fs::write(&f, "echo hi\n").unwrap();
        assert_eq!(command(&f), ("bash".into(), vec![file]));
        let js = dir.path().join("PostToolUse.mjs");
        std::fs::write(&js, "").unwrap();
        assert_eq!(command(&js).0, "node");
    }
}
