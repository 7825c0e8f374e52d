//! The `listen` wire protocol (SPEC §11): one JSON request per line, one JSON response per
//! line, with the JavaScript implementation's error texts.

use crate::runtime::{DispatchRequest, DispatchResult, Runtime};
use serde::Serialize;
use serde_json::{Map, Value};

/// A decoded request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Ping,
    Dispatch(DispatchRequest),
    Reload,
    Bye,
}

/// A request line: its id (echoed in the response) and what it asks, or the error to answer.
#[derive(Debug, Clone)]
pub struct Envelope {
    pub id: Option<Value>,
    pub request: Result<Request, String>,
}

impl PartialEq for DispatchRequest {
    fn eq(&self, o: &Self) -> bool {
        self.event == o.event && self.payload == o.payload && self.subject == o.subject && self.cwd == o.cwd
    }
}

/// Decodes one line (already known not to be blank). Invalid UTF-8 is replaced, as the
/// JavaScript implementation's decoder does.
pub fn parse_line(line: &[u8]) -> Envelope {
    let text = String::from_utf8_lossy(line);
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return Envelope { id: None, request: Err("request is not valid JSON".into()) };
    };
    let Value::Object(mut obj) = value else {
        return Envelope { id: None, request: Err("unknown op undefined".into()) };
    };
    let id = obj.remove("id").filter(|v| !v.is_null());
    let request = match obj.get("op") {
        None => Err("unknown op undefined".into()),
        Some(Value::String(op)) => match op.as_str() {
            "ping" => Ok(Request::Ping),
            "reload" => Ok(Request::Reload),
            "bye" => Ok(Request::Bye),
            "dispatch" => parse_dispatch(obj),
            _ => Err(format!("unknown op {}", Value::String(op.clone()))),
        },
        Some(other) => Err(format!("unknown op {other}")),
    };
    Envelope { id, request }
}

fn parse_dispatch(mut obj: Map<String, Value>) -> Result<Request, String> {
    let event = match obj.remove("event") {
        Some(Value::String(e)) if !e.is_empty() => e,
        _ => return Err("dispatch requires an event name".into()),
    };
    Runtime::resolve_event(&event).map_err(|e| e.to_string())?;
    let payload = match obj.remove("payload") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(_) => return Err("dispatch payload must be a JSON object".into()),
    };
    let opt_string = |v: Option<Value>, field: &str| match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("dispatch {field} must be a string")),
    };
    let subject = opt_string(obj.remove("subject"), "subject")?;
    let cwd = opt_string(obj.remove("cwd"), "cwd")?;
    Ok(Request::Dispatch(DispatchRequest { event, payload, subject, cwd, progress: None }))
}

#[derive(Serialize)]
struct WithOk<'a, T: Serialize> {
    ok: bool,
    #[serde(flatten)]
    body: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a Value>,
}

fn line<T: Serialize>(body: &T, id: Option<&Value>) -> String {
    serde_json::to_string(&WithOk { ok: true, body, id })
        .unwrap_or_else(|e| error_line(&format!("cannot encode response: {e}"), id))
}

/// `{"ok":false,"error":…}`.
pub fn error_line(error: &str, id: Option<&Value>) -> String {
    let mut m = Map::new();
    m.insert("ok".into(), Value::Bool(false));
    m.insert("error".into(), Value::String(error.to_owned()));
    if let Some(id) = id {
        m.insert("id".into(), id.clone());
    }
    Value::Object(m).to_string()
}

pub fn pong_line(id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Pong {
        pong: bool,
    }
    line(&Pong { pong: true }, id)
}

pub fn bye_line(id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Empty {}
    line(&Empty {}, id)
}

pub fn reload_line(diags: &[crate::config::Diagnostic], id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Reloaded<'a> {
        diagnostics: &'a [crate::config::Diagnostic],
    }
    line(&Reloaded { diagnostics: diags }, id)
}

