//! Which files are read, in which order (SPEC §3), and how an explicitly named file's dialect
//! is recognised.

use super::{Origin, Scope};
use crate::dialect::Dialect;
use std::path::{Path, PathBuf};

/// A file that may hold hooks.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub path: PathBuf,
    /// `None`: recognise from location and content once read.
    pub dialect: Option<Dialect>,
    pub scope: Scope,
    pub origin: Origin,
    /// `${NAME}` values substituted into this file's commands and exported to its hooks.
    pub vars: Vec<(String, String)>,
}

impl Candidate {
    /// A file found by discovery or named explicitly.
    pub fn settings(path: PathBuf, dialect: Option<Dialect>, scope: Scope) -> Self {
        Candidate { path, dialect, scope, origin: Origin::Settings, vars: Vec::new() }
    }
}

fn c(path: PathBuf, dialect: Dialect, scope: Scope) -> Candidate {
    Candidate::settings(path, Some(dialect), scope)
}

/// A Claude Code plugin: its root and its persistent data directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginDir {
    pub root: PathBuf,
    pub data_dir: Option<PathBuf>,
}

/// `hooks/hooks.json` of a plugin, with `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`.
pub fn plugin_candidate(p: &PluginDir, home: &Path) -> Candidate {
    let name = p.root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A plugin loaded from a directory is `<name>@inline` to Claude Code.
    let data = p
        .data_dir
        .clone()
        .unwrap_or_else(|| home.join(".claude/plugins/data").join(data_id(&format!("{name}@inline"))));
    Candidate {
        path: p.root.join("hooks/hooks.json"),
        dialect: Some(Dialect::Claude),
        scope: Scope::Plugin,
        origin: Origin::Plugin,
        vars: vec![
            ("CLAUDE_PLUGIN_ROOT".into(), p.root.display().to_string()),
            ("CLAUDE_PLUGIN_DATA".into(), data.display().to_string()),
        ],
    }
}

/// The data directory name of a plugin id: characters outside `[A-Za-z0-9_-]` become `-`.
pub fn data_id(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect()
}

/// Plugins Claude Code installed from a marketplace and a settings file enables
/// (`enabledPlugins: {"name@marketplace": true}`): the newest version directory under
/// `home/.claude/plugins/cache/<marketplace>/<name>/`, data in `plugins/data/<id>/`.
pub fn installed_plugin(home: &Path, id: &str) -> Option<PluginDir> {
    let (name, market) = id.split_once('@')?;
    if [name, market].iter().any(|s| s.is_empty() || s.contains(['/', '\\']) || *s == "..") {
        return None;
    }
    let dir = home.join(".claude/plugins/cache").join(market).join(name);
    let newest = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().join("hooks/hooks.json").is_file())
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())?;
    Some(PluginDir { root: newest.path(), data_dir: Some(home.join(".claude/plugins/data").join(data_id(id))) })
}

/// Where Claude Code's managed (policy) settings live on this platform.
pub fn default_managed_settings() -> PathBuf {
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json")
    } else {
        PathBuf::from("/etc/claude-code/managed-settings.json")
    }
}

/// The discovery list for a home and a working directory, in reading order. When home and cwd
/// are the same directory, the global entries win and the project duplicates are skipped
/// by the loader (same canonical path).
pub fn candidates(home: &Path, cwd: &Path) -> Vec<Candidate> {
    use Dialect::*;
    use Scope::*;
    vec![
        c(home.join(".claude/settings.json"), Claude, Global),
        c(home.join(".codex/hooks.json"), Codex, Global),
        c(home.join(".codex/config.toml"), Codex, Global),
        c(home.join(".config/opencode/opencode.json"), Opencode, Global),
        c(home.join(".hermes/config.yaml"), Hermes, Global),
        c(home.join(".config/hooks-adapter/hooks.json"), Native, Global),
        c(home.join(".config/hookrt/hooks.json"), Native, Global),
        c(cwd.join(".claude/settings.json"), Claude, Project),
        c(cwd.join(".codex/hooks.json"), Codex, Project),
        c(cwd.join(".codex/config.toml"), Codex, Project),
        c(cwd.join("opencode.json"), Opencode, Project),
        c(cwd.join("opencode.jsonc"), Opencode, Project),
        c(cwd.join(".agents/hooks.json"), Agents, Project),
        c(cwd.join(".dsh-hooks.json"), Native, Project),
        c(cwd.join(".claude/settings.local.json"), Claude, Local),
    ]
}

