//! Claude Code plugins (`hooks/hooks.json` with `${CLAUDE_PLUGIN_ROOT}` and
//! `${CLAUDE_PLUGIN_DATA}`), the marketplace installs a settings file enables, and managed
//! (policy) settings.

use crate::config::{Candidate, PluginDir};
use crate::vocab::{Dialect, Origin, Scope};
use std::path::{Path, PathBuf};

/// `hooks/hooks.json` of a plugin, with `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`.
pub(crate) fn candidate(p: &PluginDir, home: &Path) -> Candidate {
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
pub(crate) fn data_id(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect()
}

/// Plugins Claude Code installed from a marketplace and a settings file enables
/// (`enabledPlugins: {"name@marketplace": true}`): the newest version directory under
/// `home/.claude/plugins/cache/<marketplace>/<name>/`, data in `plugins/data/<id>/`.
pub(crate) fn installed(home: &Path, id: &str) -> Option<PluginDir> {
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
pub(crate) fn default_managed_settings() -> PathBuf {
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json")
    } else {
        PathBuf::from("/etc/claude-code/managed-settings.json")
    }
}

/// The managed settings file as the first candidate.
pub(crate) fn managed(path: &Path) -> Candidate {
    Candidate { origin: Origin::Managed, ..Candidate::of(path.to_path_buf(), Dialect::Claude, Scope::Managed) }
}
