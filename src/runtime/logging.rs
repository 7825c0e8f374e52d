//! Logs go to stderr (stdout belongs to the protocol), filtered by `HOOKRT_LOG`.

use std::sync::Once;

/// Installs the stderr subscriber once; later calls do nothing.
pub(crate) fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fmt = tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).with_target(false);
        // Without HOOKRT_LOG a plain level: parsing filter directives is a visible part of a
        // one-shot command's start-up.
        let _ = match std::env::var("HOOKRT_LOG") {
            Ok(spec) => fmt
                .with_env_filter(
                    tracing_subscriber::EnvFilter::try_new(spec)
                        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
                )
                .try_init(),
            Err(_) => fmt.with_max_level(tracing::Level::WARN).try_init(),
        };
    });
}
