//! The configuration dialects hookrt reads and what differs between them: event spellings,
//! matcher semantics, accepted handler types and the stdin shape a hook expects.

use crate::event::{CanonicalEvent, ToolResult};
use serde::{Deserialize, Serialize};

/// A configuration dialect: whose hook files a hook came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Claude Code `settings*.json`.
    Claude,
    /// Codex `hooks.json` (and `config.toml` `[hooks]`).
    Codex,
    /// opencode `opencode.json(c)`.
    Opencode,
    /// Hermes `config.yaml` `hooks:` block.
    Hermes,
    /// hookrt / hooks-adapter native file (`events` root, canonical names).
    Native,
    /// `.agents/hooks.json`.
    Agents,
    /// Gemini CLI `.gemini/settings.json` (and extensions' `hooks/hooks.json`).
    Gemini,
    /// Cursor `.cursor/hooks.json`.
    Cursor,
    /// GitHub Copilot CLI / coding agent `.github/hooks/*.json`, `~/.copilot/hooks/*.json`.
    Copilot,
    /// Windsurf (Cascade) `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`.
    Windsurf,
}

/// How a matcher string is interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherStyle {
    /// Claude Code's rule: a plain word list is an exact alternation, anything else a regex.
    LiteralOrRegex,
    /// Always an unanchored regular expression.
    Regex,
    /// A regular expression that must match the whole subject (`^(?:p)$`, Copilot).
    Anchored,
}

/// Handler kinds (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
}

