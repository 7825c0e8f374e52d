//! The harness a host is, as far as trust goes. `hookrt hook <harness>` runs inside one; a
//! program embedding hookrt may say which it is (`createRuntime({harness})`); the dsh plugin is a
//! host that keeps no trust record of its own. A project's hook files then run only when their
//! own harness would run them **and** this harness would trust the project, or the user approved
//! them with hookrt (docs/security.md).

use crate::vocab::Dialect;
use serde::{Deserialize, Serialize};

/// Declares [`HostHarness`] from the registration table's rows marked `inside`.
macro_rules! host_harness {
    (@rows [$(($variant:ident $name:literal $title:literal))*]) => {
        /// A harness hookrt runs inside, or the host that embeds it, for the trust of a project.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum HostHarness {
            $(
                #[doc = concat!($title, ": hookrt runs inside it (`hookrt hook ", $name, "`); its own record says whether it trusts a project.")]
                $variant,
            )*
            /// DeepSeek Harness through `hookrt/dsh`: no record of projects.
            Dsh,
        }

        impl HostHarness {
            /// The harnesses hookrt runs inside (`hookrt hook|install|uninstall <harness>`), in the
            /// table's order.
            pub const HARNESSES: &'static [HostHarness] = &[$(Self::$variant),*];

            /// Every host, the harnesses and then the embedding plugins.
            pub const ALL: &'static [HostHarness] = &[$(Self::$variant,)* Self::Dsh];

            /// The dialect of the files this host reads itself, when it is a harness with hook files.
            pub fn dialect(self) -> Option<Dialect> {
                match self {
                    $(HostHarness::$variant => Some(Dialect::$variant),)*
                    HostHarness::Dsh => None,
                }
            }
        }
    };
    (@rows [$($acc:tt)*] $(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident inside, $($rest:tt)*) => {
        host_harness!(@rows [$($acc)* ($variant $name $title)] $($rest)*);
    };
    (@rows [$($acc:tt)*] $(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident, $($rest:tt)*) => {
        host_harness!(@rows [$($acc)*] $($rest)*);
    };
    ($($rows:tt)*) => {
        host_harness!(@rows [] $($rows)*);
    };
}

crate::vocab::harnesses::harness_table!(host_harness);

impl HostHarness {
    /// The host a harness's dialect names, for `hookrt hook <harness>`.
    pub fn of(d: Dialect) -> Option<Self> {
        Self::HARNESSES.iter().copied().find(|h| h.dialect() == Some(d))
    }

    /// The host a command names (`hookrt hook codex`, `createRuntime({harness: "dsh"})`).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|h| h.as_str() == name)
    }

    /// Its name in commands and history lines.
    pub fn as_str(self) -> &'static str {
        self.dialect().map_or("dsh", Dialect::as_str)
    }

    /// Its name for people (`Claude Code`, `Codex`, ...).
    pub fn title(self) -> &'static str {
        self.dialect().map_or("the dsh plugin", Dialect::title)
    }
}

/// The variable holding `hookrt serve`'s HTTP token in a harness's environment: hooks never get it.
pub(crate) const SERVE_TOKEN_VAR: &str = "HOOKRT_TOKEN";

/// How a flag `hookrt install` writes takes its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// `--event X` or `--event=X`.
    Value,
    /// Alone: `--include-own`.
    Nothing,
    /// Only as `--flag=X`.
    Attached,
}

/// The flags `hookrt install` writes after `hook <harness>`.
const ENTRY_FLAGS: &[(&str, Takes)] = &[
    ("--event", Takes::Value),
    ("--fail-closed", Takes::Value),
    ("--budget", Takes::Value),
    ("--include-own", Takes::Nothing),
    ("--require-hook-approval", Takes::Attached),
];

