//! Whose hook file a hook came from, and the kinds of handler a hook can have. What each
//! dialect means (files, events, stdin, answers) lives in its folder under `harness/`.

use serde::{Deserialize, Serialize};

/// Builds [`Dialect`] from the registration table's rows.
macro_rules! dialect_enum {
    ($($(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident $($inside:ident)?,)*) => {
        /// A configuration dialect: whose hook files a hook came from. Each variant is a row of
        /// the registration table (`vocab/harnesses.rs`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum Dialect {
            $($(#[$doc])* $variant,)*
        }

        impl Dialect {
            /// How many harnesses the table registers.
            pub const COUNT: usize = [$(Dialect::$variant),*].len();

            /// Every dialect, in registry order.
            pub const ALL: [Dialect; Self::COUNT] = [$(Dialect::$variant),*];

            /// Its name in files, options and commands (`claude`, `gemini`, ...).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Dialect::$variant => $name,)*
                }
            }

            /// Its harness's name for people (`Claude Code`, `Gemini CLI`, ...).
            pub const fn title(self) -> &'static str {
                match self {
                    $(Dialect::$variant => $title,)*
                }
            }
        }
    };
}

crate::vocab::harnesses::harness_table!(dialect_enum);

impl Dialect {
    /// Reads a dialect's name (`claude`, `gemini`, ...).
    pub fn parse(name: &str) -> Option<Dialect> {
        Self::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

/// How a matcher string is interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherStyle {
    /// Claude Code's rule: a plain word list is an exact alternation, anything else a regex.
    LiteralOrRegex,
    /// Always an unanchored regular expression.
    Regex,
    /// Codex's rule (`codex-rs/hooks/src/events/common.rs`): a matcher of only letters, digits,
    /// `_` and `|` is a list of exact names split on `|` (`Bash` does not select `BashOutput`),
    /// anything else an unanchored regular expression.
    ExactOrRegex,
    /// Qwen Code's rule (`packages/core/src/hooks/hook-matcher.ts`): a list `a|b|` not starting
    /// with `^` or `(` is split entry by entry at its top level, each entry trimmed and empty
    /// ones dropped (`write_file|edit|` selects two tools, not every tool), then an unanchored
    /// regular expression; `.*` selects everything as `*` does.
    EntryList,
    /// A regular expression that must match the whole subject (`^(?:p)$`, Copilot).
    Anchored,
    /// Hermes: the trimmed text as a regular expression that must match the whole tool name
    /// (`re.fullmatch`), the text itself when it is no valid regex; `*` is no wildcard, and an
    /// event without a tool name matches nothing.
    Full,
}

impl MatcherStyle {
    /// The style under `fidelity`: the `listen` contract pins the JavaScript implementation's
    /// unanchored regular expression where Codex reads a plain name list as exact names.
    pub fn under(self, fidelity: crate::vocab::Fidelity) -> Self {
        match (self, fidelity) {
            (MatcherStyle::ExactOrRegex, crate::vocab::Fidelity::Contract) => MatcherStyle::Regex,
            (style, _) => style,
        }
    }
}

/// Handler kinds (docs/configuration.md "Handlers").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HandlerKind {
    Shell,
    Webhook,
    Oracle,
    Proxy,
    /// Claude's `mcp_tool`: a tool call on one of the host's MCP servers, through the host.
    #[serde(rename = "mcp_tool")]
    McpTool,
    /// A persistent process answering request after request over JSON lines.
    Worker,
    /// A function the embedding program registered (`createRuntime({hooks})`), called in its
    /// own process: never read from a file.
    Callback,
}

impl HandlerKind {
    /// Default timeout in seconds when neither the hook nor the runtime sets one.
    pub fn default_timeout_secs(self) -> f64 {
        match self {
            HandlerKind::Shell | HandlerKind::Webhook | HandlerKind::McpTool | HandlerKind::Worker => 600.0,
            HandlerKind::Oracle => 30.0,
            HandlerKind::Proxy | HandlerKind::Callback => 60.0,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HandlerKind::Shell => "shell",
            HandlerKind::Webhook => "webhook",
            HandlerKind::Oracle => "oracle",
            HandlerKind::Proxy => "proxy",
            HandlerKind::McpTool => "mcp_tool",
            HandlerKind::Worker => "worker",
            HandlerKind::Callback => "callback",
        }
    }

    /// Maps a config `type` word (and its aliases) to a kind, before any dialect's rules.
    pub fn from_type(ty: &str) -> Option<HandlerKind> {
        Some(match ty {
            "command" | "shell" => HandlerKind::Shell,
            "http" | "webhook" => HandlerKind::Webhook,
            "prompt" | "oracle" => HandlerKind::Oracle,
            "agent" | "subagent" | "proxy" => HandlerKind::Proxy,
            "mcp_tool" => HandlerKind::McpTool,
            "worker" => HandlerKind::Worker,
            _ => return None,
        })
    }
}
