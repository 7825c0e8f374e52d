//! `hookrt history`: the table (newest last), JSON lines, a live tail, or the timeline page.

use crate::cli::Io;
use crate::runtime::history::{self, view};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use tokio_util::sync::CancellationToken;

/// `hookrt history`: the table, JSON lines, `--follow` or `--html`.
pub(crate) async fn history(
    file: Option<PathBuf>,
    flag: Option<PathBuf>,
    filter: &view::Filter,
    (follow, json, html): (bool, bool, Option<PathBuf>),
    io: Io<'_>,
    shutdown: &CancellationToken,
) -> i32 {
    let file = file.or(flag).or_else(|| std::env::var_os("HOOKRT_HISTORY").map(PathBuf::from));
    let Some(file) = file else {
        let _ = writeln!(
            io.err,
            "hookrt: no history file: pass --file, --history or set HOOKRT_HISTORY (`hookrt hook` writes ~/.local/state/hookrt/history.jsonl)"
        );
        return 1;
    };
    if follow {
        let _ = writeln!(io.err, "following {} (Ctrl-C to stop)", file.display());
        let color = !json && std::io::stdout().is_terminal();
        return match view::follow(&file, filter, (json, color), io.out, shutdown).await {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: {e}");
                1
            }
        };
    }
    show(&file, filter, (json, html), io)
}

/// The table, JSON lines, or the timeline page of what the file holds.
fn show(file: &Path, filter: &view::Filter, (json, html): (bool, Option<PathBuf>), io: Io<'_>) -> i32 {
    let color = !json && std::io::stdout().is_terminal();
    if !file.exists() && !history::rotated(file).exists() {
        let _ = writeln!(io.err, "hookrt: no history at {}", file.display());
        return 1;
    }
    let (records, skipped) = view::read(file);
    if skipped > 0 {
        let _ = writeln!(io.err, "hookrt: skipped {skipped} broken line(s) in {}", file.display());
    }
    let records = view::select(records, filter);
    if let Some(out) = html {
        return match std::fs::write(&out, history::html::page(&records)) {
            Ok(()) => {
                let runs: usize = records.iter().map(|r| r.runs.len()).sum();
                let _ = writeln!(io.err, "wrote {} ({} dispatch(es), {runs} run(s))", out.display(), records.len());
                0
            }
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: cannot write {}: {e}", out.display());
                1
            }
        };
    }
    if !json {
        let _ = writeln!(io.out, "{}", view::HEADER);
    }
    match view::print(io.out, &records, json, color) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}
