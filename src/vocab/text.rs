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

/// The time of a dispatch, taken when a hook's stdin first writes it (most harnesses' stdins
/// carry none, and formatting it every dispatch cost more than the rest of a callback's
/// input): its `toISOString()` text and the same instant in epoch milliseconds.
#[derive(Debug, Default)]
pub(crate) struct Stamp(std::sync::OnceLock<(String, i64)>);

impl Stamp {
    /// A stamp already taken (tests, replays).
    #[cfg(test)]
    pub(crate) fn fixed(iso: &str, ms: i64) -> Self {
        Stamp(std::sync::OnceLock::from((iso.to_owned(), ms)))
    }

    fn taken(&self) -> &(String, i64) {
        self.0.get_or_init(|| {
            let now = time::OffsetDateTime::now_utc();
            (iso(now), (now.unix_timestamp_nanos() / 1_000_000) as i64)
        })
    }

    /// As [`iso`] writes it.
    pub(crate) fn iso(&self) -> &str {
        &self.taken().0
    }

    /// Milliseconds since the Unix epoch (Copilot's `timestamp`).
    pub(crate) fn ms(&self) -> i64 {
        self.taken().1
    }
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
    fn a_stamp_is_taken_once_and_its_two_forms_are_one_instant() {
        let stamp = Stamp::default();
        let (first, ms) = (stamp.iso().to_owned(), stamp.ms());
        std::thread::sleep(std::time::Duration::from_millis(3));
        assert_eq!(stamp.iso(), first, "read again, the same time");
        let at_ms = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap();
        assert_eq!(iso(at_ms), first, "the milliseconds are the text's instant");
        assert_eq!(first.len(), 24);
        let fixed = Stamp::fixed("T", 1);
        assert_eq!((fixed.iso(), fixed.ms()), ("T", 1));
    }

    #[test]
    fn did_you_mean_finds_typos() {
        let known = ["pre_tool_call", "on_session_end"];
        assert_eq!(closest("pre_tool_cal", &known).as_deref(), Some("pre_tool_call"));
        assert_eq!(did_you_mean("on_sesion_end", &known), "; did you mean \"on_session_end\"?");
        assert_eq!(closest("completely_else_entirely", &known), None);
    }
}
