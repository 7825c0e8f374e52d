//! A harness as data: what it is called, its events, how its matchers read, where its folder
//! is, how its hooks' stdin, shell and environment look. Each harness folder holds one
//! `static DESCRIPTOR`; its behaviour is in its parts (`harness/parts/`).

use crate::config::HomeDir;
use crate::harness::tools::ToolNames;
use crate::harness::Discovery;
use crate::vocab::{Dialect, EventSpec, MatcherStyle, Releases, Shell};

/// What one harness is. [`Descriptor::new`] gives the Claude Code family's values for every
/// field but the three each harness names; a folder changes the others with `..`.
#[derive(Debug)]
pub(crate) struct Descriptor {
    pub dialect: Dialect,
    /// The event names its files use (and a host may dispatch).
    pub events: &'static [EventSpec],
    /// How a matcher string is read.
    pub matcher_style: MatcherStyle,
    /// How discovery orders its rows.
    pub discovery: Discovery,
    /// When its path rule also takes names other harnesses' files have (`settings*.json`,
    /// `config.toml`, `*.yaml`, the `.agents` folder Antigravity shares): the rank at which it
    /// is tried after every harness whose rule is its own folder or file name, lowest first.
    pub path_fallback: Option<u8>,
    /// Its own folder when a variable moves it (`$CODEX_HOME`): hookrt reads the variable once
    /// with the other options, and its files, trust records and install entries follow it.
    pub home_dir: Option<HomeDir>,
    /// Its own names of tools, by Claude's name; `None` when it names them as Claude Code does.
    pub tool_names: Option<&'static ToolNames>,
    /// Whether the stdin JSON ends with a newline.
    pub stdin_newline: bool,
    /// Whether the stdin JSON is indented (two spaces, as `JSON.stringify(v, null, 2)`).
    pub stdin_pretty: bool,
    /// The shell its hooks' command strings run in.
    pub shell: Shell,
    /// Variables of the host's environment it keeps from its hooks; a trailing `*` is a prefix.
    pub env_removed: &'static [&'static str],
    /// Whether its hooks of SessionStart, Setup, CwdChanged and FileChanged get a
    /// `CLAUDE_ENV_FILE` to export variables through.
    pub env_file: bool,
    /// Its releases whose rules differ (`None`: hookrt follows one set of rules for it).
    pub releases: Option<&'static Releases>,
}

impl Descriptor {
    /// A harness with these events and matchers, and the family's values elsewhere.
    pub(crate) const fn new(dialect: Dialect, events: &'static [EventSpec], matcher_style: MatcherStyle) -> Self {
        Descriptor {
            dialect,
            events,
            matcher_style,
            discovery: Discovery::Own,
            path_fallback: None,
            home_dir: None,
            tool_names: None,
            stdin_newline: true,
            stdin_pretty: false,
            shell: Shell::Sh,
            env_removed: &[],
            env_file: false,
            releases: None,
        }
    }
}
