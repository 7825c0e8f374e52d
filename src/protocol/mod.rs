//! The `listen` wire protocol (docs/listen-protocol.md): one JSON request per line, one JSON
//! response per line, with the JavaScript implementation's error texts. [`quick`] answers the
//! lines that run no hook without building a JSON tree.

pub(crate) mod quick;

use crate::runtime::{DispatchRequest, DispatchResult, Runtime};
use crate::vocab::Fidelity;
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

/// Why a request line is answered with `{"ok":false,"error":…}`; the texts are the
/// JavaScript implementation's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("request is not valid JSON")]
    NotJson,
    /// `op` missing or not a string: its JSON text, `undefined` when missing.
    #[error("unknown op {0}")]
    UnknownOp(String),
    #[error("dispatch requires an event name")]
    NoEvent,
    #[error("unknown event {}", crate::vocab::text::quote(.0))]
    UnknownEvent(String),
    #[error("dispatch payload must be a JSON object")]
    PayloadNotObject,
    #[error("dispatch {0} must be a string")]
    NotAString(&'static str),
    #[error("request is too large (over {0} bytes)")]
    TooLarge(usize),
}

/// A request line: its id (echoed in the response) and what it asks, or the error to answer.
#[derive(Debug, Clone)]
pub struct Envelope {
    pub id: Option<Value>,
    pub request: Result<Request, ProtocolError>,
}

/// Decodes one line (already known not to be blank). Invalid UTF-8 is replaced, as the
/// JavaScript implementation's decoder does.
pub fn parse_line(line: &[u8]) -> Envelope {
    let text = String::from_utf8_lossy(line);
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return Envelope { id: None, request: Err(ProtocolError::NotJson) };
    };
    let Value::Object(mut obj) = value else {
        return Envelope { id: None, request: Err(ProtocolError::UnknownOp("undefined".into())) };
    };
    let id = obj.remove("id").filter(|v| !v.is_null());
    let request = match obj.get("op") {
        None => Err(ProtocolError::UnknownOp("undefined".into())),
        Some(Value::String(op)) => match op.as_str() {
            "ping" => Ok(Request::Ping),
            "reload" => Ok(Request::Reload),
            "bye" => Ok(Request::Bye),
            "dispatch" => parse_dispatch(obj),
            _ => Err(ProtocolError::UnknownOp(Value::String(op.clone()).to_string())),
        },
        Some(other) => Err(ProtocolError::UnknownOp(other.to_string())),
    };
    Envelope { id, request }
}

fn parse_dispatch(mut obj: Map<String, Value>) -> Result<Request, ProtocolError> {
    let event = match obj.remove("event") {
        Some(Value::String(e)) if !e.is_empty() => e,
        _ => return Err(ProtocolError::NoEvent),
    };
    Runtime::resolve_event(&event).map_err(|_| ProtocolError::UnknownEvent(event.clone()))?;
    let payload = match obj.remove("payload") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(_) => return Err(ProtocolError::PayloadNotObject),
    };
    let opt_string = |v: Option<Value>, field: &'static str| match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ProtocolError::NotAString(field)),
    };
    let subject = opt_string(obj.remove("subject"), "subject")?;
    let cwd = opt_string(obj.remove("cwd"), "cwd")?;
    Ok(Request::Dispatch(DispatchRequest { event, payload, subject, cwd, progress: None, env: None }))
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
pub(crate) fn error_line(error: &str, id: Option<&Value>) -> String {
    let mut m = Map::new();
    m.insert("ok".into(), Value::Bool(false));
    m.insert("error".into(), Value::String(error.to_owned()));
    if let Some(id) = id {
        m.insert("id".into(), id.clone());
    }
    Value::Object(m).to_string()
}

pub(crate) fn pong_line(id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Pong {
        pong: bool,
    }
    line(&Pong { pong: true }, id)
}

pub(crate) fn bye_line(id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Empty {}
    line(&Empty {}, id)
}

pub(crate) fn reload_line(diags: &[crate::vocab::Diagnostic], id: Option<&Value>) -> String {
    #[derive(Serialize)]
    struct Reloaded<'a> {
        diagnostics: &'a [crate::vocab::Diagnostic],
    }
    line(&Reloaded { diagnostics: diags }, id)
}

/// A dispatch answer; under the `listen` contract without the run details the JavaScript
/// implementation never sent (`hook.command`, `timedOut`).
pub(crate) fn dispatch_line(r: &DispatchResult, id: Option<&Value>, fidelity: Fidelity) -> String {
    if fidelity == Fidelity::Harness || r.runs.is_empty() {
        return line(r, id);
    }
    match serde_json::to_value(r) {
        Ok(mut v) => {
            if let Some(runs) = v.get_mut("runs").and_then(Value::as_array_mut) {
                for run in runs.iter_mut().filter_map(Value::as_object_mut) {
                    run.remove("timedOut");
                    if let Some(hook) = run.get_mut("hook").and_then(Value::as_object_mut) {
                        hook.remove("command");
                    }
                }
            }
            line(&v, id)
        }
        Err(e) => error_line(&format!("cannot encode response: {e}"), id),
    }
}

pub(crate) use quick::empty_dispatch_line;
pub use quick::quick_answer;

#[cfg(test)]
mod tests {
    use super::*;

    fn err(l: &str) -> String {
        parse_line(l.as_bytes()).request.unwrap_err().to_string()
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
        use crate::vocab::CanonicalEvent;
        let id = Value::from(7);
        for e in CanonicalEvent::ALL {
            let full = |id| dispatch_line(&DispatchResult::empty(e), id, Fidelity::Contract);
            assert_eq!(empty_dispatch_line(e, None), full(None));
            assert_eq!(empty_dispatch_line(e, Some(&id)), full(Some(&id)));
        }
    }

    #[test]
    fn quick_answers_equal_the_full_path() {
        use crate::vocab::CanonicalEvent;
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
                    let ev = crate::harness::resolve_dispatch_name(&d.event).unwrap();
                    dispatch_line(&DispatchResult::empty(ev.canonical), env.id.as_ref(), Fidelity::Contract)
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
        let record = |ev: crate::vocab::DispatchEvent, s: Option<&str>| {
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
