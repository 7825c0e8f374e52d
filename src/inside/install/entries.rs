//! Each harness's file for a scope, the entry that calls hookrt in that file's own shape, and
//! the trust step for those entries:
//! - Claude Code `.claude/settings.json`, Codex `.codex/hooks.json`, Gemini CLI
//!   `.gemini/settings.json`: `hooks.<Event>[] = {hooks: [{type: "command", command, timeout}]}`
//!   (no matcher: every tool), Gemini's timeout in milliseconds;
//! - Copilot CLI `.github/hooks/hookrt.json`: `{version: 1, hooks: {<event>: [{type, bash,
//!   timeoutSec}]}}`, camelCase events (its stdin does not name them, so the entry does);
//! - Hermes `$HERMES_HOME/config.yaml`: `hooks.<event>[] = {command, timeout}` (user scope only).
//!
//! Trust: Codex runs a hook only under a `[hooks.state."<file>:<event>:<group>:<handler>"]`
//! `trusted_hash` in `$CODEX_HOME/config.toml` — written for hookrt's entries alone, between
//! marker lines; Hermes only when the (event, command) pair is in its allowlist.

use crate::harness::codex::trust::{current_hash, snake};
use crate::harness::{codex, copilot, hermes};
use crate::inside::host_name;
use crate::inside::install::{Change, InstallError, InstallScope, Target};
use crate::vocab::{CanonicalEvent as E, Dialect};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The events whose answers hookrt can say in every harness's terms.
const ROUTED: &[E] = &[
    E::SessionStart,
    E::SessionEnd,
    E::PromptSubmit,
    E::ToolBefore,
    E::ToolAfter,
    E::TurnStop,
    E::SubagentStart,
    E::SubagentEnd,
    E::Notice,
    E::CompactBefore,
    E::PermissionRequest,
];

/// How long a harness gives hookrt (seconds); `hookrt hook` answers a little before.
pub(crate) const TIMEOUT_SECS: u64 = 600;

const BEGIN: &str = "# hookrt install: begin (trust for hookrt's own hooks; `hookrt uninstall codex` removes it)";
const END: &str = "# hookrt install: end";

/// The harness's hook file for a scope.
pub(crate) fn hook_file(h: Dialect, scope: InstallScope, t: &Target) -> Result<PathBuf, InstallError> {
    let project = scope == InstallScope::Project;
    Ok(match h {
        Dialect::Claude if project => t.cwd.join(".claude/settings.json"),
        Dialect::Claude => t.home.join(".claude/settings.json"),
        Dialect::Codex if project => t.cwd.join(".codex/hooks.json"),
        Dialect::Codex => t.homes.resolve(&t.home, codex::HOME).join("hooks.json"),
        Dialect::Gemini if project => t.cwd.join(".gemini/settings.json"),
        Dialect::Gemini => t.home.join(".gemini/settings.json"),
        Dialect::Copilot if project => t.cwd.join(".github/hooks/hookrt.json"),
        Dialect::Copilot => t.homes.resolve(&t.home, copilot::HOME).join("hooks/hookrt.json"),
        Dialect::Hermes if !project => hermes_home(t).join("config.yaml"),
        Dialect::Hermes => {
            return Err(InstallError::Unsupported(
                "Hermes reads hooks only from $HERMES_HOME/config.yaml: use --scope user".into(),
            ))
        }
        other => return Err(InstallError::Unsupported(format!("hookrt cannot run inside {}", other.as_str()))),
    })
}

fn codex_home(t: &Target) -> PathBuf {
    t.homes.resolve(&t.home, codex::HOME)
}

fn hermes_home(t: &Target) -> PathBuf {
    t.homes.resolve(&t.home, hermes::HOME)
}

/// The files the trust step writes, for uninstall.
pub(crate) fn trust_files(h: Dialect, t: &Target) -> Vec<PathBuf> {
    match h {
        Dialect::Codex => vec![codex_home(t).join("config.toml")],
        Dialect::Hermes => vec![hermes_home(t).join("shell-hooks-allowlist.json")],
        _ => Vec::new(),
    }
}

/// The harness's event names hookrt is installed on (Copilot: its camelCase ones).
pub(crate) fn events(h: Dialect) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for spec in crate::harness::of(h).events() {
        let camel = spec.name.starts_with(|c: char| c.is_ascii_lowercase());
        if ROUTED.contains(&spec.canonical) && (h != Dialect::Copilot || camel) && !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names
}

fn command(h: Dialect, event: &str, t: &Target) -> String {
    format!("{} hook {} --event {event}{}", t.program, host_name(h), t.extra)
}

/// Whether a command is one hookrt's install wrote for this harness (exactly its shape: a
/// user's own `hookrt-guard hook claude` is not).
fn is_ours(h: Dialect, command: &str) -> bool {
    crate::vocab::hookrt_entry(command).is_some_and(|host| host.dialect() == Some(h))
}

