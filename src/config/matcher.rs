//! Matchers select hooks by the event's subject (tool name, session source, agent type).

use crate::vocab::MatcherStyle;

/// A compiled matcher.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Absent, `""` or `"*"`: matches everything, including a missing subject.
    All,
    /// Exact, case-sensitive alternatives (`"Bash | Write"`).
    Literal(Vec<String>),
    /// Unanchored regular expression.
    Regex(regex::Regex),
    /// A regular expression that must match the whole subject; no subject never matches (Hermes).
    Full(regex::Regex),
}

/// Why a matcher string could not be compiled; its text is the diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid regex matcher {}", crate::vocab::text::quote(.0))]
pub struct InvalidRegex(pub String);

/// Largest compiled program we accept for a user regex; keeps a hostile pattern from
/// eating memory (the `regex` crate is linear-time, so matching itself is safe).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

impl Matcher {
    /// Whether the text is a match-all sentinel.
    pub fn is_match_all(pattern: &str) -> bool {
        pattern.is_empty() || pattern == "*"
    }

    /// Compiles a matcher string with the dialect's rule.
    pub fn compile(pattern: &str, style: MatcherStyle) -> Result<Matcher, InvalidRegex> {
        let written = pattern;
        if style == MatcherStyle::Full {
            return Ok(Self::full(pattern));
        }
        if Self::is_match_all(pattern) {
            return Ok(Matcher::All);
        }
        if style == MatcherStyle::LiteralOrRegex && is_literal_list(pattern) {
            let alts: Vec<String> =
                pattern.split(['|', ',']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
            return Ok(if alts.is_empty() { Matcher::All } else { Matcher::Literal(alts) });
        }
        let entries;
        let pattern = if style == MatcherStyle::EntryList {
            match entry_list(pattern) {
                Some(joined) if joined.is_empty() => return Ok(Matcher::Literal(Vec::new())),
                Some(joined) if joined == "*" => return Ok(Matcher::All),
                Some(joined) => {
                    entries = joined;
                    entries.as_str()
                }
                None => pattern.trim(),
            }
        } else {
            pattern
        };
        if style == MatcherStyle::EntryList && matches!(pattern, "" | "*" | ".*") {
            return Ok(Matcher::All);
        }
        if style == MatcherStyle::ExactOrRegex && is_exact_list(pattern) {
            return Ok(Matcher::Literal(pattern.split('|').map(str::to_owned).collect()));
        }
        let anchored;
        let pattern = if style == MatcherStyle::Anchored {
            anchored = format!("^(?:{pattern})$");
            anchored.as_str()
        } else {
            pattern
        };
        regex::RegexBuilder::new(pattern)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map(Matcher::Regex)
            .map_err(|_| InvalidRegex(written.to_owned()))
    }

    /// Hermes' matcher: never an error (an invalid regex compares as text).
    fn full(pattern: &str) -> Matcher {
        let p = pattern.trim();
        if p.is_empty() {
            return Matcher::All;
        }
        match regex::RegexBuilder::new(&format!("^(?:{p})$")).size_limit(REGEX_SIZE_LIMIT).build() {
            Ok(re) => Matcher::Full(re),
            Err(_) => {
                tracing::warn!(
                    "hermes matcher {} is not a valid regex; compared as text",
                    crate::vocab::text::quote(p)
                );
                Matcher::Literal(vec![p.to_owned()])
            }
        }
    }

    /// Whether a subject is selected. A missing subject is tested as `""` by a regex (as the
    /// JavaScript implementation does, so `".*"` guards still run when a host sends the tool
    /// name under another key) and never matches a literal list.
    pub fn matches(&self, subject: Option<&str>) -> bool {
        match (self, subject) {
            (Matcher::All, _) => true,
            (Matcher::Literal(_), None) => false,
            (Matcher::Regex(re), None) => re.is_match(""),
            (Matcher::Literal(alts), Some(s)) => alts.iter().any(|a| a == s),
            (Matcher::Regex(re), Some(s)) => re.is_match(s),
            (Matcher::Full(_), None) => false,
            (Matcher::Full(re), Some(s)) => re.is_match(s),
        }
    }

    /// The same matcher with literal alternatives compared without regard to case, for hosts
    /// (dsh) whose tool names are lower-case spellings of Claude's.
    pub fn matches_ignoring_case(&self, subject: Option<&str>) -> bool {
        match (self, subject) {
            (Matcher::Literal(alts), Some(s)) => alts.iter().any(|a| a.eq_ignore_ascii_case(s)),
            _ => self.matches(subject),
        }
    }
}

/// Compiles an optional matcher with a dialect's rule.
pub(crate) fn compile_matcher(text: Option<&str>, style: MatcherStyle) -> Result<Matcher, InvalidRegex> {
    match text {
        None => Ok(Matcher::All),
        Some(m) => Matcher::compile(m, style),
    }
}

/// Compiles a group's matcher, then drops it (`true` in the answer, for a warning) where the
/// event has no subject. Compiling comes first so that an invalid regex drops its group on
/// every event, as in the JavaScript implementation (docs/configuration.md "Matchers"), instead
/// of turning into a match-all on subjectless events such as Stop.
pub(crate) fn event_matcher(
    text: &mut Option<String>,
    uses_subject: bool,
    style: MatcherStyle,
) -> Result<(Matcher, bool), InvalidRegex> {
    let matcher = compile_matcher(text.as_deref(), style)?;
    if !uses_subject && text.as_deref().is_some_and(|m| !Matcher::is_match_all(m)) {
        *text = None;
        return Ok((Matcher::All, true));
    }
    Ok((matcher, false))
}

/// Claude Code's rule: only word characters, `-`, `|`, `,` and spaces make a literal list.
fn is_literal_list(p: &str) -> bool {
    p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '|' | ',' | ' '))
}

