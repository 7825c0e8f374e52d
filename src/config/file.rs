//! Reading one config file into a JSON root, tolerating what each dialect tolerates (a UTF-8
//! BOM everywhere, comments and trailing commas where the dialect allows them), and refusing
//! what would block or exhaust a reader (directories, FIFOs, devices, huge files).

use std::path::Path;

/// Files larger than this are not read (a diagnostic says so).
pub(crate) const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file gave no text.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The file does not exist: skipped silently.
    #[error("the file does not exist")]
    Missing,
    #[error("cannot read config: it is a directory")]
    Directory,
    /// A FIFO or a device would block or never end.
    #[error("cannot read config: not a regular file")]
    NotRegular,
    #[error("config is too large ({size} bytes; the limit is {limit} bytes)")]
    TooLarge { size: u64, limit: u64 },
    #[error("cannot read config: {}", io_message(.0))]
    Io(#[source] std::io::Error),
}

/// Why a file's text gave no root; the parser's own message is the data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ParseError {
    #[error("config is not valid JSON: {0}")]
    Json(String),
    #[error("config is not valid TOML: {0}")]
    Toml(String),
    #[error("config is not valid YAML: {0}")]
    Yaml(String),
}

/// Reads a file as UTF-8 text (lossy), with the BOM removed.
pub(crate) fn read_text(path: &Path) -> Result<String, ReadError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Io(e)),
    };
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(ReadError::TooLarge { size: meta.len(), limit: MAX_CONFIG_BYTES });
    }
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(match text.strip_prefix('\u{feff}') {
        Some(t) => t.to_owned(),
        None => text,
    })
}

/// "Permission denied (os error 13)" -> "Permission denied".
fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

/// Parses JSON, or JSONC (comments, trailing commas) when `comments` is set.
pub(crate) fn parse_json(text: &str, comments: bool) -> Result<serde_json::Value, ParseError> {
    if comments {
        jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &Default::default())
            .map_err(|e| ParseError::Json(e.to_string()))
    } else {
        serde_json::from_str(text).map_err(|e| ParseError::Json(e.to_string()))
    }
}

/// Parses a config file by its format: TOML (`.toml`), YAML (`.yaml`/`.yml`), else JSON (with
/// comments where `comments` is set or the file is `.jsonc`).
pub(crate) fn parse_root(text: &str, path: &Path, comments: bool) -> Result<serde_json::Value, ParseError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => toml::from_str::<serde_json::Value>(text).map_err(|e| ParseError::Toml(e.message().to_owned())),
        Some("yaml" | "yml") => {
            if text.trim().is_empty() {
                return Ok(serde_json::Value::Object(Default::default()));
            }
            serde_saphyr::from_str::<serde_json::Value>(text).map_err(|e| ParseError::Yaml(e.to_string()))
        }
        Some("jsonc") => parse_json(text, true),
        _ => parse_json(text, comments),
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
        assert!(parse_json(&t, true).unwrap().is_object());
        assert!(parse_json(&t, false).unwrap_err().to_string().starts_with("config is not valid JSON: "));
    }

    #[test]
    fn missing_directory_and_too_large() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(read_text(&dir.path().join("nope")), Err(ReadError::Missing)));
        assert_eq!(read_text(dir.path()).unwrap_err().to_string(), "cannot read config: it is a directory");
    }
}
