//! `hookrt listen` and `hookrt run`.

use crate::cli::Io;
use crate::listen::{self, Ended};
use crate::runtime::{DispatchRequest, Runtime};
use crate::vocab::Decision;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Serves the JSON-lines protocol on stdin/stdout until `bye`, end of input or a signal.
pub(crate) async fn listen(rt: Arc<Runtime>, shutdown: CancellationToken) -> i32 {
    rt.warm_workers().await;
    let ended = listen::serve(rt, std::io::stdin(), std::io::stdout(), shutdown).await;
    // Every request is answered: no worker may outlive the server.
    crate::handler::worker::kill_all_now();
    match ended {
        Ended::Finished => 0,
        Ended::Interrupted => 130,
    }
}

/// Dispatches one event and prints `{outcome, runs, canonical}`; exit 2 on deny.
pub(crate) async fn run(
    rt: &Runtime,
    event: String,
    payload: Option<String>,
    subject: Option<String>,
    shutdown: &CancellationToken,
    io: Io<'_>,
) -> i32 {
    let payload = match read_payload(payload.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    let req = DispatchRequest { event, payload, subject, cwd: None, progress: None, env: None };
    match rt.dispatch(req, shutdown).await {
        Ok(r) => {
            let v = serde_json::json!({"outcome": r.outcome, "runs": r.runs, "canonical": r.canonical});
            let _ = writeln!(io.out, "{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            if r.outcome.decision == Decision::Deny {
                2
            } else {
                0
            }
        }
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            1
        }
    }
}

/// Why `--payload` gave no payload.
#[derive(Debug, thiserror::Error)]
enum PayloadError {
    #[error("cannot read the payload from stdin: {0}")]
    Stdin(std::io::Error),
    #[error("cannot read the payload file {0}: {1}")]
    File(String, std::io::Error),
    #[error("the payload must be a JSON object")]
    NotObject,
    #[error("the payload is not valid JSON: {0}")]
    NotJson(serde_json::Error),
}

fn read_payload(arg: Option<&str>) -> Result<serde_json::Map<String, serde_json::Value>, PayloadError> {
    let text = match arg {
        None => return Ok(Default::default()),
        Some("-") => {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(PayloadError::Stdin)?;
            s
        }
        Some(f) => std::fs::read_to_string(f).map_err(|e| PayloadError::File(f.to_owned(), e))?,
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(o)) => Ok(o),
        Ok(_) => Err(PayloadError::NotObject),
        Err(e) => Err(PayloadError::NotJson(e)),
    }
}
