//! Execution history: one JSON line per dispatch that ran a hook, written by a background
//! thread so a dispatch never waits for a disk. The line shape ([`Record`]) is defined once and
//! read back by `hookrt history` ([`view`]) and drawn by `hookrt history --html` ([`html`]).

pub(crate) mod html;
pub(crate) mod view;

use super::execute::Run;
use crate::contract::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Instant;

pub use crate::runtime::options::HistoryOptions;

/// Default rotation size.
pub(crate) const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;
/// How much of a run's stdout and stderr a line keeps.
pub(crate) const OUTPUT_KEPT: usize = 2048;
/// Lines waiting for the writer; beyond this they are dropped and counted.
pub(crate) const QUEUE: usize = 1024;

/// One history line: a dispatch and its runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub ts: String,
    /// The harness (or host) the dispatch came from, when the runtime was told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(rename = "session_id", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The event as dispatched.
    pub event: String,
    pub canonical: String,
    pub decision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub duration_ms: f64,
    pub runs: Vec<RunRecord>,
    /// The hooks of this event left out for trust (their harness, or the host, would not run
    /// them and hookrt has no approval).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<crate::load::Skipped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

/// One run in a history line.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    pub id: String,
    pub dialect: String,
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    pub kind: String,
    pub decision: String,
    /// `null` when the run ended without an exit code (signal, timeout, HTTP hook).
    pub exit_code: Option<i32>,
    /// Milliseconds from the dispatch's start to the run's start.
    pub start_ms: f64,
    pub duration_ms: f64,
    pub timed_out: bool,
    /// The run's own reason (a deny's, an ask's), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub stdout: String,
    pub stderr: String,
}

/// A line saying how many records a full queue cost.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Dropped {
    pub ts: String,
    pub dropped: u64,
}

/// The background writer of one runtime.
#[derive(Debug)]
pub(crate) struct History {
    tx: SyncSender<Msg>,
    dropped: Arc<AtomicU64>,
    payloads: bool,
    host: Option<String>,
    /// Values of the variables `stripSecrets` removed: never written.
    secrets: Vec<String>,
}

/// What the writer thread receives.
enum Msg {
    Line(String),
    /// Answer once every line before this one is written.
    Flush(std::sync::mpsc::Sender<()>),
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Msg")
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

impl History {
    /// Opens the file (reporting why it cannot) and starts the writer thread.
    pub(crate) fn open(opts: &HistoryOptions, secrets: Vec<String>) -> Result<History, HistoryError> {
        let file = open_append(&opts.path)?;
        let (tx, rx) = sync_channel::<Msg>(QUEUE);
        let dropped = Arc::new(AtomicU64::new(0));
        let writer = Writer {
            path: opts.path.clone(),
            size: file.metadata().map(|m| m.len()).unwrap_or(0),
            file,
            max: opts.max_bytes.unwrap_or(DEFAULT_MAX_BYTES).max(1),
            dropped: dropped.clone(),
        };
        std::thread::Builder::new()
            .name("hookrt-history".into())
            .spawn(move || writer.run(rx))
            .map_err(HistoryError::Thread)?;
        Ok(History {
            tx,
            dropped,
            payloads: opts.payloads,
            host: opts.host.clone(),
            secrets: secrets.into_iter().filter(|s| s.len() >= 4).collect(),
        })
    }