impl HandlerKind {
    /// Default timeout in seconds when neither the hook nor the runtime sets one.
    pub fn default_timeout_secs(self) -> f64 {
        match self {
            HandlerKind::Shell | HandlerKind::Webhook | HandlerKind::McpTool | HandlerKind::Worker => 600.0,
            HandlerKind::Oracle => 30.0,
            HandlerKind::Proxy => 60.0,
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
        }
    }
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Claude => "claude",
            Dialect::Codex => "codex",
            Dialect::Opencode => "opencode",
            Dialect::Hermes => "hermes",
            Dialect::Native => "native",
            Dialect::Agents => "agents",
            Dialect::Gemini => "gemini",
            Dialect::Cursor => "cursor",
            Dialect::Copilot => "copilot",
            Dialect::Windsurf => "windsurf",
        }
    }

    /// Resolves an event name as written in a config file of this dialect, with the
    /// after-tool outcome its groups are for.
    pub fn config_event(self, name: &str) -> Option<(CanonicalEvent, ToolResult)> {
        let any = |e| Some((e, ToolResult::Either));
        match self {
            Dialect::Claude => match name {
                "PostToolUse" => Some((CanonicalEvent::ToolAfter, ToolResult::Success)),
                "PostToolUseFailure" => Some((CanonicalEvent::ToolAfter, ToolResult::Failure)),
                _ => CanonicalEvent::ALL.into_iter().find(|e| e.in_claude() && e.claude_name() == name).and_then(any),
            },
            // Codex has no failure event: its PostToolUse groups run for every outcome.
            Dialect::Codex => match name {
                "PostToolUseFailure" => None,
                _ => CanonicalEvent::ALL.into_iter().find(|e| e.in_codex() && e.claude_name() == name).and_then(any),
            },
            Dialect::Agents => match name {
                "PreToolUse" => any(CanonicalEvent::ToolBefore),
                "PostToolUse" => any(CanonicalEvent::ToolAfter),
                "Stop" => any(CanonicalEvent::TurnStop),
                _ => None,
            },
            Dialect::Opencode => {
                CanonicalEvent::ALL.into_iter().find(|e| e.opencode_name() == Some(name)).and_then(any)
            }
            Dialect::Hermes => CanonicalEvent::ALL.into_iter().find(|e| e.hermes_name() == Some(name)).and_then(any),
            Dialect::Native => CanonicalEvent::from_canonical(name).and_then(any),
            Dialect::Gemini | Dialect::Cursor | Dialect::Copilot | Dialect::Windsurf => {
                self.harness_event(name).map(|e| (e.canonical, e.result))
            }
        }
    }

    /// The harness event table entry for a name (Gemini, Cursor, Copilot, Windsurf).
    pub fn harness_event(self, name: &str) -> Option<crate::harness::EventSpec> {
        crate::harness::events(self)?.iter().find(|e| e.name == name).copied()
    }

    /// The names this dialect accepts in config files (for did-you-mean hints).
    pub fn event_names(self) -> Vec<&'static str> {
        if let Some(events) = crate::harness::events(self) {
            return events.iter().map(|e| e.name).collect();
        }
        CanonicalEvent::ALL
            .into_iter()
            .filter_map(|e| match self {
                Dialect::Claude | Dialect::Codex | Dialect::Agents => e.in_claude().then(|| e.claude_name()),
                Dialect::Opencode => e.opencode_name(),
                Dialect::Hermes => e.hermes_name(),
                Dialect::Native => Some(e.as_str()),
                _ => None,
            })
            .filter(|n| self.config_event(n).is_some())
            .chain(if self == Dialect::Claude { Some("PostToolUseFailure") } else { None })
            .collect()
    }

    pub fn matcher_style(self) -> MatcherStyle {
        match self {
            Dialect::Claude | Dialect::Native | Dialect::Agents | Dialect::Cursor => MatcherStyle::LiteralOrRegex,
            Dialect::Codex | Dialect::Opencode | Dialect::Hermes | Dialect::Gemini | Dialect::Windsurf => {
                MatcherStyle::Regex
            }
            Dialect::Copilot => MatcherStyle::Anchored,
        }
    }

    /// Maps a config `type` to a handler kind, if this dialect accepts it.
    pub fn handler_kind(self, ty: &str) -> Option<HandlerKind> {
        let kind = match ty {
            "command" => HandlerKind::Shell,
            "http" => HandlerKind::Webhook,
            "prompt" => HandlerKind::Oracle,
            "agent" | "subagent" => HandlerKind::Proxy,
            "shell" => HandlerKind::Shell,
            "webhook" => HandlerKind::Webhook,
            "oracle" => HandlerKind::Oracle,
            "proxy" => HandlerKind::Proxy,
            "mcp_tool" => HandlerKind::McpTool,
            "worker" => HandlerKind::Worker,
            _ => return None,
        };
        let accepted = match self {
            Dialect::Claude | Dialect::Codex => matches!(ty, "command" | "http" | "prompt" | "agent" | "mcp_tool"),
            Dialect::Opencode => matches!(ty, "command" | "http" | "subagent"),
            Dialect::Native => true,
            Dialect::Hermes | Dialect::Agents | Dialect::Gemini | Dialect::Cursor | Dialect::Windsurf => {
                ty == "command"
            }
            Dialect::Copilot => matches!(ty, "command" | "http"),
        };
        accepted.then_some(kind)
    }

    /// Whether this dialect's hooks answer only in JSON (plain stdout is a broken answer, which
    /// `failClosed` turns into a deny).
    pub fn json_only(self) -> bool {
        matches!(self, Dialect::Cursor | Dialect::Copilot)
    }

    /// Whether this dialect's hooks read the payload with a trailing newline.
    pub fn stdin_newline(self) -> bool {
        self != Dialect::Codex
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_after_tool_groups_are_split() {
        assert_eq!(
            Dialect::Claude.config_event("PostToolUseFailure"),
            Some((CanonicalEvent::ToolAfter, ToolResult::Failure))
        );
        assert_eq!(Dialect::Codex.config_event("PostToolUse"), Some((CanonicalEvent::ToolAfter, ToolResult::Either)));
        assert_eq!(Dialect::Codex.config_event("PostToolUseFailure"), None);
        assert_eq!(Dialect::Opencode.config_event("PreToolUse"), None);
        assert_eq!(Dialect::Native.config_event("tool:before"), Some((CanonicalEvent::ToolBefore, ToolResult::Either)));
        assert_eq!(Dialect::Agents.config_event("SessionStart"), None);
    }

    #[test]
    fn handler_types_per_dialect() {
        assert_eq!(Dialect::Claude.handler_kind("agent"), Some(HandlerKind::Proxy));
        assert_eq!(Dialect::Claude.handler_kind("subagent"), None);
        assert_eq!(Dialect::Opencode.handler_kind("prompt"), None);
        assert_eq!(Dialect::Native.handler_kind("oracle"), Some(HandlerKind::Oracle));
        assert_eq!(Dialect::Native.handler_kind("warp"), None);
    }
}
