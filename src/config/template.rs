//! The one `$NAME` / `${NAME}` expander: runtime variables substituted into commands at load
//! ([`Substitutions`]), webhook header values from the environment, `mcp_tool` inputs from the
//! hook's payload, and the command-string variables some harnesses fill in before the shell runs.

/// Replaces `${name}` (and, with `bare`, `$NAME` where NAME is an upper-case identifier) by what
/// `lookup` returns; a name it does not know (`None`), an unclosed `${` and a lone `$` stay as
/// written.
pub(crate) fn expand(s: &str, bare: bool, mut lookup: impl FnMut(&str) -> Option<String>) -> String {
    if !s.contains('$') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (name, used) = match after.strip_prefix('{') {
            Some(braced) => match braced.find('}') {
                Some(end) => (Some(&braced[..end]), end + 2),
                None => (None, 0),
            },
            None if bare => {
                let n = upper_name_len(after);
                ((n > 0).then(|| &after[..n]), n)
            }
            None => (None, 0),
        };
        match name.and_then(&mut lookup) {
            Some(v) => {
                out.push_str(&v);
                rest = &after[used..];
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

/// Length of the upper-case identifier (`[A-Z_][A-Z0-9_]*`) at the start of `s`.
fn upper_name_len(s: &str) -> usize {
    let b = s.as_bytes();
    if !b.first().is_some_and(|c| c.is_ascii_uppercase() || *c == b'_') {
        return 0;
    }
    b.iter().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b'_').count()
}

/// Whether a name is an upper-case identifier, the only names environment expansions read.
pub(crate) fn is_upper_name(name: &str) -> bool {
    !name.is_empty() && upper_name_len(name) == name.len()
}

/// Runtime values substituted into commands at load (`${CLAUDE_PROJECT_DIR}` and friends).
#[derive(Debug, Clone, Default)]
pub struct Substitutions {
    pub vars: Vec<(String, String)>,
}

impl Substitutions {
    /// Replaces every `${NAME}` that has a value; unknown tokens stay.
    pub fn apply(&self, s: &str) -> String {
        if self.vars.is_empty() {
            return s.to_owned();
        }
        expand(s, false, |n| self.vars.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_keeps_unknown_tokens() {
        let s = Substitutions { vars: vec![("CLAUDE_PROJECT_DIR".into(), "/p".into())] };
        assert_eq!(s.apply("${CLAUDE_PROJECT_DIR}/x ${OTHER} $HOME ${"), "/p/x ${OTHER} $HOME ${");
        assert_eq!(Substitutions::default().apply("${CLAUDE_PROJECT_DIR}"), "${CLAUDE_PROJECT_DIR}");
    }

    #[test]
    fn bare_names_are_upper_case_identifiers() {
        let look = |n: &str| is_upper_name(n).then(|| (n == "TOKEN").then(|| "t0k".to_string())).flatten();
        assert_eq!(
            expand("Bearer $TOKEN / ${TOKEN} / $lower / $MISSING / ${TOKEN", true, look),
            "Bearer t0k / t0k / $lower / $MISSING / ${TOKEN"
        );
        assert_eq!(expand("$TOKENS $TOKEN_", true, look), "$TOKENS $TOKEN_");
    }
}