/// The other harnesses' files, after the Claude family's: system, then home, then project,
/// per harness in the order Gemini, Cursor, Copilot, Windsurf (Copilot's directories in name
/// order; Gemini extensions after the settings files, with `${extensionPath}`).
pub fn harness_candidates(home: &Path, cwd: &Path, system: &Path) -> Vec<Candidate> {
    use Dialect::*;
    use Scope::*;
    let mut v = vec![
        c(system.join("gemini-cli/settings.json"), Gemini, System),
        c(home.join(".gemini/settings.json"), Gemini, Global),
        c(cwd.join(".gemini/settings.json"), Gemini, Project),
    ];
    v.extend(sorted_dir(&home.join(".gemini/extensions")).into_iter().map(|dir| Candidate {
        vars: vec![("extensionPath".into(), dir.display().to_string())],
        ..c(dir.join("hooks/hooks.json"), Gemini, Global)
    }));
    v.extend([
        c(system.join("cursor/hooks.json"), Cursor, System),
        c(home.join(".cursor/hooks.json"), Cursor, Global),
        c(cwd.join(".cursor/hooks.json"), Cursor, Project),
    ]);
    let json_files = |d: PathBuf| sorted_dir(&d).into_iter().filter(|p| p.extension().is_some_and(|e| e == "json"));
    v.extend(json_files(home.join(".copilot/hooks")).map(|p| c(p, Copilot, Global)));
    v.extend(json_files(cwd.join(".github/hooks")).map(|p| c(p, Copilot, Project)));
    v.extend([
        c(system.join("windsurf/hooks.json"), Windsurf, System),
        c(home.join(".codeium/windsurf/hooks.json"), Windsurf, Global),
        c(cwd.join(".windsurf/hooks.json"), Windsurf, Project),
    ]);
    v
}

/// A directory's entries in name order (none when it cannot be read).
fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

/// Recognises the dialect of an explicitly named file from where it lives and what it holds
/// (not from the base name alone: any `hooks.json` may be native, codex or claude).
pub fn recognise(path: &Path, root: Option<&serde_json::Value>) -> Dialect {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = path.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or("");
    let obj = root.and_then(|r| r.as_object());
    if let Some(o) = obj {
        if o.get("events").is_some_and(|e| e.is_object()) {
            return Dialect::Native;
        }
    }
    if name == ".dsh-hooks.json" {
        return Dialect::Native;
    }
    if name.starts_with("opencode.json") {
        return Dialect::Opencode;
    }
    let grandparent = path.parent().and_then(|p| p.parent()).and_then(|p| p.file_name()).and_then(|n| n.to_str());
    match (parent, grandparent) {
        (".gemini", _) => return Dialect::Gemini,
        (".cursor", _) | ("cursor", _) => return Dialect::Cursor,
        ("hooks", Some(".github" | ".copilot")) => return Dialect::Copilot,
        (".windsurf", _) | ("windsurf", _) => return Dialect::Windsurf,
        _ => {}
    }
    if parent == ".codex" || name == "config.toml" {
        return Dialect::Codex;
    }
    if parent == ".claude" || (name.starts_with("settings") && name.ends_with(".json")) {
        return Dialect::Claude;
    }
    if parent == ".hermes" || name.ends_with(".yaml") || name.ends_with(".yml") {
        return Dialect::Hermes;
    }
    if parent == ".agents" {
        return Dialect::Agents;
    }
    // Content: each harness's own event names.
    if let Some(hooks) = obj.and_then(|o| o.get("hooks")).and_then(|h| h.as_object()) {
        for d in crate::harness::HARNESSES {
            let own = hooks.keys().any(|k| {
                d.harness_event(k).is_some() && Dialect::Claude.config_event(k).is_none() && k != "preToolUse"
            });
            if own {
                return d;
            }
        }
    }
    // Content: opencode spells events with dots, native with colons.
    if let Some(hooks) = obj.and_then(|o| o.get("hooks")).and_then(|h| h.as_object()) {
        if hooks.keys().any(|k| k.contains(':')) {
            return Dialect::Native;
        }
        if hooks.keys().any(|k| k.contains('.')) {
            return Dialect::Opencode;
        }
    }
    Dialect::Claude
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn order_is_global_then_project_then_local() {
        let l = candidates(Path::new("/h"), Path::new("/p"));
        assert_eq!(l.first().unwrap().path, Path::new("/h/.claude/settings.json"));
        assert_eq!(l.last().unwrap().path, Path::new("/p/.claude/settings.local.json"));
        assert_eq!(l.last().unwrap().scope, Scope::Local);
    }

    #[test]
    fn recognition_looks_at_content_and_location() {
        let native = json!({"version":1,"events":{}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&native)), Dialect::Native);
        assert_eq!(recognise(Path::new("/x/.codex/hooks.json"), Some(&json!({"hooks":{}}))), Dialect::Codex);
        assert_eq!(
            recognise(Path::new("/x/hooks.json"), Some(&json!({"hooks":{"tool.execute.before":[]}}))),
            Dialect::Opencode
        );
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&json!({"hooks":{"PreToolUse":[]}}))), Dialect::Claude);
        assert_eq!(recognise(Path::new("/x/.claude/settings.local.json"), None), Dialect::Claude);
        assert_eq!(recognise(Path::new("/x/.gemini/settings.json"), None), Dialect::Gemini);
        assert_eq!(recognise(Path::new("/x/.github/hooks/a.json"), None), Dialect::Copilot);
        assert_eq!(recognise(Path::new("/x/.windsurf/hooks.json"), None), Dialect::Windsurf);
        let cursor = json!({"version": 1, "hooks": {"beforeShellExecution": []}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&cursor)), Dialect::Cursor);
        let gemini = json!({"hooks": {"BeforeTool": []}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&gemini)), Dialect::Gemini);
    }
}
