//! `hookrt listen`: serves the stdio protocol. Requests without an id are answered in order,
//! one at a time (so a reload sees what an earlier hook wrote); requests with an id run
//! concurrently and may be answered out of order. `bye` and end of input finish what was
//! received; shutdown (SIGTERM/SIGINT) aborts running hooks.

use crate::protocol::{self, Envelope, Request};
use crate::runtime::{DispatchError, Runtime};
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Semaphore};
use tokio_util::sync::CancellationToken;

/// Longest request line accepted; longer lines get an error and are skipped.
pub const MAX_LINE: usize = 64 * 1024 * 1024;
/// Most id-tagged requests in flight; reading pauses beyond this.
const MAX_CONCURRENT: usize = 4096;

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

/// Reads one line into `buf` (without the newline). `Ok(false)` at end of input; a line over
/// [`MAX_LINE`] is drained and reported as `Err(())`.
async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Result<bool, ()>> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = r.fill_buf().await?;
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

/// Serves until `bye`, end of input or shutdown.
pub async fn serve<R, W>(rt: Arc<Runtime>, mut input: R, output: W, shutdown: CancellationToken) -> Ended
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out_tx, mut out_rx) = mpsc::channel::<String>(1024);
    let writer = tokio::spawn(async move {
        let mut w = tokio::io::BufWriter::with_capacity(64 * 1024, output);
        while let Some(mut l) = out_rx.recv().await {
            l.push('\n');
            if w.write_all(l.as_bytes()).await.is_err() {
                break;
            }
            if out_rx.is_empty() && w.flush().await.is_err() {
                break;
            }
        }
        let _ = w.flush().await;
    });

    // In-order lane: one request at a time, answers in arrival order.
    let (serial_tx, mut serial_rx) = mpsc::channel::<Envelope>(1024);
    let serial = {
        let rt = rt.clone();
        let out = out_tx.clone();
        tokio::spawn(async move {
            while let Some(env) = serial_rx.recv().await {
                let l = answer(&rt, env).await;
                if out.send(l).await.is_err() {
                    break;
                }
            }
        })
    };

    let slots = Arc::new(Semaphore::new(MAX_CONCURRENT));
    let mut tasks = tokio::task::JoinSet::new();
    let mut buf = Vec::new();
    let mut bye: Option<Option<Value>> = None;
    let mut interrupted = false;
    loop {
        let got = tokio::select! {
            biased;
            _ = shutdown.cancelled() => { interrupted = true; break; }
            r = read_line(&mut input, &mut buf) => r,
        };
        let line_ok = match got {
            Err(_) | Ok(Ok(false)) => break,
            Ok(Err(())) => Err(()),
            Ok(Ok(true)) => Ok(()),
        };
        let env = match line_ok {
            Err(()) => Envelope { id: None, request: Err(format!("request is too large (over {MAX_LINE} bytes)")) },
            Ok(()) => {
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                protocol::parse_line(&buf)
            }
        };
        if matches!(env.request, Ok(Request::Bye)) {
            bye = Some(env.id);
            break;
        }
        if env.id.is_some() {
            let Ok(permit) = slots.clone().acquire_owned().await else { break };
            let rt = rt.clone();
            let out = out_tx.clone();
            tasks.spawn(async move {
                let l = answer(&rt, env).await;
                let _ = out.send(l).await;
                drop(permit);
            });
            while tasks.try_join_next().is_some() {}
        } else if serial_tx.send(env).await.is_err() {
            break;
        }
    }
    drop(serial_tx);
    if interrupted {
        rt.close();
    }
    // Finish what was received (aborted quickly after a shutdown).
    let drain = async {
        let _ = serial.await;
        while tasks.join_next().await.is_some() {}
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
            let _ = out_tx.send(protocol::bye_line(id.as_ref())).await;
        }
    }
    drop(out_tx);
    let _ = writer.await;
    if interrupted {
        Ended::Interrupted
    } else {
        Ended::Finished
    }
}
