//! A Hermes shell hook's command as Hermes turns it into a program and its arguments:
//! `os.path.expanduser` on the whole command, then `shlex.split` (no shell runs it).

/// `os.path.expanduser` on the whole command: only a leading `~` (or `~/…`) is the home folder.
pub(super) fn expand_home(s: &str, home: &std::path::Path) -> String {
    match s.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.display()),
        None if s == "~" => home.display().to_string(),
        None => s.to_owned(),
    }
}

/// Python's `shlex.split` (POSIX rules, no comments): a `#` is an ordinary character, so a word
/// such as `#tag` stays a word. The `shlex` crate always reads `#` as a comment, so `#` is hidden
/// from it behind a private-use character and put back after the split.
pub(super) fn split(command: &str) -> Option<Vec<String>> {
    const HIDDEN: char = '\u{F8FF}';
    if command.contains(HIDDEN) {
        return shlex::split(command);
    }
    let words = shlex::split(&command.replace('#', &HIDDEN.to_string()))?;
    Some(words.into_iter().map(|w| w.replace(HIDDEN, "#")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_python_shlex_and_expand_a_leading_tilde_only() {
        let home = std::path::Path::new("/h");
        assert_eq!(split("node rec.mjs #tag 'a b'").unwrap(), ["node", "rec.mjs", "#tag", "a b"]);
        assert_eq!(expand_home("~/bin/guard ~/x", home), "/h/bin/guard ~/x");
        assert_eq!(expand_home("guard ~/x", home), "guard ~/x");
        assert_eq!(split("a 'b").map(|_| ()), None);
    }
}
