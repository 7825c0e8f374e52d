//! The `listen` fast path: pings and dispatches that match no hook are answered straight from
//! the line's bytes; anything unusual takes the full decoder in the parent module.

use crate::protocol::{dispatch_line, pong_line};
use crate::runtime::DispatchResult;
use serde_json::Value;

/// The answer to a dispatch that ran nothing: the same bytes every time for an event, so they
/// are built once.
pub(crate) fn empty_dispatch_line(canonical: crate::vocab::CanonicalEvent, id: Option<&Value>) -> String {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let lines = LINES.get_or_init(|| {
        crate::vocab::CanonicalEvent::ALL
            .iter()
            .map(|&e| dispatch_line(&DispatchResult::empty(e), None, crate::vocab::Fidelity::Contract))
            .collect()
    });
    let base = &lines[canonical as usize];
    match id {
        None => base.clone(),
        Some(id) => {
            let mut s = String::with_capacity(base.len() + 16);
            s.push_str(&base[..base.len() - 1]);
            s.push_str(",\"id\":");
            s.push_str(&id.to_string());
            s.push('}');
            s
        }
    }
}

/// A borrowed view of a request line, enough to answer pings and dispatches that match no
/// hook without building a JSON tree. Anything unusual (wrong types, duplicate keys) fails
/// here and goes through [`parse_line`], which has the exact error texts.
#[derive(serde::Deserialize)]
pub(crate) struct Quick<'a> {
    #[serde(borrow)]
    pub op: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    pub event: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    pub payload: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    pub subject: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    pub id: Option<&'a serde_json::value::RawValue>,
}

/// Finds an event's matcher subject in a payload's raw text without building a tree: the
/// first of the event's subject keys ([`crate::vocab::Subject`], the one source of truth)
/// holding a string.
struct SubjectSeed(crate::vocab::Subject);

impl<'de> serde::de::DeserializeSeed<'de> for SubjectSeed {
    type Value = Option<std::borrow::Cow<'de, str>>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for SubjectSeed {
    type Value = Option<std::borrow::Cow<'de, str>>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a payload object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum MaybeStr<'a> {
            Str(#[serde(borrow)] std::borrow::Cow<'a, str>),
            Other(serde::de::IgnoredAny),
        }
        let keys = self.0.keys;
        let mut best: Option<(usize, std::borrow::Cow<'de, str>)> = None;
        let mut seen = 0u64;
        while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match keys.iter().position(|w| *w == k) {
                Some(rank) => {
                    // A repeated subject key: let the full parser decide (its map keeps the last).
                    if seen & (1 << rank) != 0 {
                        return Err(serde::de::Error::custom("duplicate subject key"));
                    }
                    seen |= 1 << rank;
                    // A subject key that is not a string: unusual, the full parser decides.
                    let MaybeStr::Str(v) = map.next_value::<MaybeStr<'de>>()? else {
                        return Err(serde::de::Error::custom("subject key is not a string"));
                    };
                    if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                        best = Some((rank, v));
                    }
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(best.map(|(_, v)| v))
    }
}

/// The matcher subject of a raw payload object for an event.
pub(crate) fn raw_subject<'a>(
    payload: &'a str,
    subject: crate::vocab::Subject,
) -> Result<Option<std::borrow::Cow<'a, str>>, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(payload);
    SubjectSeed(subject).deserialize(&mut de)
}

/// Whether a line holds what the full decoder refuses but the fast path would skip unread
/// (both found by `cargo fuzz`): a `\uD800`-style escape, possibly a lone surrogate, or a number
/// with an exponent, possibly out of range (`2e22222`). One pass over the bytes.
fn needs_full_path(b: &[u8]) -> bool {
    b.windows(3).any(|w| match w {
        [b'\\', b'u', b'd' | b'D'] => true,
        [d, b'e' | b'E', n] => d.is_ascii_digit() && (n.is_ascii_digit() || matches!(n, b'+' | b'-')),
        _ => false,
    })
}

/// Answers a ping, or a dispatch for which `runs` says no hook runs, straight from the line.
/// `None`: take the full path.
pub fn quick_answer(text: &str, runs: impl Fn(crate::vocab::DispatchEvent, Option<&str>) -> bool) -> Option<String> {
    if needs_full_path(text.as_bytes()) {
        return None;
    }
    let q: Quick = serde_json::from_str(text).ok()?;
    let id_raw = q.id.map(|r| r.get()).filter(|r| *r != "null");
    let with_id = |mut base: String| {
        if let Some(id) = id_raw {
            base.pop();
            base.push_str(",\"id\":");
            base.push_str(id);
            base.push('}');
        }
        base
    };
    match q.op.as_ref() {
        "ping" => Some(with_id(pong_line(None))),
        "dispatch" => {
            let ev = crate::harness::resolve_dispatch_name(q.event.as_deref().filter(|e| !e.is_empty())?)?;
            let payload = q.payload.map(|r| r.get()).filter(|r| *r != "null");
            if payload.is_some_and(|p| !p.starts_with('{')) {
                return None;
            }
            let from_payload = match payload {
                Some(p) if ev.canonical.has_subject() => raw_subject(p, ev.canonical.subject()).ok()?,
                Some(p) => {
                    serde_json::from_str::<serde::de::IgnoredAny>(p).ok()?;
                    None
                }
                None => None,
            };
            let subject = match q.subject.as_deref() {
                Some(s) => Some(s),
                None => from_payload.as_deref().map(|v| ev.canonical.subject().of(v)),
            };
            if runs(ev, subject) {
                None
            } else {
                Some(with_id(empty_dispatch_line(ev.canonical, None)))
            }
        }
        _ => None,
    }
}
