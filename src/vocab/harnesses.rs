//! The registration table: one row per harness whose hook files hookrt reads. Everything that
//! needs every harness derives from it — the [`Dialect`](crate::vocab::Dialect) enum and its
//! names, the harness folders' module declarations and the registry of their descriptors — so
//! adding a harness is one folder under `harness/` and one row here (docs/architecture.md).
//!
//! A row is `Variant "name" "Title" folder::Descriptor`, its rustdoc first, then `inside` when
//! hookrt runs inside that harness as its hook (`hookrt hook|install <name>`, a
//! [`HostHarness`](crate::vocab::HostHarness)). The order is the
//! registry's: discovery reads the Claude Code family's files in this order within each scope,
//! and a list of every harness (`hookrt schema`, the docs' tables) follows it.

/// Calls `$then!` with every row of the table (see the module's documentation).
macro_rules! harness_table {
    ($then:ident) => {
        $then! {
            /// Claude Code `settings*.json`.
            Claude "claude" "Claude Code" claude::Claude inside,
            /// Codex `hooks.json` (and `config.toml` `[hooks]`).
            Codex "codex" "Codex" codex::Codex inside,
            /// opencode `opencode.json(c)`.
            Opencode "opencode" "opencode" opencode::Opencode,
            /// Hermes `config.yaml` `hooks:` block.
            Hermes "hermes" "Hermes" hermes::Hermes inside,
            /// `.agents/hooks.json`.
            Agents "agents" ".agents" agents::Agents,
            /// hookrt / hooks-adapter native file (`events` root, canonical names).
            Native "native" "hookrt" native::Native,
            /// Gemini CLI `.gemini/settings.json` (and extensions' `hooks/hooks.json`).
            Gemini "gemini" "Gemini CLI" gemini::Gemini inside,
            /// Cursor `.cursor/hooks.json`.
            Cursor "cursor" "Cursor" cursor::Cursor,
            /// GitHub Copilot CLI / coding agent `.github/hooks/*.json`, `~/.copilot/hooks/*.json`.
            Copilot "copilot" "Copilot CLI" copilot::Copilot inside,
            /// Windsurf (Cascade) `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`.
            Windsurf "windsurf" "Windsurf" windsurf::Windsurf,
            /// Qwen Code `.qwen/settings.json` (user, project, system).
            Qwen "qwen" "Qwen Code" qwen::Qwen,
            /// Factory Droid `.factory/hooks.json` (events at the root), else `hooks` in `settings.json`.
            Droid "droid" "Droid" droid::Droid,
            /// Cline: one executable per event, named after it, in `.clinerules/hooks/`,
            /// `.cline/hooks/`, `~/.cline/hooks/` and `~/Documents/Cline/Hooks/`.
            Cline "cline" "Cline" cline::Cline,
            /// Kimi Code CLI `[[hooks]]` tables in `~/.kimi-code/config.toml`.
            Kimi "kimi" "Kimi Code" kimi::Kimi,
            /// Augment's Auggie CLI: `hooks` in `.augment/settings(.local).json`,
            /// `~/.augment/settings.json` and `/etc/augment/settings.json`.
            Auggie "auggie" "Auggie" auggie::Auggie,
            /// Google Antigravity: named hooks in `hooks.json` of `.agents/` (told from the
            /// `.agents` dialect by shape), `.agent/`, `_agents/` or `_agent/`.
            Antigravity "antigravity" "Antigravity" antigravity::Antigravity,
            /// Kiro CLI 3.x standalone hook files `.kiro/hooks/<name>.json`, `~/.kiro/hooks/<name>.json`.
            Kiro "kiro" "Kiro" kiro::Kiro,
        }
    };
}

pub(crate) use harness_table;

impl crate::vocab::Dialect {
    /// The harness whose shapes are hookrt's canonical ones: a host's payload, its tool names
    /// and the answers the `listen` contract reads are Claude Code's (SPEC.md), and the Claude
    /// Code family (`harness/family/`) shares them. Callback hooks and workers are its hooks.
    pub const CANONICAL: crate::vocab::Dialect = crate::vocab::Dialect::Claude;
}
