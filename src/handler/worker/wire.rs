//! The worker protocol's two line shapes and a bounded line reader.

use crate::decode::Raw;
use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One request line: `{"id":N,"event":"…","payload":<the hook's stdin JSON>}` plus `\n`.
pub fn request_line(id: u64, event: &str, payload_json: &str) -> Vec<u8> {
    let event = serde_json::to_string(event).unwrap_or_else(|_| "\"\"".into());
    let payload = if payload_json.trim().is_empty() { "{}" } else { payload_json };
    format!("{{\"id\":{id},\"event\":{event},\"payload\":{payload}}}\n").into_bytes()
}

/// One answer line, as a worker writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub id: u64,
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// A string, or a JSON object standing for the hook's JSON answer.
    #[serde(default)]
    pub stdout: Option<Value>,
    #[serde(default)]
    pub stderr: Option<String>,
}

/// Why an answer line was not used.
#[derive(Debug, PartialEq, Eq)]
pub enum BadLine {
    NotJson,
    NotAnAnswer(String),
}

/// Parses an answer line.
pub fn parse_answer(line: &[u8]) -> Result<Answer, BadLine> {
    let v: Value = serde_json::from_slice(line).map_err(|_| BadLine::NotJson)?;
    // serde would read `[1]` as a struct by position; an answer is an object, nothing else.
    if !v.is_object() {
        return Err(BadLine::NotAnAnswer("not a JSON object".into()));
    }
    serde_json::from_value(v).map_err(|e| BadLine::NotAnAnswer(e.to_string()))
}

impl Answer {
    /// The run this answer stands for; `kept_stderr` is what the worker wrote on stderr, used
    /// when the answer names no stderr of its own.
    pub fn into_raw(self, kept_stderr: impl FnOnce() -> String) -> Raw {
        let stdout = match self.stdout {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s,
            Some(v) => v.to_string(),
        };
        Raw {
            exit_code: Some(self.exit_code.unwrap_or(0)),
            stdout,
            stderr: self.stderr.unwrap_or_else(kept_stderr),
            truncated: false,
        }
    }
}

/// Reads one line (without its `\n`) keeping at most `cap` bytes; `None` at end of input.
/// The rest of an over-long line is read and dropped, so memory stays bounded.
pub async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>, cap: usize) -> Option<bool> {
    buf.clear();
    let mut cut = false;
    loop {
        let avail = match r.fill_buf().await {
            Ok(a) => a,
            Err(_) => return (!buf.is_empty()).then_some(cut),
        };
        if avail.is_empty() {
            return (!buf.is_empty() || cut).then_some(cut);
        }
        let (chunk, done) = match avail.iter().position(|b| *b == b'\n') {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        let room = cap.saturating_sub(buf.len());
        if chunk.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(avail.len());
        r.consume(used);
        if done.is_some() {
            return Some(cut);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_embeds_the_payload_verbatim() {
        let line = request_line(7, "PreToolUse", r#"{"tool_name":"Bash"}"#);
        let v: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v, serde_json::json!({"id": 7, "event": "PreToolUse", "payload": {"tool_name": "Bash"}}));
        assert!(line.ends_with(b"}\n"));
    }

    #[test]
    fn answers_default_and_object_stdout() {
        let a = parse_answer(br#"{"id":3}"#).unwrap().into_raw(|| "kept".into());
        assert_eq!((a.exit_code, a.stdout.as_str(), a.stderr.as_str()), (Some(0), "", "kept"));
        let a = parse_answer(br#"{"id":3,"exitCode":2,"stdout":{"decision":"block"},"stderr":"no"}"#)
            .unwrap()
            .into_raw(String::new);
        assert_eq!((a.exit_code, a.stdout.as_str(), a.stderr.as_str()), (Some(2), r#"{"decision":"block"}"#, "no"));
        assert_eq!(parse_answer(b"hello").unwrap_err(), BadLine::NotJson);
        assert!(matches!(parse_answer(br#"{"id":"x"}"#), Err(BadLine::NotAnAnswer(_))));
        assert!(matches!(parse_answer(br#"[1]"#), Err(BadLine::NotAnAnswer(_))));
    }

    #[tokio::test]
    async fn long_lines_are_cut_and_drained() {
        let data = format!("{}\nnext\n", "x".repeat(100_000));
        let mut r = tokio::io::BufReader::with_capacity(1024, data.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 10).await, Some(true));
        assert_eq!(buf, b"xxxxxxxxxx");
        assert_eq!(read_line(&mut r, &mut buf, 10).await, Some(false));
        assert_eq!(buf, b"next");
        assert_eq!(read_line(&mut r, &mut buf, 10).await, None);
    }
}
