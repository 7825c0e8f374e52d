//! Small text helpers every layer's messages use: quoting names, did-you-mean hints, the
//! shortest way to write a timeout, and JavaScript's ISO timestamps.

use std::num::NonZeroU8;
use time::format_description::well_known::iso8601::{Config, EncodedConfig, Iso8601, TimePrecision};

/// JSON-style quoting for names in messages (`"Foo"`).
pub(crate) fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// The closest known name, when it is close enough to be a typo.
pub(crate) fn closest(name: &str, known: &[&str]) -> Option<String> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(name, k), *k))
        .filter(|(d, k)| *d <= 3.max(k.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.to_owned())
}

/// `; did you mean "X"?` when a known name is close to the unknown one, else nothing.
pub(crate) fn did_you_mean(name: &str, known: &[&str]) -> String {
    closest(name, known).map(|k| format!("; did you mean {}?", quote(&k))).unwrap_or_default()
}

/// The first `n` characters of a text, for error messages.
pub(crate) fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A path as text: its UTF-8 as is (no formatting machinery on the dispatch path), else
/// `Path::display`'s lossy form.
pub(crate) fn path_text(p: &std::path::Path) -> String {
    p.to_str().map_or_else(|| p.display().to_string(), str::to_owned)
}

/// Writes a timeout in seconds as the shortest decimal (`0.4`, `1`, `2.5`).
pub(crate) fn secs_label(t: f64) -> String {
    format!("{t}")
}

const MILLIS: EncodedConfig =
    Config::DEFAULT.set_time_precision(TimePrecision::Second { decimal_digits: NonZeroU8::new(3) }).encode();

/// A time as JavaScript's `toISOString()` writes it (`2026-11-29T20:00:00.123Z`).
pub(crate) fn iso(t: time::OffsetDateTime) -> String {
    t.to_offset(time::UtcOffset::UTC).format(&Iso8601::<MILLIS>).unwrap_or_default()
}

/// The current time as [`iso`] writes it.
pub(crate) fn iso_now() -> String {
    iso(time::OffsetDateTime::now_utc())
}

/// Milliseconds since the Unix epoch (Copilot's `timestamp`).
pub(crate) fn epoch_ms_now() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Whether an environment variable name looks like it holds a secret (`stripSecrets`, and what
/// `hookrt serve` never hands a hook from its own environment).
pub(crate) fn is_secret_name(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    ["KEY", "PASSWORD", "SECRET", "TOKEN"].iter().any(|w| up.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_time_shape() {
        let t = time::OffsetDateTime::from_unix_timestamp_nanos(1_764_446_400_123_456_789).unwrap();
        assert_eq!(iso(t), "2025-11-29T20:00:00.123Z");
        assert_eq!(iso_now().len(), 24);
    }

    #[test]
    fn did_you_mean_finds_typos() {
        let known = ["pre_tool_call", "on_session_end"];
        assert_eq!(closest("pre_tool_cal", &known).as_deref(), Some("pre_tool_call"));
        assert_eq!(did_you_mean("on_sesion_end", &known), "; did you mean \"on_session_end\"?");
        assert_eq!(closest("completely_else_entirely", &known), None);
    }
}
