//! The napi layer: conversions and cancellation only. Payloads and results cross the
//! boundary as JSON strings (cheaper than property-by-property conversion); the JS wrapper
//! (`wrapper.js`) turns them into objects and maps AbortSignals onto [`CancelToken`]s.

use crate::options::RuntimeOptions;
use crate::runtime::{DispatchError, DispatchRequest, Runtime};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// A cancellation handle the JS wrapper fires when the host's AbortSignal aborts.
#[napi]
pub struct CancelToken {
    inner: CancellationToken,
}

#[napi]
impl CancelToken {
    #[napi(constructor)]
    pub fn new() -> Self {
        CancelToken { inner: CancellationToken::new() }
    }

    /// Kills every hook process of the dispatches holding this token.
    #[napi(catch_unwind)]
    pub fn cancel(&self) {
        self.inner.cancel();
    }
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

/// The native runtime behind `createRuntime`; use the wrapper's `HookRuntime` instead.
#[napi]
pub struct NativeRuntime {
    inner: Arc<Runtime>,
}

fn to_napi(e: DispatchError) -> Error {
    match e {
        DispatchError::Aborted => Error::new(Status::Cancelled, e.to_string()),
        DispatchError::UnknownEvent(_) => Error::new(Status::InvalidArg, e.to_string()),
        DispatchError::Closed => Error::new(Status::GenericFailure, e.to_string()),
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

#[napi]
impl NativeRuntime {
    /// Creates a runtime from options JSON; bad config files only produce diagnostics.
    #[napi(constructor, catch_unwind)]
    pub fn new(options_json: String) -> Result<Self> {
        crate::logging::init();
        let opts: RuntimeOptions = serde_json::from_str(&options_json)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid runtime options: {e}")))?;
        let rt = Runtime::new(&opts).map_err(|e| Error::new(Status::InvalidArg, e))?;
        Ok(NativeRuntime { inner: Arc::new(rt) })
    }

    /// Diagnostics of the current configuration, as JSON.
    #[napi(catch_unwind)]
    pub fn diagnostics_json(&self) -> String {
        json(&self.inner.loaded().diagnostics)
    }

    /// Files read, as JSON.
    #[napi(catch_unwind)]
    pub fn sources_json(&self) -> String {
        json(&self.inner.loaded().sources)
    }

    /// The merged effective configuration, as JSON.
    #[napi(catch_unwind)]
    pub fn dump_json(&self) -> String {
        json(&self.inner.dump())
    }

    /// Whether any hook would run for this event and subject (false for unknown events).
    #[napi(catch_unwind)]
    pub fn any_match(&self, event: String, subject: Option<String>) -> bool {
        !self.inner.is_closed() && self.inner.any_match(&event, subject.as_deref()).unwrap_or(false)
    }

    /// Runs the matching hooks; resolves to the result JSON. Rejects with code `Cancelled`
    /// when the token fires.
    #[napi]
    pub async fn dispatch_json(
        &self,
        event: String,
        payload_json: String,
        subject: Option<String>,
        cwd: Option<String>,
        token: Option<&CancelToken>,
    ) -> Result<String> {
        let payload = match serde_json::from_str::<serde_json::Value>(&payload_json) {
            Ok(serde_json::Value::Object(m)) => m,
            Ok(serde_json::Value::Null) => Default::default(),
            _ => return Err(Error::new(Status::InvalidArg, "payload must be a JSON object")),
        };
        let cancel = token.map(|t| t.inner.clone()).unwrap_or_default();
        let req = DispatchRequest { event, payload, subject, cwd };
        let rt = self.inner.clone();
        rt.dispatch(req, &cancel).await.map(|r| json(&r)).map_err(to_napi)
    }

    /// Re-reads configuration; resolves to the diagnostics JSON.
    #[napi]
    pub async fn reload(&self) -> Result<String> {
        let rt = self.inner.clone();
        let diags = tokio::task::spawn_blocking(move || rt.reload())
            .await
            .map_err(|e| Error::from_reason(format!("reload failed: {e}")))?;
        Ok(json(&diags))
    }

    /// Aborts running hooks; later dispatches reject.
    #[napi(catch_unwind)]
    pub fn close(&self) {
        self.inner.close();
    }
}

/// `{canonical, subjectKeys}` for a dispatch name, or null when no dialect spells it so.
#[napi(catch_unwind)]
pub fn event_info(event: String) -> Option<String> {
    let ev = Runtime::resolve_event(&event).ok()?;
    Some(json(&serde_json::json!({
        "canonical": ev.canonical,
        "subjectKeys": ev.canonical.subject_keys(),
        "subjectBasename": ev.canonical.subject().basename,
    })))
}

fn cli_token() -> &'static Mutex<Option<CancellationToken>> {
    static T: std::sync::OnceLock<Mutex<Option<CancellationToken>>> = std::sync::OnceLock::new();
    T.get_or_init(|| Mutex::new(None))
}

/// Runs the `hookrt` command line (arguments without the program name); resolves to the
/// exit code.
#[napi]
pub async fn run_cli(argv: Vec<String>) -> i32 {
    let token = CancellationToken::new();
    if let Ok(mut g) = cli_token().lock() {
        *g = Some(token.clone());
    }
    crate::cli::main(argv, token).await
}

/// Stops a running `run_cli` (SIGTERM/SIGINT): hooks are killed and it resolves promptly.
#[napi(catch_unwind)]
pub fn stop_cli() {
    if let Ok(g) = cli_token().lock() {
        if let Some(t) = g.as_ref() {
            t.cancel();
        }
    }
}
