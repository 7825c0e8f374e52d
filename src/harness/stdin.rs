//! Building one hook's stdin field by field, in its harness's order, from the host's payload: a
//! host passes Claude Code's payload (the canonical form) or the harness's own, and each harness
//! folder says which fields it sends, under which names, in which order (docs/events.md
//! "The canonical payload").

use crate::harness::PayloadCtx;
use crate::vocab::field;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The fields Claude Code sends that mean nothing to a harness unless its folder maps them:
/// dropped from the payload's leftovers for every other harness.
pub(crate) const CANONICAL_ONLY: &[&str] = &[
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "prompt_id",
    "permission_mode",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "duration_ms",
    "stop_hook_active",
    "last_assistant_message",
    "background_tasks",
    "session_crons",
    "permission_suggestions",
    "source",
    "reason",
    "prompt",
    "custom_instructions",
    "trigger",
    "model",
    "turn_id",
    "initial_prompt",
    "stop_reason",
];

/// A stdin under construction: its fields in order, the host's values borrowed until the end,
/// so a stdin written straight to text ([`Stdin::to_text`], a callback's input) copies no
/// value and builds no map.
pub(crate) struct Stdin<'a> {
    host: &'a Map<String, Value>,
    out: Vec<(Cow<'a, str>, Cow<'a, Value>)>,
    /// Host keys already used (under their name or another).
    used: Vec<&'a str>,
}

impl<'a> Stdin<'a> {
    pub(crate) fn new(ctx: &PayloadCtx<'a>) -> Self {
        // Room for the host's fields and the base fields a harness adds: no regrowth.
        Stdin { host: ctx.host, out: Vec::with_capacity(ctx.host.len() + 8), used: Vec::with_capacity(16) }
    }

    /// The host's value at the first of `keys` present (not null).
    pub(crate) fn host(&self, keys: &[&str]) -> Option<&'a Value> {
        keys.iter().find_map(|k| field(self.host, k).filter(|v| !v.is_null()))
    }

    fn slot(&self, key: &str) -> Option<usize> {
        self.out.iter().position(|(k, _)| k == key)
    }

    /// Writes `key`; later writes of the same key keep its position.
    fn set(&mut self, key: Cow<'a, str>, v: Cow<'a, Value>) {
        match self.slot(&key) {
            Some(i) => self.out[i].1 = v,
            None => self.out.push((key, v)),
        }
    }

    /// Writes `key`; later writes of the same key keep its position.
    pub(crate) fn put(&mut self, key: impl Into<Cow<'a, str>>, v: Value) {
        self.set(key.into(), Cow::Owned(v));
    }

    pub(crate) fn put_str(&mut self, key: &'a str, v: &str) {
        self.put(key, Value::String(v.to_owned()));
    }

    /// Marks host keys as used, so [`Stdin::rest`] leaves them out.
    pub(crate) fn used(&mut self, keys: &[&'a str]) {
        self.used.extend_from_slice(keys);
    }

    /// Takes the host's value at the first of `from` present, marking all of `from` used.
    pub(crate) fn take(&mut self, from: &[&'a str]) -> Option<Value> {
        self.used(from);
        self.host(from).cloned()
    }

    /// Writes `key` from the first of `from` the host has; nothing when it has none.
    pub(crate) fn copy(&mut self, key: &'a str, from: &[&'a str]) -> bool {
        self.used(from);
        match self.host(from) {
            Some(v) => {
                self.set(Cow::Borrowed(key), Cow::Borrowed(v));
                true
            }
            None => false,
        }
    }

    /// Writes `key` from the host, or `default` when it has none.
    pub(crate) fn copy_or(&mut self, key: &'a str, from: &[&'a str], default: Value) {
        if !self.copy(key, from) {
            self.set(Cow::Borrowed(key), Cow::Owned(default));
        }
    }

    /// Whether a host key is left for [`Stdin::rest`]: not in `skip`, not used, not written.
    fn left(&self, k: &str, skip: &[&str]) -> bool {
        !skip.contains(&k) && !self.used.contains(&k) && self.slot(k).is_none()
    }

    /// Copies the host's remaining fields in its order, except those in `skip` and those
    /// already used or written.
    pub(crate) fn rest(&mut self, skip: &[&str]) {
        let host = self.host;
        for (k, v) in host {
            if self.left(k, skip) {
                self.out.push((Cow::Borrowed(k.as_str()), Cow::Borrowed(v)));
            }
        }
    }

    /// The host's remaining fields (as [`Stdin::rest`] would copy them), as a map.
    pub(crate) fn leftovers(&mut self, skip: &[&str]) -> Map<String, Value> {
        self.host.iter().filter(|(k, _)| self.left(k, skip)).map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Replaces an already written field's value in place.
    pub(crate) fn map_field(&mut self, key: &str, f: impl FnOnce(&Value) -> Value) {
        if let Some(i) = self.slot(key) {
            let new = f(&self.out[i].1);
            self.out[i].1 = Cow::Owned(new);
        }
    }

    pub(crate) fn finish(self) -> Map<String, Value> {
        self.out.into_iter().map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
    }

    /// The stdin as compact JSON, written straight from the fields (what [`Stdin::finish`]
    /// then `payload::to_text` would give, without the map and the copies).
    pub(crate) fn to_text(&self) -> String {
        use serde::ser::{SerializeMap, Serializer};
        let mut buf = Vec::with_capacity(512);
        let mut ser = serde_json::Serializer::new(&mut buf);
        let written = ser.serialize_map(Some(self.out.len())).and_then(|mut m| {
            for (k, v) in &self.out {
                m.serialize_entry(k.as_ref(), v.as_ref())?;
            }
            m.end()
        });
        // serde_json writes UTF-8 only.
        if written.is_err() {
            "{}".to_owned()
        } else {
            String::from_utf8(buf).unwrap_or_default()
        }
    }
}

