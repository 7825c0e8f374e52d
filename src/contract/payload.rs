//! What a hook receives on stdin: the host's payload shaped for the hook's own harness
//! (docs/events.md "Payloads").

use crate::config::Hook;
use crate::harness::PayloadCtx;
use serde_json::{Map, Value};

/// A host's payload from its JSON: an object, or `null` for an empty one; `None` for anything
/// else, or trailing text. Every dispatch reads one (the addon's and `hookrt hook`'s).
/// Takes `StrRead` for text already known to be UTF-8 (the addon's), `SliceRead` for bytes.
pub(crate) fn read<'de, R: serde_json::de::Read<'de>>(json: R) -> Option<Map<String, Value>> {
    let mut de = serde_json::Deserializer::new(json);
    let map = serde::Deserializer::deserialize_any(&mut de, PayloadVisitor).ok()?;
    de.end().ok().map(|()| map)
}

/// Reads a payload object into a map made with room for a payload's usual fields: serde_json
/// starts its maps empty, and growing one to a payload's size reallocates it twice.
struct PayloadVisitor;

impl<'de> serde::de::Visitor<'de> for PayloadVisitor {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object or null")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Map::new())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut m = Map::with_capacity(8);
        while let Some((k, v)) = a.next_entry::<String, Value>()? {
            m.insert(k, v);
        }
        Ok(m)
    }
}

/// The JSON object one hook reads (`ctx.spelling` is the hook's own event name).
pub(crate) fn hook_input(ctx: &PayloadCtx, hook: &Hook) -> Map<String, Value> {
    crate::harness::of(hook.dialect).input(ctx)
}

/// [`hook_input`] as compact JSON ([`to_text`]), written straight from the payload where the
/// harness can.
pub(crate) fn hook_input_text(ctx: &PayloadCtx, hook: &Hook) -> String {
    let h = crate::harness::of(hook.dialect);
    h.input_text(ctx).unwrap_or_else(|| to_text(&h.input(ctx)))
}

/// Serialises a hook input; the trailing newline is the harness's business.
pub(crate) fn to_stdin(input: &Map<String, Value>, hook: &Hook) -> Vec<u8> {
    let h = crate::harness::of(hook.dialect);
    let mut v = to_bytes(input, h.stdin_pretty());
    if h.stdin_newline() {
        v.push(b'\n');
    }
    v
}

/// A hook input as the compact JSON the non-command kinds send (webhooks, workers, callbacks…).
pub(crate) fn to_text(input: &Map<String, Value>) -> String {
    // serde_json writes UTF-8 only.
    String::from_utf8(to_bytes(input, false)).unwrap_or_default()
}

/// A hook input's JSON (`{}` if it cannot be written), in a buffer sized for a usual payload so
/// writing it never regrows.
fn to_bytes(input: &Map<String, Value>, pretty: bool) -> Vec<u8> {
    let mut v = Vec::with_capacity(512);
    let written =
        if pretty { serde_json::to_writer_pretty(&mut v, input) } else { serde_json::to_writer(&mut v, input) };
    if written.is_err() {
        v = b"{}".to_vec();
    }
    v
}

#[cfg(test)]
mod tests {
    use super::read;
    use serde_json::de::{SliceRead, StrRead};
    use serde_json::json;

    #[test]
    fn a_payload_is_an_object_or_null() {
        let m = read(StrRead::new(r#"{"a":1,"b":{"c":[2]},"a":3}"#)).expect("an object");
        assert_eq!(serde_json::Value::Object(m), json!({"a": 3, "b": {"c": [2]}}));
        assert_eq!(read(SliceRead::new(b" null ")).map(|m| m.len()), Some(0));
        for bad in ["[1]", "1", "\"x\"", "{} x", "{\"a\":", ""] {
            assert!(read(StrRead::new(bad)).is_none(), "{bad}");
        }
        assert!(read(SliceRead::new(b"{\"a\":\"\xff\"}")).is_none(), "bytes that are not UTF-8");
    }
}
