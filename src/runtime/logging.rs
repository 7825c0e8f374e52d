//! Logs go to stderr (stdout belongs to the protocol), filtered by `HOOKRT_LOG`.

use std::sync::Once;

/// Installs the stderr subscriber once; later calls do nothing.
pub(crate) fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_env("HOOKRT_LOG")
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_target(false)
            .try_init();
    });
}
