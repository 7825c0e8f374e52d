//! `hookrt convert`: the hooks of one dialect's file written as another's. Events are mapped
//! through their canonical event (tool-class events such as Cursor's `beforeShellExecution`
//! become a matcher, and back), tool names through `harness::tools`, timeouts between seconds
//! and milliseconds; everything the target cannot say is a warning, never silently lost.

use crate::config::load::{load, LoadOptions};
use crate::config::{HandlerSpec, Hook, Severity};
use crate::dialect::Dialect;
use crate::event::{CanonicalEvent, ToolResult};
use crate::harness::tools::{self, ToolClass};
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
    /// `windsurf`, `native` (and, to read, `hermes` and `agents`).
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "codex-toml" | "toml" => Format::CodexToml,
            "codex-json" => Format::Dialect(Dialect::Codex),
            other => Format::Dialect(serde_json::from_value(Value::String(other.to_owned())).ok()?),
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
        match convert_hook(h, to.dialect()) {
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
    if !grouped(to) {
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

fn grouped(d: Dialect) -> bool {
    matches!(d, Dialect::Claude | Dialect::Codex | Dialect::Opencode | Dialect::Native | Dialect::Gemini)
}

fn write(to: Format, events: Map<String, Value>) -> String {
    let root = match to.dialect() {
        Dialect::Native => json!({"version": 1, "events": events}),
        Dialect::Cursor | Dialect::Copilot => json!({"version": 1, "hooks": events}),
        _ => json!({"hooks": events}),
    };
    if to == Format::CodexToml {
        return toml::to_string_pretty(&root).unwrap_or_default();
    }
    serde_json::to_string_pretty(&root).unwrap_or_default() + "\n"
}

type Parts = (String, Option<String>, Map<String, Value>, Vec<String>);

/// One hook as the target writes it: event name, matcher, entry object, warnings.
fn convert_hook(h: &Hook, to: Dialect) -> Result<Parts, String> {
    let mut warns = Vec::new();
    // The matcher in Claude's tool names; a tool-class event is the class's matcher.
    let mut matcher = h.matcher_text.clone().filter(|m| !crate::matcher::Matcher::is_match_all(m));
    if h.dialect == Dialect::Copilot {
        matcher = matcher.map(|m| if is_name_list(&m) { m } else { format!("^(?:{m})$") });
    }
    matcher = matcher.map(|m| rename_tools(&m, None, &mut warns, h.dialect));
    if let Some(class) = h.harness.class {
        if matcher.is_some() {
            warns.push("a matcher on a tool-class event is dropped".into());
        }
        matcher = Some(tools::class_matcher(class).to_owned());
    }
    let (event, class_event) = event_name(h, to, matcher.as_deref(), &mut warns)?;
    if class_event {
        matcher = None;
    }
    if let Some(m) = &matcher {
        if !takes_matcher(to, h.canonical, &event) {
            warns.push(format!(
                "{event} takes no matcher in {}; {} dropped",
                to.as_str(),
                crate::config::groups::quote(m)
            ));
            matcher = None;
        }
    }
    let matcher = matcher.map(|m| rename_tools(&m, Some(to), &mut warns, h.dialect));
    let entry = entry(h, to, &mut warns)?;
    Ok((event, matcher, entry, warns))
}

fn is_name_list(m: &str) -> bool {
    !m.is_empty()
        && m.split('|').all(|t| !t.trim().is_empty() && t.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// Renames the tool names of a `A|B` matcher to Claude's (`to: None`) or the target's names;
/// a regex is kept as written, with a warning when it may name tools the target spells
/// differently.
fn rename_tools(m: &str, to: Option<Dialect>, warns: &mut Vec<String>, from: Dialect) -> String {
    if !is_name_list(m) {
        let differs =
            to.is_some_and(|t| crate::harness::HARNESSES.contains(&t)) || crate::harness::HARNESSES.contains(&from);
        if to.is_some() && differs {
            warns.push(format!(
                "regex matcher {} copied as written; tool names may differ",
                crate::config::groups::quote(m)
            ));
        }
        return m.to_owned();
    }
    let names: Vec<&str> = m
        .split('|')
        .map(str::trim)
        .map(|n| match to {
            None => tools::claude_name(n),
            Some(d) if crate::harness::HARNESSES.contains(&d) => tools::spelling(d, n).unwrap_or(n),
            Some(_) => n,
        })
        .collect();
    let mut unique: Vec<&str> = Vec::new();
    for n in names {
        if !unique.contains(&n) {
            unique.push(n);
        }
    }
    unique.join("|")
}

fn takes_matcher(to: Dialect, canonical: CanonicalEvent, event: &str) -> bool {
    match to {
        Dialect::Windsurf => false,
        d if crate::harness::HARNESSES.contains(&d) => d.harness_event(event).is_some_and(|e| e.matcher),
        _ => canonical.has_subject(),
    }
}

/// The target's event name; `true` when it is a tool-class event standing for the matcher.
fn event_name(h: &Hook, to: Dialect, matcher: Option<&str>, warns: &mut Vec<String>) -> Result<(String, bool), String> {
    let (c, r) = (h.canonical, h.tool_result);
    let missing = || format!("{} has no {} event", to.as_str(), c.as_str());
    // Cursor and Windsurf hook a class of tools by event name.
    if matches!(to, Dialect::Cursor | Dialect::Windsurf)
        && matches!(c, CanonicalEvent::ToolBefore | CanonicalEvent::ToolAfter)
    {
        let class = matcher.and_then(class_of_matcher);
        let by_class = crate::harness::events(to)
            .unwrap_or_default()
            .iter()
            .find(|e| e.canonical == c && e.class.is_some() && e.class == class);
        if let Some(e) = by_class {
            let full = e.class.map(tools::class_matcher).unwrap_or_default();
            if matcher != Some(full) {
                warns.push(format!(
                    "matcher {:?} widened to every tool {} hooks ({full})",
                    matcher.unwrap_or("*"),
                    e.name
                ));
            }
            return Ok((e.name.to_owned(), true));
        }
        if to == Dialect::Windsurf {
            return Err(format!(
                "Windsurf hooks only shell, read, write and MCP tool calls; matcher {:?} is none of those",
                matcher.unwrap_or("*")
            ));
        }
    }
    let name = match to {
        Dialect::Claude | Dialect::Codex => {
            let ok = c.in_claude() && (to == Dialect::Claude || c.in_codex());
            if !ok {
                return Err(missing());
            }
            match (c, r) {
                (CanonicalEvent::ToolAfter, ToolResult::Failure) if to == Dialect::Codex => {
                    warns.push(
                        "Codex has no PostToolUseFailure; written as PostToolUse (runs after every tool call)".into(),
                    );
                    "PostToolUse".to_owned()
                }
                (CanonicalEvent::ToolAfter, ToolResult::Failure) => "PostToolUseFailure".to_owned(),
                (CanonicalEvent::ToolAfter, ToolResult::Either)
                    if to == Dialect::Claude && h.dialect != Dialect::Codex =>
                {
                    warns.push("PostToolUse runs only after successful tool calls in Claude Code".into());
                    "PostToolUse".to_owned()
                }
                _ => c.claude_name().to_owned(),
            }
        }
        Dialect::Opencode => c.opencode_name().ok_or_else(missing)?.to_owned(),
        Dialect::Native => c.as_str().to_owned(),
        Dialect::Hermes | Dialect::Agents => return Err(format!("converting to {} is not supported", to.as_str())),
        d => crate::harness::name_for(d, c, r)
            .or_else(|| crate::harness::name_for(d, c, ToolResult::Either))
            .or_else(|| crate::harness::name_for(d, c, ToolResult::Success))
            .ok_or_else(missing)?
            .to_owned(),
    };
    Ok((name, false))
}

fn class_of_matcher(m: &str) -> Option<ToolClass> {
    [ToolClass::Shell, ToolClass::Read, ToolClass::Write, ToolClass::Mcp].into_iter().find(|c| {
        let names: Vec<&str> = tools::class_matcher(*c).split('|').collect();
        m == tools::class_matcher(*c)
            || (is_name_list(m) && m.split('|').all(|t| names.contains(&tools::claude_name(t.trim()))))
    })
}

/// The hook's entry object in the target's field names.
fn entry(h: &Hook, to: Dialect, warns: &mut Vec<String>) -> Result<Map<String, Value>, String> {
    let mut e = Map::new();
    let (command, args, worker) = match &h.handler {
        HandlerSpec::Shell { command, args, .. } => (command, args, false),
        HandlerSpec::Worker { command, args, .. } => (command, args, true),
        other if matches!(to, Dialect::Claude | Dialect::Codex) => {
            let mut v = serde_json::to_value(other).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                let kind = o.remove("kind");
                let ty = match kind.as_ref().and_then(Value::as_str) {
                    Some("oracle") => "prompt",
                    Some("proxy") => "agent",
                    Some("webhook") | Some("http") => "http",
                    Some(k) => k,
                    None => "command",
                };
                e.insert("type".into(), json!(ty));
                e.extend(o.clone());
            }
            add_timeout(&mut e, h, to, warns);
            return Ok(e);
        }
        other => return Err(format!("{} hooks cannot be written as {}", other.kind().as_str(), to.as_str())),
    };
    if worker && !matches!(to, Dialect::Claude | Dialect::Codex | Dialect::Native) {
        warns.push("worker: written as a plain command hook".into());
    }
    match to {
        Dialect::Copilot => {
            e.insert("type".into(), json!("command"));
            match args {
                Some(a) => {
                    e.insert("exec".into(), json!(command));
                    e.insert("args".into(), json!(a));
                }
                None => {
                    e.insert("bash".into(), json!(command));
                }
            }
        }
        Dialect::Cursor | Dialect::Windsurf => {
            e.insert("command".into(), json!(shell_line(command, args.as_deref(), warns)));
        }
        Dialect::Native => {
            e.insert("type".into(), json!(if worker { "worker" } else { "shell" }));
            e.insert("command".into(), json!(command));
            if let Some(a) = args {
                e.insert("args".into(), json!(a));
            }
        }
        Dialect::Gemini | Dialect::Opencode => {
            e.insert("type".into(), json!("command"));
            e.insert("command".into(), json!(shell_line(command, args.as_deref(), warns)));
            if let (Dialect::Gemini, Some(n)) = (to, &h.harness.name) {
                e.insert("name".into(), json!(n));
            }
        }
        _ => {
            e.insert("type".into(), json!("command"));
            e.insert("command".into(), json!(command));
            if let Some(a) = args {
                e.insert("args".into(), json!(a));
            }
            if worker {
                e.insert("worker".into(), json!(true));
            }
        }
    }
    add_timeout(&mut e, h, to, warns);
    if h.fail_closed {
        match to {
            Dialect::Cursor | Dialect::Claude | Dialect::Codex | Dialect::Native => {
                e.insert("failClosed".into(), json!(true));
            }
            _ => warns.push(format!("failClosed cannot be expressed in {}", to.as_str())),
        }
    }
    if !h.enabled {
        warns.push("disabled hook converted as enabled".into());
    }
    Ok(e)
}

/// An exec-form command as one shell line (quoted) for targets without `args`.
fn shell_line(command: &str, args: Option<&[String]>, warns: &mut Vec<String>) -> String {
    match args {
        None => command.to_owned(),
        Some(a) => {
            warns.push("exec form written as a shell command line".into());
            let mut words = vec![command.to_owned()];
            words.extend(a.iter().cloned());
            shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
        }
    }
}

fn add_timeout(e: &mut Map<String, Value>, h: &Hook, to: Dialect, warns: &mut Vec<String>) {
    let Some(secs) = h.timeout else { return };
    let num = |x: f64| if x.fract() == 0.0 { json!(x as i64) } else { json!(x) };
    match to {
        Dialect::Gemini => {
            e.insert("timeout".into(), num((secs * 1000.0).round()));
        }
        Dialect::Copilot => {
            e.insert("timeoutSec".into(), num(secs));
        }
        Dialect::Windsurf => warns.push(format!("timeout {secs} s cannot be expressed in Windsurf")),
        _ => {
            e.insert("timeout".into(), num(secs));
        }
    }
}
