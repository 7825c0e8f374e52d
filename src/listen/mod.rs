//! `hookrt listen`: serves the stdio protocol. Requests without an id are answered in order,
//! one at a time (so a reload sees what an earlier hook wrote); requests with an id run
//! concurrently and may be answered out of order. `bye` and end of input finish what was
//! received; shutdown (SIGTERM/SIGINT) aborts running hooks.
//!
//! Input and output each have a plain thread (blocking reads and buffered writes cost far less
//! than async stdio per line); requests that run no hook — pings, errors, dispatches nothing
//! matches — are answered on the reader thread when no earlier request is still pending, so a
//! host's common case never touches the async machinery.

mod reader;

use crate::protocol::{self, Envelope, Request};
use crate::runtime::{DispatchError, Runtime};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Longest request line accepted; longer lines get an error and are skipped.
pub(crate) const MAX_LINE: usize = 64 * 1024 * 1024;
/// Answers buffered before the request loop waits for the writer.
const OUTPUT_QUEUE: usize = 8192;

/// How serving ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// `bye` or end of input.
    Finished,
    /// The shutdown token fired.
    Interrupted,
}

/// The answer line to one request.
async fn answer(rt: &Runtime, env: Envelope) -> String {
    let id = env.id.as_ref();
    match env.request {
        Err(e) => protocol::error_line(&e.to_string(), id),
        Ok(Request::Ping) => protocol::pong_line(id),
        Ok(Request::Bye) => protocol::bye_line(id),
        Ok(Request::Reload) => {
            let diags = rt.reload();
            protocol::reload_line(&diags, id)
        }
        Ok(Request::Dispatch(req)) => {
            let never = CancellationToken::new();
            match rt.dispatch(req, &never).await {
                Ok(r) => protocol::dispatch_line(&r, id, rt.options().policy.fidelity),
                Err(e @ (DispatchError::Aborted | DispatchError::Closed | DispatchError::UnknownEvent(_))) => {
                    protocol::error_line(&e.to_string(), id)
                }
            }
        }
    }
}

/// The answer to a request that runs no hook, computed without waiting; `None` when hooks
/// must run (or the config must be re-read).
pub(crate) fn immediate(rt: &Runtime, env: &Envelope) -> Option<String> {
    let id = env.id.as_ref();
    match &env.request {
        Err(e) => Some(protocol::error_line(&e.to_string(), id)),
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

/// Serves until `bye`, end of input or shutdown.
pub(crate) async fn serve<R, W>(rt: Arc<Runtime>, input: R, output: W, shutdown: CancellationToken) -> Ended
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (out_tx, out_rx) = std_mpsc::sync_channel::<String>(OUTPUT_QUEUE);
    let (writer_done_tx, writer_done) = oneshot::channel::<()>();
    std::thread::spawn(move || {
        write_loop(out_rx, output);
        let _ = writer_done_tx.send(());
    });
    let pending = Arc::new(AtomicUsize::new(0));
    let (serial_tx, serial_rx) = mpsc::unbounded_channel::<Envelope>();
    let serial = tokio::spawn(serial_lane(rt.clone(), serial_rx, out_tx.clone(), pending.clone(), shutdown.clone()));
    let tracker = TaskTracker::new();
    let lanes = reader::Lanes {
        rt: rt.clone(),
        out: out_tx.clone(),
        serial: serial_tx,
        pending,
        tracker: tracker.clone(),
        handle: tokio::runtime::Handle::current(),
        shutdown: shutdown.clone(),
    };
    let reader_done = reader::spawn(input, lanes);
    let mut interrupted = false;
    let bye = tokio::select! {
        biased;
        _ = shutdown.cancelled() => { interrupted = true; None }
        done = reader_done => done.ok().and_then(|d| d.bye),
    };
    let interrupted = finish(&rt, serial, tracker, &shutdown, interrupted).await;
    if let (Some(id), false) = (bye, interrupted) {
        let _ = out_tx.send(protocol::bye_line(id.as_ref()));
    }
    drop(out_tx);
    if interrupted {
        return Ended::Interrupted;
    }
    // The reader thread may still hold a sender (blocked in read after bye); the writer
    // flushes after every burst, so waiting for the queue to empty is enough.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer_done).await;
    Ended::Finished
}

/// Finishes what was received (aborted quickly after a shutdown); returns whether serving was
/// interrupted.
async fn finish(
    rt: &Runtime,
    serial: tokio::task::JoinHandle<()>,
    tracker: TaskTracker,
    shutdown: &CancellationToken,
    interrupted: bool,
) -> bool {
    if interrupted {
        rt.close();
    }
    tracker.close();
    let drain = async {
        let _ = serial.await;
        tracker.wait().await;
    };
    tokio::pin!(drain);
    tokio::select! {
        _ = &mut drain => interrupted,
        _ = shutdown.cancelled(), if !interrupted => {
            rt.close();
            drain.await;
            true
        }
    }
}

/// The in-order lane: requests without an id, one at a time, answers in arrival order.
async fn serial_lane(
    rt: Arc<Runtime>,
    mut rx: mpsc::UnboundedReceiver<Envelope>,
    out: std_mpsc::SyncSender<String>,
    pending: Arc<AtomicUsize>,
    shutdown: CancellationToken,
) {
    // After a shutdown the reader may sit in read(2) forever; stop taking requests.
    while let Some(env) = tokio::select! {
        biased;
        _ = shutdown.cancelled() => None,
        e = rx.recv() => e,
    } {
        let l = answer(&rt, env).await;
        let sent = out.send(l).is_ok();
        pending.fetch_sub(1, Ordering::SeqCst);
        if !sent {
            break;
        }
    }
}
