//! Entry points of the coverage-guided fuzz targets (`fuzz/`), shared with the test that replays
//! their committed corpora on stable Rust (`tests/it/corpus.rs`). Each takes arbitrary bytes and
//! checks the property of its parser: no panic, a defined result, and where two paths decode the
//! same input (the `listen` fast path and the full decoder), that they agree.

use crate::contract::decode::decode;
use crate::vocab::{CanonicalEvent, Decision, Dialect, Raw};
use std::path::Path;

/// The files whose parsers the config target drives; the first byte picks one. Each harness
/// names its own (`Reader::sample_paths`), in the registration table's order; the last file is
/// recognised by its content.
pub static CONFIG_FILES: std::sync::LazyLock<Vec<(&'static str, Option<Dialect>)>> = std::sync::LazyLock::new(|| {
    let own = crate::harness::HARNESSES.iter().flat_map(|h| h.sample_paths().iter().map(|p| (*p, Some(h.dialect()))));
    own.chain([("/x/hooks.json", None)]).collect()
});

/// Every dialect, for targets that pick one by a byte.
pub const DIALECTS: [Dialect; Dialect::COUNT] = Dialect::ALL;

/// A config file of any dialect: hooks and diagnostics, never a panic; every diagnostic names
/// its file; the file's JSON Schema type refuses it exactly when the loader reports an error.
pub fn config(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let (path, dialect) = CONFIG_FILES[pick as usize % CONFIG_FILES.len()];
    let text = String::from_utf8_lossy(rest);
    let (hooks, diags, read_as) = crate::load::parse_text_as(Path::new(path), dialect, &text);
    assert!(diags.iter().all(|d| d.file.as_deref() == Some(path)), "{diags:?}");
    if let Some(Some(verdict)) = read_as.map(|d| crate::load::schema_check::verdict(Path::new(path), d, &text)) {
        let errors: Vec<_> = diags.iter().filter(|d| d.severity == crate::vocab::Severity::Error).collect();
        assert_eq!(verdict.is_some(), !errors.is_empty(), "{read_as:?} schema {verdict:?}, loader {errors:?}");
    }
    for h in &hooks {
        let _ = h.identity();
        let _ = h.matcher.matches(Some("Bash"));
    }
}

/// A hook's output for any dialect, event and exit code: an exit-2 deny has a reason, the exit
/// code is kept, and the outcome serialises.
pub fn decoder(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let dialect = DIALECTS[data[0] as usize % DIALECTS.len()];
    let event = CanonicalEvent::ALL[data[1] as usize % CanonicalEvent::COUNT];
    let code = match data[2] {
        0 => None,
        b => Some(i32::from(b) - 3),
    };
    let text = String::from_utf8_lossy(&data[3..]);
    let (stdout, stderr) = text.split_once('\u{0}').unwrap_or((&text, ""));
    let o =
        decode(Raw { exit_code: code, stdout: stdout.into(), stderr: stderr.into(), truncated: false }, event, dialect);
    assert_eq!(o.exit_code, Some(code));
    // A JSON deny may come without a reason (the contract allows it); an exit-2 deny always
    // carries stderr or the default.
    if code == Some(2) && o.decision == Some(Decision::Deny) && o.stdout.is_empty() {
        assert!(o.reason.is_some());
    }
    let _ = serde_json::to_string(&o);
}

/// An LLM's answer to an oracle hook.
pub fn oracle(data: &[u8]) {
    let _ = crate::handler::oracle::parse_answer(&String::from_utf8_lossy(data));
}

/// A `listen` request line: the full decoder never panics, and when the fast path answers, the
/// full decoder accepts the same line with the same id.
pub fn protocol(data: &[u8]) {
    let env = crate::protocol::parse_line(data);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(quick) = crate::protocol::quick_answer(text, |_, _| false) {
        assert!(env.request.is_ok(), "quick answered {quick} but the full path says {:?}", env.request);
        let q: Result<serde_json::Value, _> = serde_json::from_str(&quick);
        assert!(q.is_ok(), "the fast path answered something that is not JSON: {quick}");
        if let Ok(q) = q {
            assert_eq!(q.get("id"), env.id.as_ref());
        }
    }
}

/// A Claude `if` permission rule, then a tool call against it (the rest of the bytes as the
/// tool input's `command` and `file_path`).
pub fn permission_rule(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (rule, input) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(r) = crate::config::if_rule::Rule::parse(rule) else { return };
    let mut m = serde_json::Map::new();
    m.insert("command".into(), input.into());
    m.insert("file_path".into(), input.into());
    m.insert("url".into(), input.into());
    for tool in ["Bash", "Read", "Edit", "WebFetch", "mcp__s__t"] {
        let _ = r.matches(&crate::config::if_rule::Call {
            tool_name: tool,
            tool_input: Some(&m),
            project_dir: Path::new("/p"),
            home: Path::new("/h"),
        });
    }
}

/// A worker's answer line: parsed or refused, and a parsed one becomes a run that decodes.
pub fn worker_answer(data: &[u8]) {
    if let Ok(a) = crate::handler::worker::wire::parse_answer(data) {
        let raw = a.into_raw(String::new);
        let _ = decode(raw, CanonicalEvent::ToolBefore, Dialect::CANONICAL);
    }
}

/// One fuzz target's entry point.
pub type Target = fn(&[u8]);

/// The targets by name, for the corpus replay.
pub const TARGETS: &[(&str, Target)] = &[
    ("config", config),
    ("decoder", decoder),
    ("oracle", oracle),
    ("protocol", protocol),
    ("permission_rule", permission_rule),
    ("worker_answer", worker_answer),
];