pub fn dispatch_line(r: &DispatchResult, id: Option<&Value>) -> String {
    line(r, id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(l: &str) -> String {
        parse_line(l.as_bytes()).request.unwrap_err()
    }

    #[test]
    fn error_texts_match_the_reference() {
        assert_eq!(err("{not json"), "request is not valid JSON");
        assert_eq!(err(r#"{"op":"nope"}"#), "unknown op \"nope\"");
        assert_eq!(err(r#"{"op":5}"#), "unknown op 5");
        assert_eq!(err("null"), "unknown op undefined");
        assert_eq!(err("[1]"), "unknown op undefined");
        assert_eq!(err(r#"{"id":1}"#), "unknown op undefined");
        assert_eq!(err(r#"{"op":"dispatch"}"#), "dispatch requires an event name");
        assert_eq!(err(r#"{"op":"dispatch","event":7}"#), "dispatch requires an event name");
        assert_eq!(err(r#"{"op":"dispatch","event":"Nope"}"#), "unknown event \"Nope\"");
        assert_eq!(err(r#"{"op":"dispatch","event":"Stop","payload":[1]}"#), "dispatch payload must be a JSON object");
    }

    #[test]
    fn empty_dispatch_lines_equal_serialised_results() {
        use crate::event::CanonicalEvent;
        let id = Value::from(7);
        for e in CanonicalEvent::ALL {
            assert_eq!(empty_dispatch_line(e, None), dispatch_line(&DispatchResult::empty(e), None));
            assert_eq!(empty_dispatch_line(e, Some(&id)), dispatch_line(&DispatchResult::empty(e), Some(&id)));
        }
    }

    #[test]
    fn quick_answers_equal_the_full_path() {
        use crate::event::CanonicalEvent;
        let lines = [
            r#"{"op":"ping"}"#,
            r#"{"op":"ping","id":"x\"y"}"#,
            r#"{"op":"ping","id":null}"#,
            r#"{"op":"dispatch","event":"PreToolUse","payload":{"tool_name":"Read","n":[1,{"a":2}]},"id":3}"#,
            r#"{"op":"dispatch","event":"tool:after","payload":null}"#,
            r#"{"op":"dispatch","event":"SessionEnd","payload":{"reason":"clear","source":"x"},"subject":"s"}"#,
        ];
        for l in lines {
            let q = quick_answer(l, |_, _| false).expect(l);
            let env = parse_line(l.as_bytes());
            let full = match env.request.unwrap() {
                Request::Ping => pong_line(env.id.as_ref()),
                Request::Dispatch(d) => {
                    let ev = crate::event::resolve_dispatch_name(&d.event).unwrap();
                    dispatch_line(&DispatchResult::empty(ev.canonical), env.id.as_ref())
                }
                other => panic!("{other:?}"),
            };
            assert_eq!(
                serde_json::from_str::<Value>(&q).unwrap(),
                serde_json::from_str::<Value>(&full).unwrap(),
                "{l}"
            );
        }
        // Subjects reach the matcher in the payload's key order of preference.
        let seen = std::cell::RefCell::new(Vec::new());
        let record = |ev: crate::event::DispatchEvent, s: Option<&str>| {
            seen.borrow_mut().push((ev.canonical, s.map(str::to_owned)));
            true
        };
        assert!(quick_answer(r#"{"op":"dispatch","event":"PreToolUse","payload":{"name":"N","tool":"T"}}"#, record)
            .is_none());
        assert!(quick_answer(
            r#"{"op":"dispatch","event":"SessionEnd","payload":{"source":"S","reason":"R"}}"#,
            record
        )
        .is_none());
        assert_eq!(
            *seen.borrow(),
            vec![(CanonicalEvent::ToolBefore, Some("T".into())), (CanonicalEvent::SessionEnd, Some("R".into()))]
        );
        // Anything unusual takes the full path.
        for l in [
            r#"{"op":5}"#,
            r#"{"op":"dispatch","event":"Nope"}"#,
            r#"{"op":"dispatch","event":"Stop","payload":[1]}"#,
            r#"{"op":"dispatch","event":"PreToolUse","payload":{"tool_name":5}}"#,
            r#"{"op":"reload"}"#,
            "[]",
        ] {
            assert!(quick_answer(l, |_, _| false).is_none(), "{l}");
        }
    }

    #[test]
    fn ids_are_kept_and_invalid_utf8_is_replaced() {
        let e = parse_line(br#"{"op":"ping","id":"r1"}"#);
        assert_eq!(e.id, Some(Value::String("r1".into())));
        assert_eq!(pong_line(e.id.as_ref()), r#"{"ok":true,"pong":true,"id":"r1"}"#);
        let e = parse_line(b"{\"op\":\"dispatch\",\"event\":\"Stop\",\"payload\":{\"x\":\"\xff\"}}");
        match e.request {
            Ok(Request::Dispatch(d)) => assert_eq!(d.payload["x"], "\u{fffd}"),
            other => panic!("{other:?}"),
        }
    }
}

/// The answer to a dispatch that ran nothing: the same bytes every time for an event, so they
/// are built once.
pub fn empty_dispatch_line(canonical: crate::event::CanonicalEvent, id: Option<&Value>) -> String {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let lines = LINES.get_or_init(|| {
        crate::event::CanonicalEvent::ALL.iter().map(|&e| dispatch_line(&DispatchResult::empty(e), None)).collect()
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
pub struct Quick<'a> {
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
/// first of the event's subject keys ([`crate::event::Subject`], the one source of truth)
/// holding a string.
struct SubjectSeed(crate::event::Subject);

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
pub fn raw_subject<'a>(
    payload: &'a str,
    subject: crate::event::Subject,
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
pub fn quick_answer(text: &str, runs: impl Fn(crate::event::DispatchEvent, Option<&str>) -> bool) -> Option<String> {
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
            let ev = crate::event::resolve_dispatch_name(q.event.as_deref().filter(|e| !e.is_empty())?)?;
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
