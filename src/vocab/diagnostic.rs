//! Configuration problems: where (file, event), then what. Loading never fails; it reports.

use serde::{Deserialize, Serialize};

/// How bad a configuration problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One configuration problem: where (file, event), then what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Diagnostic {
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    pub message: String,
}

impl Diagnostic {
    /// A problem with one file (and, where known, one of its events).
    pub fn new(severity: Severity, file: &std::path::Path, event: Option<&str>, message: String) -> Self {
        Diagnostic { severity, file: Some(file.display().to_string()), event: event.map(str::to_owned), message }
    }

    /// A warning about one file.
    pub fn warning(file: &std::path::Path, event: Option<&str>, message: String) -> Self {
        Self::new(Severity::Warning, file, event, message)
    }

    /// An error about one file.
    pub fn error(file: &std::path::Path, event: Option<&str>, message: String) -> Self {
        Self::new(Severity::Error, file, event, message)
    }
}
