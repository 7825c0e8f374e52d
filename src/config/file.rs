//! Reading one config file into a JSON root, tolerating what each dialect tolerates
//! (a UTF-8 BOM everywhere, comments and trailing commas in opencode files).

use crate::dialect::Dialect;
use std::path::Path;

/// Files larger than this are not read (a diagnostic says so).
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file gave no root.
#[derive(Debug)]
pub enum ReadError {
    /// The file does not exist: skipped silently.
    Missing,
    /// Anything else: reported as an error diagnostic with this message.
    Problem(String),
}

/// Reads a file as UTF-8 text (lossy), with the BOM removed.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Problem(format!("cannot read config: {}", io_msg(&e)))),
    };
    if meta.is_dir() {
        return Err(ReadError::Problem("cannot read config: it is a directory".into()));
    }
    if !meta.is_file() {
        // A FIFO or a device would block or never end.
        return Err(ReadError::Problem("cannot read config: not a regular file".into()));
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(ReadError::Problem(format!(
            "config is too large ({} bytes; the limit is {} bytes)",
            meta.len(),
            MAX_CONFIG_BYTES
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| ReadError::Problem(format!("cannot read config: {}", io_msg(&e))))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(match text.strip_prefix('\u{feff}') {
        Some(t) => t.to_owned(),
        None => text,
    })
}

fn io_msg(e: &std::io::Error) -> String {
    let s = e.to_string();
    // "Permission denied (os error 13)" -> "Permission denied"
    match s.find(" (os error") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

/// Whether the dialect's files may carry comments.
fn allows_comments(dialect: Dialect, path: &Path) -> bool {
    dialect == Dialect::Opencode || path.extension().is_some_and(|e| e == "jsonc")
}

/// Parses JSON (or JSONC where allowed) into a value.
pub fn parse_json(text: &str, dialect: Dialect, path: &Path) -> Result<serde_json::Value, String> {
    if allows_comments(dialect, path) {
        jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &Default::default())
            .map_err(|e| format!("config is not valid JSON: {e}"))
    } else {
        serde_json::from_str(text).map_err(|e| format!("config is not valid JSON: {e}"))
    }
}

/// Parses a config file by its format: TOML (`.toml`), YAML (`.yaml`/`.yml`), else JSON.
pub fn parse_root(text: &str, dialect: Dialect, path: &Path) -> Result<serde_json::Value, String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => {
            toml::from_str::<serde_json::Value>(text).map_err(|e| format!("config is not valid TOML: {}", e.message()))
        }
        Some("yaml" | "yml") => {
            if text.trim().is_empty() {
                return Ok(serde_json::Value::Object(Default::default()));
            }
            serde_saphyr::from_str::<serde_json::Value>(text).map_err(|e| format!("config is not valid YAML: {e}"))
        }
        _ => parse_json(text, dialect, path),
    }
}

/// How the root-must-be-an-object diagnostic names the file kind.
pub fn describe(dialect: Dialect, path: &Path) -> &'static str {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match dialect {
        Dialect::Claude => "Claude Code settings",
        Dialect::Codex if name.ends_with(".toml") => "Codex config.toml",
        Dialect::Codex => "Codex hooks.json",
        Dialect::Opencode => "opencode config",
        Dialect::Hermes => "Hermes config.yaml",
        Dialect::Native => "hookrt hooks file",
        Dialect::Agents => ".agents hooks file",
        Dialect::Gemini => "Gemini CLI settings",
        Dialect::Cursor => "Cursor hooks.json",
        Dialect::Copilot => "Copilot hooks file",
        Dialect::Windsurf => "Windsurf hooks.json",
    }
}

/// Whether a file of this kind is dedicated to hooks (so a missing root member is an error)
/// rather than a general settings file that merely has no hooks.
pub fn is_dedicated_hooks_file(dialect: Dialect, path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match dialect {
        Dialect::Claude | Dialect::Opencode | Dialect::Hermes | Dialect::Gemini => false,
        Dialect::Cursor | Dialect::Copilot | Dialect::Windsurf => true,
        Dialect::Codex => !name.ends_with(".toml"),
        Dialect::Native | Dialect::Agents => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("opencode.json");
        std::fs::write(&p, "\u{feff}{ // c\n \"hooks\": {}, }").unwrap();
        let t = read_text(&p).unwrap();
        assert!(parse_json(&t, Dialect::Opencode, &p).unwrap().is_object());
        let q = dir.path().join("settings.json");
        assert!(parse_json(&t, Dialect::Claude, &q).unwrap_err().starts_with("config is not valid JSON: "));
    }

    #[test]
    fn missing_directory_and_too_large() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(read_text(&dir.path().join("nope")), Err(ReadError::Missing)));
        match read_text(dir.path()) {
            Err(ReadError::Problem(m)) => assert!(m.contains("directory")),
            other => panic!("{other:?}"),
        }
    }
}
