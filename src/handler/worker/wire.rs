//! The worker protocol's two line shapes, and the bounded line reader of its output.

use crate::vocab::Raw;
use futures::StreamExt;
use serde::Deserialize;
use serde_json::Value;
use tokio::io::AsyncRead;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

/// One request line: `{"id":N,"event":"…","payload":<the hook's stdin JSON>}` plus `\n`.
/// Written into one buffer of the right size (one per request: no formatting machinery).
pub(crate) fn request_line(id: u64, event: &str, payload_json: &str) -> Vec<u8> {
    let payload = if payload_json.trim().is_empty() { "{}" } else { payload_json };
    let mut line = Vec::with_capacity(payload.len() + event.len() + 48);
    // Writing a number or a string into a Vec cannot fail.
    line.extend_from_slice(b"{\"id\":");
    let _ = serde_json::to_writer(&mut line, &id);
    line.extend_from_slice(b",\"event\":");
    let _ = serde_json::to_writer(&mut line, event);
    line.extend_from_slice(b",\"payload\":");
    line.extend_from_slice(payload.as_bytes());
    line.extend_from_slice(b"}\n");
    line
}

/// One answer line, as a worker writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Answer {
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
pub(crate) enum BadLine {
    NotJson,
    NotAnAnswer(String),
}

/// Parses an answer line.
pub(crate) fn parse_answer(line: &[u8]) -> Result<Answer, BadLine> {
    // An object is read straight into the answer (every line of a busy worker).
    if line.trim_ascii_start().starts_with(b"{") {
        return serde_json::from_slice(line).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => BadLine::NotAnAnswer(e.to_string()),
            _ => BadLine::NotJson,
        });
    }
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
    pub(crate) fn into_raw(self, kept_stderr: impl FnOnce() -> String) -> Raw {
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

/// One line read from a worker, or the sign that a line was longer than the cap (its bytes are
/// dropped up to its end, so memory stays bounded).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    Text(Vec<u8>),
    TooLong,
}

/// The lines of a worker's output, each at most `cap` bytes.
pub(crate) struct Lines<R> {
    inner: FramedRead<R, AnyDelimiterCodec>,
    /// The codec just reported an over-long line: the stream's next `None` is not its end.
    after_error: bool,
}

impl<R: AsyncRead + Unpin> Lines<R> {
    pub(crate) fn new(r: R, cap: usize) -> Self {
        Lines {
            inner: FramedRead::new(r, AnyDelimiterCodec::new_with_max_length(vec![b'\n'], Vec::new(), cap)),
            after_error: false,
        }
    }

    /// The next line, `None` at the end of the output.
    pub(crate) async fn next(&mut self) -> Option<Line> {
        loop {
            match self.inner.next().await {
                Some(Ok(b)) => return Some(Line::Text(b.to_vec())),
                Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded)) => {
                    self.after_error = true;
                    return Some(Line::TooLong);
                }
                Some(Err(AnyDelimiterCodecError::Io(_))) => return None,
                None if std::mem::take(&mut self.after_error) => continue,
                None => return None,
            }
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
        let line = request_line(u64::MAX, "a\"b\n", "  ");
        assert_eq!(line, b"{\"id\":18446744073709551615,\"event\":\"a\\\"b\\n\",\"payload\":{}}\n");
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
        assert!(matches!(parse_answer(br#"{"stdout":"x"}"#), Err(BadLine::NotAnAnswer(_))), "no id");
        assert_eq!(parse_answer(br#"{"id":3,"#).unwrap_err(), BadLine::NotJson);
        assert_eq!(parse_answer(br#"{"id":3} x"#).unwrap_err(), BadLine::NotJson);
        assert_eq!(parse_answer(br#"[1"#).unwrap_err(), BadLine::NotJson);
    }

    #[tokio::test]
    async fn long_lines_are_dropped_and_reading_goes_on() {
        let data = format!("first\n{}\nnext\nlast", "x".repeat(100_000));
        let mut lines = Lines::new(data.as_bytes(), 10);
        assert_eq!(lines.next().await, Some(Line::Text(b"first".to_vec())));
        assert_eq!(lines.next().await, Some(Line::TooLong));
        assert_eq!(lines.next().await, Some(Line::Text(b"next".to_vec())));
        assert_eq!(lines.next().await, Some(Line::Text(b"last".to_vec())));
        assert_eq!(lines.next().await, None);
    }
}
