//! `hookrt listen`: serves the stdio protocol. Requests without an id are answered in order,
//! one at a time (so a reload sees what an earlier hook wrote); requests with an id run
//! concurrently and may be answered out of order. `bye` and end of input finish what was
//! received; shutdown (SIGTERM/SIGINT) aborts running hooks.
//!
//! Input and output each have a plain thread (blocking reads and buffered writes cost far less
//! than async stdio per line); requests that run no hook — pings, errors, dispatches nothing
//! matches — are answered on the reader thread when no earlier request is still pending, so a
//! host's common case never touches the async machinery.

use crate::protocol::{self, Envelope, Request};
use crate::runtime::{DispatchError, Runtime};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Longest request line accepted; longer lines get an error and are skipped.
pub const MAX_LINE: usize = 64 * 1024 * 1024;
/// Most id-tagged requests in flight; reading pauses beyond this.
const MAX_CONCURRENT: usize = 4096;
/// Answers buffered before the request loop waits for the writer.
const OUTPUT_QUEUE: usize = 8192;

/// How serving ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `bye` or end of input.
    Finished,
    /// The shutdown token fired.
    Interrupted,
}

async fn answer(rt: &Runtime, env: Envelope) -> String {
    let id = env.id.as_ref();
    match env.request {
        Err(e) => protocol::error_line(&e, id),
        Ok(Request::Ping) => protocol::pong_line(id),
        Ok(Request::Bye) => protocol::bye_line(id),
        Ok(Request::Reload) => {
            let diags = rt.reload();
            protocol::reload_line(&diags, id)
        }
        Ok(Request::Dispatch(req)) => {
            let never = CancellationToken::new();
            match rt.dispatch(req, &never).await {
                Ok(r) => protocol::dispatch_line(&r, id),
                Err(e @ (DispatchError::Aborted | DispatchError::Closed | DispatchError::UnknownEvent(_))) => {
                    protocol::error_line(&e.to_string(), id)
                }
            }
        }
    }
}