    /// Queues the line of one dispatch; never waits (a full queue drops it and counts it).
    pub(crate) fn record(
        &self,
        (event, canonical): (&str, crate::vocab::CanonicalEvent),
        outcome: &Outcome,
        (runs, skipped): (&[Run], Vec<crate::load::Skipped>),
        started: Instant,
        payload: &Map<String, Value>,
    ) {
        let rec = Record {
            ts: crate::vocab::text::iso_now(),
            host: self.host.clone(),
            session_id: payload.get("session_id").and_then(Value::as_str).map(str::to_owned),
            event: event.to_owned(),
            canonical: canonical.as_str().to_owned(),
            decision: word(&outcome.decision),
            reason: outcome.reason.clone(),
            duration_ms: ms(started.elapsed()),
            runs: runs.iter().map(|r| run_record(r, started)).collect(),
            skipped,
            payload: self.payloads.then(|| Value::Object(payload.clone())),
        };
        let mut line = serde_json::to_string(&rec).unwrap_or_default();
        for s in &self.secrets {
            if line.contains(s.as_str()) {
                line = line.replace(s.as_str(), "[secret]");
            }
        }
        if let Err(TrySendError::Full(_)) = self.tx.try_send(Msg::Line(line)) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Waits (at most `limit`) until every line queued so far is written: before a process
    /// exits, so its last dispatches are not lost.
    pub(crate) fn flush(&self, limit: std::time::Duration) {
        let (ack, done) = std::sync::mpsc::channel();
        if self.tx.send(Msg::Flush(ack)).is_ok() {
            let _ = done.recv_timeout(limit);
        }
    }
}

fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

fn word<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn run_record(r: &Run, dispatch_started: Instant) -> RunRecord {
    let o = &r.outcome;
    let start_ms = r.started.map(|s| ms(s.saturating_duration_since(dispatch_started))).unwrap_or(0.0);
    RunRecord {
        id: r.hook.id.clone(),
        dialect: r.hook.dialect.as_str().to_owned(),
        file: r.hook.file.display().to_string(),
        matcher: r.hook.matcher_text.clone(),
        kind: r.hook.handler.kind().as_str().to_owned(),
        decision: o.decision.as_ref().map(word).unwrap_or_else(|| "none".into()),
        exit_code: o.exit_code.flatten(),
        start_ms,
        duration_ms: r.duration_ms as f64,
        timed_out: r.error.as_ref().is_some_and(crate::handler::Failure::is_timeout),
        reason: o.reason.clone(),
        error: r.error.as_ref().map(ToString::to_string),
        stdout: cut(&o.stdout, OUTPUT_KEPT),
        stderr: cut(&o.stderr, OUTPUT_KEPT),
    }
}

/// Why no history is written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HistoryError {
    #[error("history file {} is a directory", .0.display())]
    Directory(PathBuf),
    #[error("cannot open history file {}: {source}", .path.display())]
    Open { path: PathBuf, source: std::io::Error },
    #[error("cannot start the history writer: {0}")]
    Thread(std::io::Error),
}

fn open_append(path: &Path) -> Result<std::fs::File, HistoryError> {
    if path.is_dir() {
        return Err(HistoryError::Directory(path.to_path_buf()));
    }
    // Payloads, prompts and hook output may be private: the file is created for the user alone.
    crate::vocab::files::append_private(path).map_err(|source| HistoryError::Open { path: path.to_path_buf(), source })
}

struct Writer {
    path: PathBuf,
    file: std::fs::File,
    size: u64,
    max: u64,
    dropped: Arc<AtomicU64>,
}

impl Writer {
    fn run(mut self, rx: std::sync::mpsc::Receiver<Msg>) {
        while let Ok(msg) = rx.recv() {
            match msg {
                Msg::Line(line) => self.write(&line),
                Msg::Flush(ack) => {
                    let _ = self.file.flush();
                    let _ = ack.send(());
                }
            }
            let n = self.dropped.swap(0, Ordering::Relaxed);
            if n > 0 {
                let d = Dropped { ts: crate::vocab::text::iso_now(), dropped: n };
                self.write(&serde_json::to_string(&d).unwrap_or_default());
            }
        }
    }

    fn write(&mut self, line: &str) {
        let len = line.len() as u64 + 1;
        if self.size > 0 && self.size + len > self.max {
            self.rotate();
        }
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        match self.file.write_all(&buf) {
            Ok(()) => self.size += len,
            Err(e) => tracing::warn!("history: cannot write {}: {e}", self.path.display()),
        }
    }

    fn rotate(&mut self) {
        let old = rotated(&self.path);
        if let Err(e) = std::fs::rename(&self.path, &old) {
            tracing::warn!("history: cannot rotate {}: {e}", self.path.display());
        }
        match open_append(&self.path) {
            Ok(f) => {
                self.file = f;
                self.size = 0;
            }
            Err(e) => tracing::warn!("history: {e}"),
        }
    }
}

/// Where a rotated history file goes.
pub fn rotated(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".1");
    PathBuf::from(s)
}
