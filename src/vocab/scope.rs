//! Where a hook file sits (its scope), where a hook came from beyond its file (its origin), and
//! which scopes need an approval before their hooks run.

use serde::{Deserialize, Serialize};

/// Where a file sits in discovery, for `sources`, `list` and approvals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Global,
    Project,
    Local,
    /// Named explicitly with `configPath` / `--config`.
    Explicit,
    /// A Claude Code plugin's `hooks/hooks.json`.
    Plugin,
    /// Claude Code managed (policy) settings.
    Managed,
    /// A machine-wide file of another harness (`/etc/gemini-cli/settings.json`, ...).
    System,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Explicit => "explicit",
            Scope::Plugin => "plugin",
            Scope::Managed => "managed",
            Scope::System => "system",
        }
    }
}

/// Which kind of configuration a hook came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A settings or hooks file found by discovery or named explicitly.
    #[default]
    Settings,
    /// A Claude Code plugin's `hooks/hooks.json`.
    Plugin,
    /// Managed (policy) settings.
    Managed,
    /// The embedding program's own callback hooks (`createRuntime({hooks})`).
    Host,
}

/// Which hooks need an approval before they run (`requireHookApproval`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalScope {
    /// Not set: nothing is skipped (Claude compatibility), and each project file with
    /// unapproved hooks gets one notice.
    #[default]
    Unset,
    /// Explicitly off (`false`, `"off"`): nothing is skipped, nothing said.
    Off,
    /// Project- and local-scope hooks of every dialect, and all Hermes hooks (`true`).
    Project,
    /// Every hook but managed ones.
    All,
    /// Each file's hooks run exactly when their own harness would run them: Codex's trusted
    /// hashes and project trust, Gemini's folder trust, Copilot's trusted folders, Hermes'
    /// allowlist (read-only); `hookrt trust approve` adds to them (docs/security.md).
    Harness,
}

impl ApprovalScope {
    /// Whether hooks are gated at all (Hermes hooks are under any scope).
    pub fn on(self) -> bool {
        matches!(self, Self::Project | Self::All)
    }

    /// Reads `true`/`false`/`"project"`/`"all"`/`"off"`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "off" | "false" => Some(Self::Off),
            "project" | "true" => Some(Self::Project),
            "all" => Some(Self::All),
            "harness" => Some(Self::Harness),
            _ => None,
        }
    }

    /// Whether hooks of a file in `scope` are skipped until approved.
    pub fn gates(self, scope: Scope) -> bool {
        match self {
            Self::Unset | Self::Off | Self::Harness => false,
            Self::Project => matches!(scope, Scope::Project | Scope::Local),
            Self::All => scope != Scope::Managed,
        }
    }
}

impl<'de> Deserialize<'de> for ApprovalScope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Flag(bool),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Flag(b) => Ok(if b { Self::Project } else { Self::Off }),
            Raw::Word(w) => Self::parse(&w).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "requireHookApproval must be true, false, \"harness\", \"project\", \"all\" or \"off\", not {w:?}"
                ))
            }),
        }
    }
}

impl schemars::JsonSchema for ApprovalScope {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ApprovalScope".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Which hooks need an approval before they run: `\"harness\"` (the default) runs a hook when its own harness would; `true` is `\"project\"`, `false` is `\"off\"`.",
            "oneOf": [{"type": "boolean"}, {"enum": ["harness", "project", "all", "off"]}]
        })
    }
}