/// The answer to a request that runs no hook, computed without waiting; `None` when hooks
/// must run (or the config must be re-read).
fn immediate(rt: &Runtime, env: &Envelope) -> Option<String> {
    let id = env.id.as_ref();
    match &env.request {
        Err(e) => Some(protocol::error_line(e, id)),
        Ok(Request::Ping) => Some(protocol::pong_line(id)),
        Ok(Request::Dispatch(req)) if !rt.is_closed() => {
            let ev = Runtime::resolve_event(&req.event).ok()?;
            let subject = req.subject.as_deref().or_else(|| ev.canonical.subject_of(&req.payload));
            if rt.could_run(ev, subject) {
                None
            } else {
                Some(protocol::empty_dispatch_line(ev.canonical, id))
            }
        }
        _ => None,
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

/// Writes answers as they come; flushes whenever the queue runs dry.
fn write_loop<W: Write>(rx: std_mpsc::Receiver<String>, output: W) {
    let mut w = std::io::BufWriter::with_capacity(64 * 1024, output);
    while let Ok(first) = rx.recv() {
        let mut line = Some(first);
        while let Some(l) = line.take() {
            if w.write_all(l.as_bytes()).and_then(|_| w.write_all(b"\n")).is_err() {
                return;
            }
            line = rx.try_recv().ok();
        }
        if w.flush().is_err() {
            return;
        }
    }
}

/// What the reader thread hands back when input ends.
struct ReaderDone {
    bye: Option<Option<Value>>,
}

/// Serves until `bye`, end of input or shutdown.
pub async fn serve<R, W>(rt: Arc<Runtime>, input: R, output: W, shutdown: CancellationToken) -> Ended
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let handle = tokio::runtime::Handle::current();
    let (out_tx, out_rx) = std_mpsc::sync_channel::<String>(OUTPUT_QUEUE);
    let (writer_done_tx, writer_done) = oneshot::channel::<()>();
    std::thread::spawn(move || {
        write_loop(out_rx, output);
        let _ = writer_done_tx.send(());
    });

    // In-order lane: one request at a time, answers in arrival order.
    let pending = Arc::new(AtomicUsize::new(0));
    let (serial_tx, mut serial_rx) = mpsc::unbounded_channel::<Envelope>();
    let serial = {
        let rt = rt.clone();
        let out = out_tx.clone();
        let pending = pending.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            // After a shutdown the reader may sit in read(2) forever; stop taking requests.
            while let Some(env) = tokio::select! {
                biased;
                _ = shutdown.cancelled() => None,
                e = serial_rx.recv() => e,
            } {
                let l = answer(&rt, env).await;
                let sent = out.send(l).is_ok();
                pending.fetch_sub(1, Ordering::SeqCst);
                if !sent {
                    break;
                }
            }
        })
    };

    let tracker = TaskTracker::new();
    let (reader_tx, reader_done) = oneshot::channel::<ReaderDone>();
    {
        let rt = rt.clone();
        let out = out_tx.clone();
        let tracker = tracker.clone();
        let handle = handle.clone();
        let shutdown = shutdown.clone();
        std::thread::spawn(move || {
            let slots = Arc::new(Semaphore::new(MAX_CONCURRENT));
            let mut input = BufReader::with_capacity(256 * 1024, input);
            let mut buf = Vec::new();
            let mut bye = None;
            // Immediate answers are batched and handed to the writer when input runs dry,
            // when the batch is large, and before any request that must keep its place.
            let mut batch = String::new();
            let flush = |batch: &mut String| {
                if batch.is_empty() {
                    true
                } else {
                    out.send(std::mem::take(batch)).is_ok()
                }
            };
            // Appends an answer to the batch; `false` when the writer is gone.
            let add = |batch: &mut String, line: &str| {
                if !batch.is_empty() {
                    batch.push('\n');
                }
                batch.push_str(line);
                batch.len() < 64 * 1024 || flush(batch)
            };
            while !shutdown.is_cancelled() {
                if input.buffer().is_empty() && !flush(&mut batch) {
                    break;
                }
                let env = match read_line(&mut input, &mut buf) {
                    Err(_) | Ok(Ok(false)) => break,
                    Ok(Err(())) => {
                        Envelope { id: None, request: Err(format!("request is too large (over {MAX_LINE} bytes)")) }
                    }
                    Ok(Ok(true)) => {
                        if buf.iter().all(u8::is_ascii_whitespace) {
                            continue;
                        }
                        if pending.load(Ordering::Relaxed) == 0 && !rt.is_closed() {
                            let table = &rt;
                            let quick = std::str::from_utf8(&buf)
                                .ok()
                                .and_then(|t| protocol::quick_answer(t, |ev, s| table.could_run(ev, s)));
                            if let Some(l) = quick {
                                if !add(&mut batch, &l) {
                                    break;
                                }
                                continue;
                            }
                        }
                        protocol::parse_line(&buf)
                    }
                };
                if matches!(env.request, Ok(Request::Bye)) {
                    bye = Some(env.id);
                    break;
                }
                let in_order = env.id.is_none();
                if !in_order || pending.load(Ordering::SeqCst) == 0 {
                    if let Some(l) = immediate(&rt, &env) {
                        if !add(&mut batch, &l) {
                            break;
                        }
                        continue;
                    }
                }
                if !flush(&mut batch) {
                    break;
                }
                if in_order {
                    pending.fetch_add(1, Ordering::SeqCst);
                    if serial_tx.send(env).is_err() {
                        break;
                    }
                } else {
                    let Ok(permit) = handle.block_on(slots.clone().acquire_owned()) else { break };
                    let rt = rt.clone();
                    let out = out.clone();
                    tracker.spawn_on(
                        async move {
                            let l = answer(&rt, env).await;
                            let _ = out.send(l);
                            drop(permit);
                        },
                        &handle,
                    );
                }
            }
            flush(&mut batch);
            drop(serial_tx);
            let _ = reader_tx.send(ReaderDone { bye });
        });
    }

    let mut interrupted = false;
    let bye = tokio::select! {
        biased;
        _ = shutdown.cancelled() => { interrupted = true; None }
        done = reader_done => done.ok().and_then(|d| d.bye),
    };
    if interrupted {
        rt.close();
    }
    // Finish what was received (aborted quickly after a shutdown).
    tracker.close();
    let drain = async {
        let _ = serial.await;
        tracker.wait().await;
    };
    tokio::pin!(drain);
    tokio::select! {
        _ = &mut drain => {}
        _ = shutdown.cancelled(), if !interrupted => {
            rt.close();
            interrupted = true;
            drain.await;
        }
    }
    if let Some(id) = bye {
        if !interrupted {
            let _ = out_tx.send(protocol::bye_line(id.as_ref()));
        }
    }
    drop(out_tx);
    if !interrupted {
        // The reader thread may still hold a sender (blocked in read after bye); the writer
        // flushes after every burst, so waiting for the queue to empty is enough.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
            let _ = writer_done.await;
        })
        .await;
    }
    if interrupted {
        Ended::Interrupted
    } else {
        Ended::Finished
    }
}