/// Whether a program word starts hookrt itself: `hookrt`, its native executable, or its
/// `bin/hookrt.js` (alone or after `node`); returns the words after it.
fn after_hookrt(words: &[String]) -> Option<&[String]> {
    let name = |w: &str| w.rsplit('/').next().unwrap_or(w).to_owned();
    let first = name(words.first()?);
    match first.as_str() {
        "hookrt" | "hookrt-native" | "hookrt.js" => Some(&words[1..]),
        "node" | "nodejs" if words.get(1).is_some_and(|w| name(w) == "hookrt.js") => Some(&words[2..]),
        _ => None,
    }
}

/// The harness a command is `hookrt install`'s entry for: exactly `<hookrt> hook <harness>`
/// followed only by the flags install writes (`--event <name>`, `--fail-closed <events>`).
/// Such an entry only means "run hookrt here": hookrt never runs it as a hook, `hookrt trust`
/// never lists it, and `install`/`uninstall` replace only these.
pub(crate) fn hookrt_entry(command: &str) -> Option<HostHarness> {
    let words = shlex::split(command)?;
    hook_call(after_hookrt(&words)?)
}

/// The harness of a `hook <harness>` command line (after the program) whose only flags are
/// those `hookrt install` writes; `None` for any other command line. `hookrt serve` answers only
/// such calls (anything else would let a caller choose files and paths the server then uses).
pub(crate) fn hook_call(rest: &[String]) -> Option<HostHarness> {
    let [hook, harness, flags @ ..] = rest else { return None };
    let host = HostHarness::parse(harness).filter(|h| hook == "hook" && h.dialect().is_some())?;
    let plain = |v: &str| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || "_,:.-".contains(c));
    let mut i = 0;
    while i < flags.len() {
        let (flag, value) = match flags[i].split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (flags[i].as_str(), None),
        };
        let takes = ENTRY_FLAGS.iter().find(|(f, _)| *f == flag)?.1;
        match (takes, value) {
            (Takes::Value | Takes::Attached, Some(v)) if plain(v) => i += 1,
            (Takes::Value, None) if flags.get(i + 1).is_some_and(|v| plain(v)) => i += 2,
            (Takes::Nothing, None) => i += 1,
            _ => return None,
        }
    }
    Some(host)
}

/// Whether a URL is `hookrt install claude --http`'s endpoint for a harness.
pub(crate) fn hookrt_url(url: &str) -> Option<HostHarness> {
    let rest = url.strip_prefix("http://127.0.0.1:")?;
    let (port, path) = rest.split_once('/')?;
    port.parse::<u16>().ok()?;
    HostHarness::parse(path.strip_prefix("hook/")?).filter(|h| h.dialect().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_installs_own_entries_are_hookrts() {
        let own = [
            "hookrt hook claude --event PreToolUse",
            "/opt/x/bin/hookrt-native hook codex --event Stop --fail-closed PreToolUse",
            "'/a b/bin/hookrt' hook gemini --event BeforeTool",
            "node /w/node_modules/hookrt/bin/hookrt.js hook copilot --event preToolUse",
            "hookrt hook hermes --event=pre_tool_call",
            "hookrt hook claude --event PreToolUse --require-hook-approval=project",
        ];
        for c in own {
            assert!(hookrt_entry(c).is_some(), "{c}");
        }
        let others = [
            "hookrt-guard hook claude --event PreToolUse",
            "hookrt hook claude --event PreToolUse; rm -rf ~",
            "hookrt hook claude --event PreToolUse --config /tmp/x",
            "hookrt hook dsh --event x",
            "hookrt hook claude --event $(touch)",
            "hookrt hook claude --event Stop --require-hook-approval project",
            "hookrt run PreToolUse",
            "sh -c 'hookrt hook claude'",
            "node guard.js hook claude",
        ];
        for c in others {
            assert!(hookrt_entry(c).is_none(), "{c}");
        }
        assert_eq!(hookrt_url("http://127.0.0.1:4242/hook/claude"), Some(HostHarness::Claude));
        assert_eq!(hookrt_url("http://127.0.0.1:4242/hook/claude/x"), None);
        assert_eq!(hookrt_url("http://example.com:4242/hook/claude"), None);
    }
}