/// The text of a tool's output, from Claude's `tool_response` (`{stdout, stderr, …}`), a string,
/// or another harness's shape.
pub(crate) fn tool_output_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let field = |k: &str| o.get(k).and_then(Value::as_str);
            if let Some(t) =
                field("textResultForLlm").or_else(|| field("text_result_for_llm")).or_else(|| field("returnDisplay"))
            {
                return t.to_owned();
            }
            let out = field("stdout").or_else(|| field("output")).unwrap_or("");
            match field("stderr").filter(|e| !e.is_empty()) {
                Some(err) if out.is_empty() => err.to_owned(),
                Some(err) => format!("{out}\n{err}"),
                None => out.to_owned(),
            }
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Whether Claude's `tool_response` says the tool failed.
pub(crate) fn tool_failed(v: &Value) -> bool {
    let o = v.as_object();
    let flag = |k: &str| o.and_then(|o| o.get(k)).and_then(Value::as_bool) == Some(true);
    flag("interrupted") || o.and_then(|o| o.get("error")).is_some_and(|e| !e.is_null())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_output_text_reads_every_shape() {
        assert_eq!(tool_output_text(&json!({"stdout": "hi", "stderr": ""})), "hi");
        assert_eq!(tool_output_text(&json!({"stdout": "", "stderr": "boom"})), "boom");
        assert_eq!(tool_output_text(&json!({"stdout": "a", "stderr": "b"})), "a\nb");
        assert_eq!(tool_output_text(&json!("hi\n")), "hi\n");
        assert_eq!(tool_output_text(&json!({"llmContent": "x", "returnDisplay": "hi"})), "hi");
        assert_eq!(tool_output_text(&json!({"resultType": "success", "textResultForLlm": "ok"})), "ok");
        assert!(tool_failed(&json!({"stdout": "", "interrupted": true})));
        assert!(!tool_failed(&json!({"stdout": "hi", "interrupted": false})));
    }
}