/// The file's root (an empty or missing file is an empty object).
fn parse(path: &Path, text: Option<&str>) -> Result<Map<String, Value>, InstallError> {
    let text = text.unwrap_or("");
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match crate::config::file::parse_root(text, path, true) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(InstallError::Parse(path.to_path_buf(), "the root is not an object".into())),
        Err(e) => Err(InstallError::Parse(path.to_path_buf(), e.to_string())),
    }
}

fn serialize(path: &Path, root: &Map<String, Value>) -> String {
    if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        return serde_saphyr::to_string(&Value::Object(root.clone())).unwrap_or_default();
    }
    serde_json::to_string_pretty(root).unwrap_or_default() + "\n"
}

/// The file's text with hookrt's entries (old ones replaced).
pub(crate) fn with_ours(h: Dialect, file: &Path, before: Option<&str>, t: &Target) -> Result<String, InstallError> {
    let mut root = parse(file, before)?;
    strip(h, &mut root);
    if h == Dialect::Copilot && !root.contains_key("version") {
        root.insert("version".into(), 1.into());
    }
    let hooks = root.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        return Err(InstallError::Parse(file.to_path_buf(), "`hooks` is not an object".into()));
    };
    // Claude Code with `--http`: entries to `hookrt serve`'s endpoint instead of commands.
    let http = t.http_port.filter(|_| h == Dialect::Claude).map(|port| crate::inside::http::url(port, host_name(h)));
    for event in events(h) {
        let cmd = command(h, event, t);
        let entry = match h {
            Dialect::Claude if http.is_some() => {
                let url = http.clone().unwrap_or_default();
                let var = crate::inside::http::TOKEN_VAR;
                json!({"hooks": [{"type": "http", "url": url, "headers": {"Authorization": format!("Bearer ${var}")}, "allowedEnvVars": [var], "timeout": TIMEOUT_SECS}]})
            }
            Dialect::Copilot => json!({"type": "command", "bash": cmd, "timeoutSec": TIMEOUT_SECS}),
            Dialect::Hermes => json!({"command": cmd, "timeout": TIMEOUT_SECS}),
            Dialect::Gemini => {
                json!({"hooks": [{"type": "command", "name": "hookrt", "command": cmd, "timeout": TIMEOUT_SECS * 1000}]})
            }
            _ => json!({"hooks": [{"type": "command", "command": cmd, "timeout": TIMEOUT_SECS}]}),
        };
        match hooks.entry(event).or_insert_with(|| Value::Array(Vec::new())) {
            Value::Array(list) => list.push(entry),
            _ => return Err(InstallError::Parse(file.to_path_buf(), format!("`hooks.{event}` is not a list"))),
        }
    }
    Ok(serialize(file, &root))
}

/// Removes hookrt's entries, and the groups, event lists and `hooks` object they leave empty.
fn strip(h: Dialect, root: &mut Map<String, Value>) {
    let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) else { return };
    let mut touched = false;
    hooks.retain(|_, list| {
        let Some(items) = list.as_array_mut() else { return true };
        let n = items.len();
        items.retain_mut(|item| !strip_item(h, item));
        touched |= items.len() != n;
        !(items.is_empty() && n > 0)
    });
    if touched && hooks.is_empty() {
        root.remove("hooks");
        if h == Dialect::Copilot && root.len() == 1 && root.contains_key("version") {
            root.clear();
        }
    }
}

/// Strips hookrt's handlers from one list item; `true` when the item is now to go.
fn strip_item(h: Dialect, item: &mut Value) -> bool {
    let own = |v: &Value| {
        ["command", "bash"].iter().any(|k| v.get(*k).and_then(Value::as_str).is_some_and(|c| is_ours(h, c)))
            || v.get("url").and_then(Value::as_str).is_some_and(|u| crate::inside::http::is_ours(u, host_name(h)))
    };
    if own(item) {
        return true;
    }
    let Some(handlers) = item.get_mut("hooks").and_then(Value::as_array_mut) else { return false };
    let n = handlers.len();
    handlers.retain(|x| !own(x));
    n > 0 && handlers.is_empty()
}

/// A file's text without hookrt's entries (the marked block of Codex's `config.toml`).
pub(crate) fn without_ours(h: Dialect, path: &Path, before: &str, _t: &Target) -> Result<String, InstallError> {
    if path.file_name().is_some_and(|n| n == "config.toml") {
        return Ok(strip_block(before));
    }
    let mut root = parse(path, Some(before))?;
    if path.file_name().is_some_and(|n| n == "shell-hooks-allowlist.json") {
        if let Some(list) = root.get_mut("approvals").and_then(Value::as_array_mut) {
            list.retain(|a| !a.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(h, c)));
            if list.is_empty() {
                root.remove("approvals");
            }
        }
        return Ok(serialize(path, &root));
    }
    strip(h, &mut root);
    Ok(serialize(path, &root))
}

