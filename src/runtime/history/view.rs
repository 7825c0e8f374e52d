//! `hookrt history`: reading history files back (skipping broken lines), filtering, the
//! terminal table, `--json`, and `--follow`.

use crate::runtime::history::{Record, RunRecord};
use std::io::{BufRead, Seek, Write};
use std::path::{Path, PathBuf};

/// What `hookrt history` selects.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filter {
    pub session: Option<String>,
    pub event: Option<String>,
    /// A substring of a hook id or file.
    pub hook: Option<String>,
    pub decision: Option<String>,
    pub limit: Option<usize>,
}

impl Filter {
    /// Whether a record is selected; with `hook` set, only its matching runs are kept.
    pub(crate) fn select(&self, mut r: Record) -> Option<Record> {
        if self.session.as_ref().is_some_and(|s| r.session_id.as_ref() != Some(s)) {
            return None;
        }
        if self.event.as_ref().is_some_and(|e| *e != r.event && *e != r.canonical) {
            return None;
        }
        if let Some(h) = &self.hook {
            r.runs.retain(|x| x.id.contains(h.as_str()) || x.file.contains(h.as_str()));
            if r.runs.is_empty() {
                return None;
            }
        }
        if let Some(d) = &self.decision {
            // Only the runs that answered so: `--decision deny` lists the denying hooks, not
            // the others of a denied dispatch.
            let had_runs = !r.runs.is_empty();
            r.runs.retain(|x| x.decision == *d);
            if r.runs.is_empty() && (had_runs || r.decision != *d) {
                return None;
            }
        }
        Some(r)
    }
}

/// The records of a history file (its rotated predecessor first), and how many lines were
/// skipped as broken.
pub fn read(path: &Path) -> (Vec<Record>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for p in [crate::runtime::history::rotated(path), path.to_path_buf()] {
        let Ok(f) = std::fs::File::open(&p) else { continue };
        for line in std::io::BufReader::new(f).split(b'\n').map_while(Result::ok) {
            parse_line(&line, &mut out, &mut skipped);
        }
    }
    (out, skipped)
}

fn parse_line(line: &[u8], out: &mut Vec<Record>, skipped: &mut usize) {
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    match serde_json::from_slice::<Record>(line) {
        Ok(r) => out.push(r),
        // `{"ts","dropped"}` lines are bookkeeping, not broken.
        Err(_) if serde_json::from_slice::<crate::runtime::history::Dropped>(line).is_ok() => {}
        Err(_) => *skipped += 1,
    }
}

/// Selects, then keeps the newest `limit`.
pub(crate) fn select(records: Vec<Record>, f: &Filter) -> Vec<Record> {
    let mut v: Vec<Record> = records.into_iter().filter_map(|r| f.select(r)).collect();
    if let Some(n) = f.limit {
        let drop = v.len().saturating_sub(n);
        v.drain(..drop);
    }
    v
}

/// The table header.
pub(crate) const HEADER: &str =
    "time                     event                      hook                                      decision  exit     ms  file  reason";

fn exit(r: &RunRecord) -> String {
    match (r.exit_code, r.timed_out) {
        (_, true) => "timeout".into(),
        (Some(c), _) => c.to_string(),
        (None, _) if r.error.is_some() => "error".into(),
        (None, _) => "-".into(),
    }
}

/// The reason column: the run's own reason, else its error, on one line.
fn reason(x: &RunRecord) -> String {
    let text = x.reason.as_deref().or(x.error.as_deref()).unwrap_or("");
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line,
    }
}

/// One table row per run (and per hook left out for trust); deny rows in red when `color`.
pub(crate) fn rows(r: &Record, color: bool) -> Vec<String> {
    let time = r.ts.get(..23).unwrap_or(&r.ts);
    // Where the dispatch came from, when known: `claude:PreToolUse`.
    let event = match &r.host {
        Some(h) => format!("{h}:{}", r.event),
        None => r.event.clone(),
    };
    let runs = r.runs.iter().map(|x| {
        let (ms, why) = (x.duration_ms.round() as u64, reason(x));
        let row =
            format!("{time:<24} {event:<26} {:<41} {:<9} {:>4} {ms:>6}  {}  {why}", x.id, x.decision, exit(x), x.file);
        if color && x.decision == "deny" {
            format!("\x1b[1;31m{row}\x1b[0m")
        } else {
            row
        }
    });
    let skipped = r.skipped.iter().map(|s| {
        format!("{time:<24} {event:<26} {:<41} {:<9} {:>4} {:>6}  {}  {}", s.command, "skipped", "-", 0, s.file, s.why)
    });
    runs.chain(skipped).map(|row| row.trim_end().to_owned()).collect()
}

/// Prints records as the table or as JSON lines.
pub(crate) fn print(out: &mut dyn Write, records: &[Record], json: bool, color: bool) -> std::io::Result<()> {
    for r in records {
        if json {
            writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default())?;
        } else {
            for row in rows(r, color) {
                writeln!(out, "{row}")?;
            }
        }
    }
    Ok(())
}

/// `--follow`: prints the lines appended to `path` from now on, like `tail -f`, reopening the
/// file when it is rotated (a shorter or missing file). Returns when `stop` is cancelled.
pub(crate) async fn follow(
    path: &Path,
    f: &Filter,
    (json, color): (bool, bool),
    out: &mut (dyn Write + Send),
    stop: &tokio_util::sync::CancellationToken,
) -> std::io::Result<()> {
    let open = |p: &PathBuf| -> Option<(std::fs::File, u64)> {
        let mut file = std::fs::File::open(p).ok()?;
        let end = file.seek(std::io::SeekFrom::End(0)).ok()?;
        Some((file, end))
    };
    let path = path.to_path_buf();
    let mut cur = open(&path);
    let mut pending: Vec<u8> = Vec::new();
    while !stop.is_cancelled() {
        if cur.is_none() {
            // The file appears later: read it from its beginning.
            cur = std::fs::File::open(&path).ok().map(|f| (f, 0));
        }
        if let Some((file, pos)) = cur.as_mut() {
            let mut buf = Vec::new();
            file.seek(std::io::SeekFrom::Start(*pos))?;
            std::io::Read::read_to_end(file, &mut buf)?;
            *pos += buf.len() as u64;
            pending.extend_from_slice(&buf);
            while let Some(i) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=i).collect();
                let (mut recs, mut skipped) = (Vec::new(), 0);
                parse_line(&line, &mut recs, &mut skipped);
                let sel: Vec<Record> = recs.into_iter().filter_map(|r| f.select(r)).collect();
                print(out, &sel, json, color)?;
                out.flush()?;
            }
            let len_now = std::fs::metadata(&path).map(|m| m.len()).ok();
            if len_now.is_none_or(|l| l < *pos) {
                // Rotated: finish the old file through the handle still open on it, then follow
                // the new file from its start.
                let mut rest = Vec::new();
                std::io::Read::read_to_end(file, &mut rest)?;
                pending.extend_from_slice(&rest);
                for line in pending.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                    let (mut recs, mut skipped) = (Vec::new(), 0);
                    parse_line(line, &mut recs, &mut skipped);
                    let sel: Vec<Record> = recs.into_iter().filter_map(|r| f.select(r)).collect();
                    print(out, &sel, json, color)?;
                }
                cur = None;
                pending.clear();
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(std::time::Duration::from_millis(100)) => {}
            _ = stop.cancelled() => {}
        }
    }
    Ok(())
}
