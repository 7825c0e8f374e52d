//! `hookrt convert`: the hooks of one dialect's file written as another's. Events are mapped
//! through their canonical event (tool-class events such as Cursor's `beforeShellExecution`
//! become a matcher, and back), tool names through `harness::tools`, timeouts between seconds
//! and milliseconds; everything the target cannot say is a warning, never silently lost.

mod entry;
mod event;

/// Why one hook is not converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NotConverted {
    #[error("{to} has no {event} event")]
    NoEvent { to: &'static str, event: &'static str },
    #[error("converting to {0} is not supported")]
    Target(&'static str),
    #[error("{kind} hooks cannot be written as {to}")]
    Handler { kind: &'static str, to: &'static str },
    #[error("Windsurf hooks only shell, read, write and MCP tool calls; matcher {0:?} is none of those")]
    NoToolClass(String),
}

use crate::config::Hook;
use crate::load::{load, LoadOptions};
use crate::vocab::{Dialect, Severity};
use serde_json::{json, Map, Value};
use std::path::Path;

/// A file format `convert` reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A dialect's JSON (or YAML for Hermes, read only) file.
    Dialect(Dialect),
    /// Codex `config.toml` `[[hooks.Event]]` tables.
    CodexToml,
}

impl Format {
    /// `claude`, `codex` (hooks.json), `codex-toml`, `opencode`, `gemini`, `cursor`, `copilot`,
    /// `windsurf`, `qwen`, `droid`, `native` (and, to read, `hermes` and `agents`).
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "codex-toml" | "toml" => Format::CodexToml,
            "codex-json" => Format::Dialect(Dialect::Codex),
            other => Format::Dialect(Dialect::parse(other)?),
        })
    }

    fn dialect(self) -> Dialect {
        match self {
            Format::Dialect(d) => d,
            Format::CodexToml => Dialect::Codex,
        }
    }

    /// A file name the loader recognises for this format (for input read from stdin).
    pub fn file_name(self) -> &'static str {
        match self {
            Format::CodexToml => "config.toml",
            Format::Dialect(Dialect::Hermes) => "config.yaml",
            Format::Dialect(Dialect::Opencode) => "opencode.json",
            Format::Dialect(Dialect::Qwen) => "settings.json",
            Format::Dialect(Dialect::Auggie) => "settings.json",
            Format::Dialect(_) => "hooks.json",
        }
    }
}

/// The converted file, the warnings, and how many hooks made it.
#[derive(Debug, Default)]
pub struct Converted {
    pub text: String,
    pub warnings: Vec<String>,
    pub converted: usize,
    pub read: usize,
}

/// Reads `path` as `from` and writes its hooks as `to`.
pub fn convert_file(path: &Path, from: Format, to: Format) -> Converted {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let loaded = load(&LoadOptions {
        home: dir.clone(),
        cwd: dir.clone(),
        system_dir: dir,
        config_path: Some(path.to_path_buf()),
        dialect: Some(from.dialect()),
        discover: Some(false),
        accept_hooks: true,
        ..Default::default()
    });
    let mut out = Converted::default();
    for d in loaded.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        out.warnings.push(format!("{}: {}", d.event.as_deref().unwrap_or("file"), d.message));
    }
    let hooks: Vec<&Hook> = loaded.table.hooks().iter().map(|h| h.as_ref()).collect();
    out.read = hooks.len();
    let mut events: Map<String, Value> = Map::new();
    for h in hooks {
        match event::convert_hook(h, to.dialect()) {
            Ok((event, matcher, entry, warns)) => {
                out.warnings.extend(warns.into_iter().map(|w| format!("{}: {w}", h.id)));
                push(&mut events, to.dialect(), &event, matcher, entry);
                out.converted += 1;
            }
            Err(w) => out.warnings.push(format!("{}: {w}; not converted", h.id)),
        }
    }
    out.text = write(to, events);
    out
}

/// Adds an entry under its event: grouped by matcher where the target has groups.
fn push(
    events: &mut Map<String, Value>,
    to: Dialect,
    event: &str,
    matcher: Option<String>,
    mut entry: Map<String, Value>,
) {
    let list = events.entry(event.to_owned()).or_insert_with(|| json!([])).as_array_mut();
    let Some(list) = list else { return };
    if !grouped(to, event) {
        if let Some(m) = matcher {
            entry.insert("matcher".into(), Value::String(m));
        }
        list.push(Value::Object(entry));
        return;
    }
    let m = matcher.map(Value::String);
    let same = |g: &Value| g.get("matcher") == m.as_ref();
    if let Some(Value::Object(g)) = list.last_mut().filter(|g| same(g)) {
        if let Some(Value::Array(hs)) = g.get_mut("hooks") {
            hs.push(Value::Object(entry));
            return;
        }
    }
    let mut g = Map::new();
    if let Some(m) = m {
        g.insert("matcher".into(), m);
    }
    g.insert("hooks".into(), json!([entry]));
    list.push(Value::Object(g));
}

fn grouped(d: Dialect, event: &str) -> bool {
    // Antigravity groups only its tool events' handlers.
    if d == Dialect::Antigravity {
        return matches!(event, "PreToolUse" | "PostToolUse");
    }
    matches!(
        d,
        Dialect::Claude
            | Dialect::Codex
            | Dialect::Opencode
            | Dialect::Native
            | Dialect::Gemini
            | Dialect::Qwen
            | Dialect::Droid
            | Dialect::Auggie
    )
}

/// Kiro's v1 file: one named entry per hook, its command as a `command` action.
fn kiro_file(events: Map<String, Value>) -> Value {
    let mut hooks = Vec::new();
    for (event, list) in &events {
        for (i, e) in list.as_array().into_iter().flatten().enumerate() {
            let mut h = Map::new();
            h.insert("name".into(), json!(format!("{event}-{}", i + 1)));
            h.insert("trigger".into(), json!(event));
            if let Some(m) = e.get("matcher") {
                h.insert("matcher".into(), m.clone());
            }
            h.insert("action".into(), json!({"type": "command", "command": e.get("command")}));
            if let Some(t) = e.get("timeout") {
                h.insert("timeout".into(), t.clone());
            }
            hooks.push(Value::Object(h));
        }
    }
    json!({"version": "v1", "hooks": hooks})
}

fn write(to: Format, events: Map<String, Value>) -> String {
    let root = match to.dialect() {
        Dialect::Native => json!({"version": 1, "events": events}),
        Dialect::Cursor | Dialect::Copilot => json!({"version": 1, "hooks": events}),
        // Droid's hooks.json holds the events at its root.
        Dialect::Droid => Value::Object(events),
        // One named hook.
        Dialect::Antigravity => json!({"hookrt": events}),
        Dialect::Kiro => kiro_file(events),
        _ => json!({"hooks": events}),
    };
    if to == Format::CodexToml {
        return toml::to_string_pretty(&root).unwrap_or_default();
    }
    serde_json::to_string_pretty(&root).unwrap_or_default() + "\n"
}
