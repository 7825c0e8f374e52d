//! The reader thread of `listen`: reads request lines, answers the ones that run no hook at
//! once (batched), and hands the others to the in-order lane or to a concurrent task.

use crate::listen::{answer, immediate, MAX_LINE};
use crate::protocol::{self, Envelope, Request};
use crate::runtime::Runtime;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Most id-tagged requests in flight; reading pauses beyond this.
const MAX_CONCURRENT: usize = 4096;
/// Immediate answers batched before they go to the writer.
const BATCH: usize = 64 * 1024;

/// Where requests go.
pub(crate) struct Lanes {
    pub rt: Arc<Runtime>,
    pub out: std_mpsc::SyncSender<String>,
    pub serial: mpsc::UnboundedSender<Envelope>,
    /// In-order requests not answered yet.
    pub pending: Arc<AtomicUsize>,
    pub tracker: TaskTracker,
    pub handle: tokio::runtime::Handle,
    pub shutdown: CancellationToken,
}

/// What the reader thread hands back when input ends: the id of a `bye`, if one came.
pub(crate) struct ReaderDone {
    pub bye: Option<Option<Value>>,
}

/// Starts the reader thread.
pub(crate) fn spawn<R: Read + Send + 'static>(input: R, lanes: Lanes) -> oneshot::Receiver<ReaderDone> {
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        let bye = Reader { lanes, batch: String::new(), slots: Arc::new(Semaphore::new(MAX_CONCURRENT)) }.run(input);
        let _ = tx.send(ReaderDone { bye });
    });
    rx
}

struct Reader {
    lanes: Lanes,
    /// Immediate answers, handed to the writer when input runs dry, when the batch is large,
    /// and before any request that must keep its place.
    batch: String,
    slots: Arc<Semaphore>,
}

/// What to do after one line.
enum Next {
    Continue,
    Stop,
}

impl Reader {
    /// Reads until `bye`, end of input, shutdown or the writer going away.
    fn run<R: Read>(mut self, input: R) -> Option<Option<Value>> {
        let mut input = BufReader::with_capacity(256 * 1024, input);
        let mut buf = Vec::new();
        let mut bye = None;
        while !self.lanes.shutdown.is_cancelled() {
            if input.buffer().is_empty() && !self.flush() {
                break;
            }
            let env = match read_line(&mut input, &mut buf) {
                Err(_) | Ok(Ok(false)) => break,
                Ok(Err(())) => Envelope { id: None, request: Err(protocol::ProtocolError::TooLarge(MAX_LINE)) },
                Ok(Ok(true)) if buf.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(Ok(true)) => match self.fast(&buf) {
                    Some(true) => continue,
                    Some(false) => break,
                    None => protocol::parse_line(&buf),
                },
            };
            if matches!(env.request, Ok(Request::Bye)) {
                bye = Some(env.id);
                break;
            }
            if let Next::Stop = self.route(env) {
                break;
            }
        }
        self.flush();
        bye
    }

    /// The fast path while no in-order request is pending: `Some(sent)` when answered.
    fn fast(&mut self, line: &[u8]) -> Option<bool> {
        let rt = &self.lanes.rt;
        if self.lanes.pending.load(Ordering::Relaxed) != 0 || rt.is_closed() {
            return None;
        }
        let text = std::str::from_utf8(line).ok()?;
        let quick = protocol::quick_answer(text, |ev, s| rt.could_run(ev, s))?;
        Some(self.add(&quick))
    }

    /// Answers a request at once when it runs no hook, else queues it in its lane.
    fn route(&mut self, env: Envelope) -> Next {
        let in_order = env.id.is_none();
        if !in_order || self.lanes.pending.load(Ordering::SeqCst) == 0 {
            if let Some(l) = immediate(&self.lanes.rt, &env) {
                return if self.add(&l) { Next::Continue } else { Next::Stop };
            }
        }
        if !self.flush() {
            return Next::Stop;
        }
        if in_order {
            self.lanes.pending.fetch_add(1, Ordering::SeqCst);
            return if self.lanes.serial.send(env).is_err() { Next::Stop } else { Next::Continue };
        }
        let Ok(permit) = self.lanes.handle.block_on(self.slots.clone().acquire_owned()) else { return Next::Stop };
        let (rt, out) = (self.lanes.rt.clone(), self.lanes.out.clone());
        self.lanes.tracker.spawn_on(
            async move {
                let l = answer(&rt, env).await;
                let _ = out.send(l);
                drop(permit);
            },
            &self.lanes.handle,
        );
        Next::Continue
    }

    /// Hands the batch to the writer; `false` when the writer is gone.
    fn flush(&mut self) -> bool {
        self.batch.is_empty() || self.lanes.out.send(std::mem::take(&mut self.batch)).is_ok()
    }

    /// Appends an answer to the batch; `false` when the writer is gone.
    fn add(&mut self, line: &str) -> bool {
        if !self.batch.is_empty() {
            self.batch.push('\n');
        }
        self.batch.push_str(line);
        self.batch.len() < BATCH || self.flush()
    }
}

/// Reads one line into `buf` (without the newline). `Ok(false)` at end of input; a line over
/// [`MAX_LINE`] is drained and reported as `Err(())`.
fn read_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Result<bool, ()>> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if too_long { Err(()) } else { Ok(!buf.is_empty()) });
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let take = if done { used - 1 } else { used };
            if buf.len() + take > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        r.consume(used);
        if done {
            return Ok(if too_long { Err(()) } else { Ok(true) });
        }
    }
}