/// Whether two texts of a file mean the same (TOML: the same text).
pub(crate) fn same(path: &Path, a: &str, b: &str) -> bool {
    if path.extension().is_some_and(|e| e == "toml") {
        return a.trim() == b.trim();
    }
    match (parse(path, Some(a)), parse(path, Some(b))) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The text without the marked block install appended (and the blank line before it).
fn strip_block(text: &str) -> String {
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else { return text.to_owned() };
    let end = end + END.len();
    let end = if text[end..].starts_with('\n') { end + 1 } else { end };
    let start = if text[..start].ends_with("\n\n") { start - 1 } else { start };
    format!("{}{}", &text[..start], &text[end..])
}

/// The trust step of an install: Codex's trusted hashes, Hermes' allowlist, and notes on the
/// trust the harness needs but hookrt does not give (a project's).
pub(crate) fn trust_step(
    h: Dialect,
    scope: InstallScope,
    (file, text): (&Path, &str),
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<Change>, InstallError> {
    match h {
        Dialect::Codex => codex_trust(scope, (file, text), t, notes).map(|c| vec![c]),
        Dialect::Hermes => hermes_trust(t, notes).map(|c| vec![c]),
        Dialect::Gemini | Dialect::Copilot if scope == InstallScope::Project => {
            let name = host_name(h);
            notes.push(format!(
                "{name} runs a project's hooks only in a trusted folder: trust {} in {name}",
                t.cwd.display()
            ));
            Ok(Vec::new())
        }
        _ => Ok(Vec::new()),
    }
}

fn codex_trust(
    scope: InstallScope,
    (file, text): (&Path, &str),
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Change, InstallError> {
    let config = codex_home(t).join("config.toml");
    let before = super::read(&config)?;
    let root = parse(file, Some(text))?;
    let mut block = format!("{BEGIN}\n");
    for (event, list) in root.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        for (g, group) in list.as_array().into_iter().flatten().enumerate() {
            for (i, handler) in group.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let ours = handler.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(Dialect::Codex, c));
                if let Some(hash) = current_hash(event, group, handler).filter(|_| ours) {
                    let key = serde_json::to_string(&format!("{}:{}:{g}:{i}", file.display(), snake(event)))
                        .unwrap_or_default();
                    block.push_str(&format!("[hooks.state.{key}]\ntrusted_hash = \"{hash}\"\n"));
                }
            }
        }
    }
    block.push_str(END);
    block.push('\n');
    let kept = strip_block(before.as_deref().unwrap_or(""));
    let sep = if kept.is_empty() || kept.ends_with("\n\n") {
        ""
    } else if kept.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let after = format!("{kept}{sep}{block}");
    if let Err(e) = toml::from_str::<toml::Value>(&after) {
        return Err(InstallError::Parse(config, format!("cannot add hookrt's trusted hashes: {}", e.message())));
    }
    notes.push(format!("Codex trusts hookrt's hooks by their hashes in {} (hookrt's entries only)", config.display()));
    if scope == InstallScope::Project {
        notes.push(format!(
            "Codex reads a project's .codex/ only in a trusted project: trust {} in codex if it is not",
            t.cwd.display()
        ));
    }
    Ok(Change { path: config, before, after: Some(after), private: true })
}

fn hermes_trust(t: &Target, notes: &mut Vec<String>) -> Result<Change, InstallError> {
    let path = hermes_home(t).join("shell-hooks-allowlist.json");
    let before = super::read(&path)?;
    let mut root = parse(&path, before.as_deref())?;
    let list = root.entry("approvals").or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return Err(InstallError::Parse(path, "`approvals` is not a list".into()));
    };
    list.retain(|a| !a.get("command").and_then(Value::as_str).is_some_and(|c| is_ours(Dialect::Hermes, c)));
    let now = crate::vocab::text::iso_now();
    for event in events(Dialect::Hermes) {
        list.push(json!({"event": event, "command": command(Dialect::Hermes, event, t), "approved_at": now}));
    }
    notes.push(format!("Hermes runs hookrt's hooks: approved in {} (hookrt's entries only)", path.display()));
    Ok(Change { path: path.clone(), before, after: Some(serialize(&path, &root)), private: true })
}

/// hookrt's entries in a harness's file: how many, and the programs they name that are gone.
pub(crate) fn installed(h: Dialect, file: &Path) -> Option<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(file).ok()?;
    let root = parse(file, Some(&text)).ok()?;
    let mut count = 0;
    let mut missing: Vec<String> = Vec::new();
    for list in root.get("hooks").and_then(Value::as_object).into_iter().flat_map(|m| m.values()) {
        for item in list.as_array().into_iter().flatten() {
            let handlers = item.get("hooks").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![item.clone()]);
            for x in handlers {
                let cmd = ["command", "bash"]
                    .iter()
                    .find_map(|k| x.get(*k).and_then(Value::as_str).filter(|c| is_ours(h, c)));
                let url =
                    x.get("url").and_then(Value::as_str).filter(|u| crate::inside::http::is_ours(u, host_name(h)));
                if cmd.is_none() && url.is_none() {
                    continue;
                }
                count += 1;
                let program = cmd.and_then(shlex::split).and_then(|w| w.into_iter().next());
                if let Some(p) = program.filter(|p| p.contains('/') && !Path::new(p).is_file()) {
                    if !missing.contains(&p) {
                        missing.push(p);
                    }
                }
            }
        }
    }
    (count > 0).then_some((count, missing))
}