/// Qwen Code's list: `None` when the trimmed pattern is no list (no `|`, or it starts with `^`
/// or `(`); else its non-empty trimmed top-level entries joined by `|`, `"*"` when one of them
/// selects everything, `""` when none is left (which selects nothing).
fn entry_list(pattern: &str) -> Option<String> {
    let p = pattern.trim();
    if !p.contains('|') || p.starts_with('^') || p.starts_with('(') {
        return None;
    }
    let (mut entries, mut current) = (Vec::new(), String::new());
    let (mut escaped, mut in_class, mut depth) = (false, false, 0usize);
    for c in p.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if in_class {
            in_class = c != ']';
        } else if c == '[' {
            in_class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.saturating_sub(1);
        } else if c == '|' && depth == 0 {
            entries.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
    }
    entries.push(current);
    let entries: Vec<&str> = entries.iter().map(|e| e.trim()).filter(|e| !e.is_empty()).collect();
    if entries.iter().any(|e| matches!(*e, "*" | ".*")) {
        return Some("*".to_owned());
    }
    Some(entries.join("|"))
}

/// Codex's rule: only letters, digits, `_` and `|` make a list of exact names.
fn is_exact_list(p: &str) -> bool {
    p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use MatcherStyle::*;

    fn m(p: &str, s: MatcherStyle, subj: &str) -> bool {
        Matcher::compile(p, s).unwrap().matches(Some(subj))
    }

    /// Codex's own matcher tests (`codex-rs/hooks/src/events/common.rs`), ported.
    #[test]
    fn codex_exact_names_and_regexes() {
        let codex = |p: &str, subj: &str| m(p, ExactOrRegex, subj);
        // the `listen` contract keeps the JavaScript implementation's regex search
        let contract = ExactOrRegex.under(crate::vocab::Fidelity::Contract);
        assert!(m("Bash", contract, "BashOutput") && !codex("Bash", "BashOutput"));
        // matcher_star_matches_all_occurrences, matcher_empty_string_matches_all_occurrences
        assert!(codex("*", "Bash") && codex("", "SessionStart"));
        // exact_matcher_supports_pipe_alternatives
        assert!(codex("Edit|Write", "Edit") && codex("Edit|Write", "Write") && !codex("Edit|Write", "Bash"));
        // literal_matcher_uses_exact_matching
        assert!(codex("Bash", "Bash") && !codex("Bash", "BashOutput"));
        assert!(!codex("mcp__memory", "mcp__memory__create_entities"));
        // matcher_uses_regex_when_it_contains_regex_characters, mcp_matchers_support_regex_wildcards
        assert!(codex("^Bash", "BashOutput"));
        assert!(codex("mcp__.*__write.*", "mcp__filesystem__write_file"));
        assert!(!codex("mcp__.*__write.*", "mcp__filesystem__read_file"));
        // matcher_supports_anchored_regexes
        assert!(codex("^Bash$", "Bash") && !codex("^Bash$", "BashOutput"));
        // invalid_regex_is_rejected
        assert!(Matcher::compile("[", ExactOrRegex).is_err());
        // unlike Claude's lists, no trimming and no commas: `Edit, Write` is a regex
        assert!(!codex("Edit, Write", "Write") && m("Edit, Write", LiteralOrRegex, "Write"));
    }

    /// Qwen Code's own matcher tests (`packages/core/src/hooks/hook-matcher.test.ts`), as
    /// Qwen Code 0.24.4's bundle matches.
    #[test]
    fn qwen_lists_are_split_entry_by_entry() {
        let qwen = |p: &str, subj: &str| m(p, EntryList, subj);
        assert!(qwen("write_file|edit|", "edit") && qwen("write_file|edit|", "write_file"));
        assert!(!qwen("write_file|edit|", "run_shell_command"), "an empty entry selects nothing");
        assert!(qwen(" write_file | edit ", "edit"), "entries are trimmed");
        assert!(qwen(".*", "anything") && qwen("edit|*", "anything") && qwen("  ", "x"));
        assert!(!qwen("|", "edit") && !qwen(" | ", "edit"));
        // a group or a character class keeps its `|`; `^`/`(` at the start is a plain regex
        assert!(qwen("mcp__(a|b)__x|edit", "mcp__b__x") && qwen("[|]x|edit", "|x"));
        assert!(qwen("^(edit|write_file)$", "edit") && !qwen("^(edit|write_file)$", "edits"));
        // unanchored, as Qwen's RegExp test is
        assert!(qwen("run_shell", "run_shell_command"));
    }

    #[test]
    fn literal_lists_are_exact_and_trimmed() {
        assert!(m("Bash | Write", LiteralOrRegex, "Bash"));
        assert!(m("Bash | Write", LiteralOrRegex, "Write"));
        assert!(m("Edit, Write", LiteralOrRegex, "Write"));
        assert!(!m("Notebook", LiteralOrRegex, "NotebookEdit"));
        assert!(!m("bash", LiteralOrRegex, "Bash"));
        assert!(m("mcp__github__create_issue", LiteralOrRegex, "mcp__github__create_issue"));
    }

    #[test]
    fn regex_style_is_unanchored() {
        assert!(m("Wri", Regex, "Write"));
        assert!(m("Edit|Write", Regex, "MultiEdit"));
        assert!(!m("^Bash$", Regex, "BashOutput"));
        assert!(m("^mcp__.*__read", Regex, "mcp__fs__read_file"));
        assert!(m("Bash.*", LiteralOrRegex, "BashOutput"));
    }

    #[test]
    fn hermes_matchers_match_the_whole_trimmed_name() {
        assert!(m(" terminal ", Full, "terminal"));
        assert!(!m("term", Full, "terminal"));
        assert!(m("term.*", Full, "terminal"));
        assert!(!m("*", Full, "terminal"));
        assert!(m("*", Full, "*"));
        assert!(!Matcher::compile("terminal", Full).unwrap().matches(None));
        assert!(Matcher::compile("  ", Full).unwrap().matches(None));
    }

    #[test]
    fn sentinels_match_everything_even_without_subject() {
        for p in ["", "*"] {
            let mm = Matcher::compile(p, Regex).unwrap();
            assert!(mm.matches(None) && mm.matches(Some("x")));
        }
        assert!(!Matcher::compile("Bash", LiteralOrRegex).unwrap().matches(None));
    }

    #[test]
    fn regexes_test_a_missing_subject_as_empty() {
        assert!(Matcher::compile(".*", Regex).unwrap().matches(None));
        assert!(Matcher::compile("^(Bash)?$", Regex).unwrap().matches(None));
        assert!(!Matcher::compile("Bash", Regex).unwrap().matches(None));
        assert!(!Matcher::compile("Bash|Write", LiteralOrRegex).unwrap().matches(None));
    }

    #[test]
    fn invalid_regex_is_an_error_not_match_all() {
        assert_eq!(Matcher::compile("(", Regex).unwrap_err().to_string(), "invalid regex matcher \"(\"");
        assert!(Matcher::compile("(unclosed", LiteralOrRegex).is_err());
    }

    #[test]
    fn case_insensitive_literals_for_lowercase_hosts() {
        let mm = Matcher::compile("Edit|Write", LiteralOrRegex).unwrap();
        assert!(mm.matches_ignoring_case(Some("write")));
        assert!(!mm.matches(Some("write")));
    }
}
