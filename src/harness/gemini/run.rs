//! How Gemini CLI 0.61.0 runs a command hook (docs/harnesses/gemini.md "Running"): `bash -c`
//! with its variables substituted into the command string first, shell-quoted; five variables
//! in the environment; output read the same on every exit code — JSON wins, plain text is a
//! message on exit 0, a warning on exit 1 and a deny on any other code.

use crate::harness::{answer_for, EnvCtx, Harness};
use crate::vocab::{CanonicalEvent, Decision, RunOutcome};
use serde_json::Value;
use std::path::Path;

/// The variables Gemini substitutes into a command string, longest first so that none is read
/// as the prefix of another.
const SUBSTITUTED: &[&str] =
    &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR", "GEMINI_CWD"];

/// The variables a Gemini hook gets: the project folder is the dispatch's `cwd` under all three
/// names, as Gemini sets them.
pub(crate) fn env(e: &EnvCtx) -> Vec<(String, String)> {
    let plans = e.home.join(".gemini/tmp").join(project_id(e.home, e.cwd)).join(e.session_id).join("plans");
    vec![
        ("GEMINI_PROJECT_DIR".into(), e.cwd.to_owned()),
        ("GEMINI_PLANS_DIR".into(), plans.display().to_string()),
        ("GEMINI_CWD".into(), e.cwd.to_owned()),
        ("GEMINI_SESSION_ID".into(), e.session_id.to_owned()),
        ("CLAUDE_PROJECT_DIR".into(), e.cwd.to_owned()),
    ]
}

/// Gemini's short name for a project: its entry in `~/.gemini/projects.json`, else the folder's
/// name made into a slug (lower case, runs of other characters one `-`).
fn project_id(home: &Path, project_dir: &str) -> String {
    let registered = std::fs::read_to_string(home.join(".gemini/projects.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("projects")?.get(project_dir)?.as_str().map(str::to_owned));
    registered.unwrap_or_else(|| {
        let name = Path::new(project_dir).file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let mut slug = String::new();
        for c in name.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c);
            } else if !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let slug = slug.trim_matches('-');
        if slug.is_empty() {
            "project".to_owned()
        } else {
            slug.to_owned()
        }
    })
}

/// `$GEMINI_PROJECT_DIR` and the others, replaced in the command string by Gemini's own values
/// (`env` is the harness's variables, not the hook's), shell-quoted, before bash sees it — so a
/// path with a space stays one word.
pub(crate) fn expand(command: &str, env: &[(String, String)]) -> String {
    let value = |name: &str| env.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let mut out = String::with_capacity(command.len());
    let mut rest = command;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match SUBSTITUTED.iter().find(|n| after.starts_with(**n)).and_then(|n| Some((*n, value(n)?))) {
            Some((name, v)) => {
                out.push_str(&quote(v));
                rest = &after[name.len()..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `shell-quote` package's quoting, which Gemini uses: `''` for nothing, single quotes when
/// the word has spaces, quotes or backslashes but no single quote, double quotes when it has a
/// single quote, otherwise a backslash before each special character.
pub(crate) fn quote(s: &str) -> String {
    if s.is_empty() {
        return "''".to_owned();
    }
    let has = |f: fn(char) -> bool| s.chars().any(f);
    if has(|c| c == '"' || c.is_whitespace() || c == '\\') && !s.contains('\'') {
        return format!("'{s}'");
    }
    if has(|c| c == '"' || c == '\'' || c.is_whitespace()) {
        let mut o = String::from("\"");
        for c in s.chars() {
            if matches!(c, '"' | '\\' | '$' | '`' | '!') {
                o.push('\\');
            }
            o.push(c);
        }
        o.push('"');
        return o;
    }
    let mut o = String::new();
    for c in s.chars() {
        if "#!\"$&'()*,:;<=>?@[\\]^`{|}".contains(c) {
            o.push('\\');
        }
        o.push(c);
    }
    o
}

/// Gemini reads `stdout` (or, when that is empty, `stderr`) the same whatever the exit code: a
/// JSON object is the answer; plain text is a message (exit 0, or death by a signal), a
/// `Warning:` message (exit 1) or the reason of a deny (any other code).
pub(crate) fn read_run(
    h: &dyn Harness,
    code: Option<i32>,
    event: CanonicalEvent,
    stdout: &str,
    stderr: &str,
    out: &mut RunOutcome,
) -> bool {
    let text = if stdout.is_empty() { stderr } else { stdout };
    if text.is_empty() {
        return true;
    }
    if let Some(obj) = crate::harness::object_answer(text) {
        out.answered = true;
        h.read_answer(&answer_for(&obj, event), event, out);
        return true;
    }
    match code.unwrap_or(0) {
        0 => {
            out.decision = Some(Decision::Allow);
            out.messages.push(text.to_owned());
        }
        1 => {
            out.decision = Some(Decision::Allow);
            out.messages.push(format!("Warning: {text}"));
        }
        _ => {
            out.decision = Some(Decision::Deny);
            out.reason = Some(text.to_owned());
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_shell_quote() {
        assert_eq!(quote(""), "''");
        assert_eq!(quote("/home/me/proj"), "/home/me/proj");
        assert_eq!(quote("/home/me/my proj"), "'/home/me/my proj'");
        assert_eq!(quote("it's here"), "\"it's here\"");
        assert_eq!(quote("a&b"), "a\\&b");
    }

    #[test]
    fn variables_are_substituted_quoted_and_others_left_alone() {
        let env = vec![
            ("GEMINI_PROJECT_DIR".to_owned(), "/p/my proj".to_owned()),
            ("GEMINI_CWD".to_owned(), "/c".to_owned()),
        ];
        assert_eq!(
            expand("cd $GEMINI_PROJECT_DIR && ls $GEMINI_CWD/x $HOME", &env),
            "cd '/p/my proj' && ls /c/x $HOME"
        );
        assert_eq!(expand("echo ${GEMINI_CWD}", &env), "echo ${GEMINI_CWD}");
    }

    #[test]
    fn project_ids_are_slugs_of_the_folder_name() {
        let home = std::env::temp_dir().join("hookrt-no-such-home");
        assert_eq!(project_id(&home, "/x/My Project!"), "my-project");
        assert_eq!(project_id(&home, "/x/proj"), "proj");
        assert_eq!(project_id(&home, "/"), "project");
    }
}
