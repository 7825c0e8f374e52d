//! Augment's Auggie CLI: the `hooks` member of `settings.json` files — system
//! `/etc/augment/settings.json`, user `~/.augment/settings.json`, project
//! `.augment/settings.local.json` and `.augment/settings.json` (docs/harnesses/auggie.md).
//! Claude's file shape with Auggie's own rules: events `PreToolUse`, `PostToolUse`, `Stop`,
//! `SessionStart`, `SessionEnd`, `Notification`, `PromptSubmit`; only `type: "command"` hooks,
//! with optional `args`, run without a shell unless the command needs one; `timeout` in
//! milliseconds (default 60 s); one entry Auggie's schema refuses drops its whole event; stdin
//! is indented JSON; answers only through `hookSpecificOutput`. Read from the source bundled in
//! `@augmentcode/auggie` 0.36.0 (it needs an account, so it cannot run here).

mod answer;
mod input;
mod read;
mod schema;

use crate::config::{Candidate, FileCtx, HandlerSpec, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{CanonicalEvent, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, Shell};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Auggie;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

/// Auggie 0.36.0's `HookEventType`.
pub(crate) static EVENTS: [EventSpec; 7] = [
    n("PreToolUse", E::ToolBefore),
    n("PostToolUse", E::ToolAfter),
    n("Stop", E::TurnStop),
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("Notification", E::Notice),
    n("PromptSubmit", E::PromptSubmit),
];

/// Auggie's default hook timeout (`60e3` ms).
pub(crate) const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// Auggie's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["launch-process"]),
    ("Read", &["view"]),
    ("Write", &["save-file"]),
    ("Edit", &["str-replace-editor", "apply_patch"]),
    ("Grep", &["grep-search"]),
    ("WebFetch", &["web-fetch"]),
    ("WebSearch", &["web-search"]),
];

/// What it is, as data. Matchers: `new RegExp(matcher).test(tool_name)`, unanchored; `""` and
/// `.*` match every tool. Stdin: `JSON.stringify(event, replacer, 2)`. Commands that need a
/// shell run in `bash -c`.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    stdin_pretty: true,
    shell: Shell::Bash,
    ..Descriptor::new(Dialect::Auggie, &EVENTS, MatcherStyle::Regex)
};

impl Harness for Auggie {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    /// Highest precedence first, the order Auggie merges them in.
    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.system.join("augment/settings.json"), Dialect::Auggie, Scope::System),
            Candidate::of(r.home.join(".augment/settings.json"), Dialect::Auggie, Scope::Global),
            Candidate::of(r.cwd.join(".augment/settings.local.json"), Dialect::Auggie, Scope::Local),
            Candidate::of(r.cwd.join(".augment/settings.json"), Dialect::Auggie, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path).1, ".augment" | "augment")
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Auggie settings"
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema =
            crate::harness::schema::FileSchema::of::<schema::AuggieSettings>();
        Some(&S)
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        input::env(e)
    }
}

impl Reader for Auggie {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.augment/settings.json"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    /// Auggie reads its settings as JSON5 (comments and trailing commas allowed).
    fn comments(&self) -> bool {
        true
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        let Some(Value::Object(events)) = root.get("hooks") else {
            if root.get("hooks").is_some_and(|h| !h.is_null()) {
                let m = "hooks: must be an object of event names; Auggie loads no hook from this file".to_owned();
                sink.file_diag(ctx, crate::vocab::Severity::Error, None, m);
            }
            return 0;
        };
        read::parse(ctx, events, sink)
    }
}

impl Planner for Auggie {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }
}

impl AnswerReader for Auggie {
    fn read_run(
        &self,
        code: Option<i32>,
        event: CanonicalEvent,
        stdout: &str,
        stderr: &str,
        out: &mut RunOutcome,
    ) -> bool {
        answer::read(code, event, stdout, stderr, out);
        true
    }
}

impl Aggregator for Auggie {
    /// `v7n`: the hooks run together and the first in configured order that stops gives the
    /// reason (`t.find(v => !v.shouldContinue)`).
    fn aggregate(&self, _event: CanonicalEvent, runs: &mut [&mut RunOutcome]) {
        crate::harness::family::aggregate::first_block_only(runs);
    }
}

impl Replier for Auggie {}

impl Installer for Auggie {}

impl TrustGate for Auggie {
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Auggie runs project hooks without a trust step".into()
    }
}

/// Characters that make Auggie hand a command without `args` to `bash -c` (`cao`).
const SHELL_CHARS: &[char] = &['|', '&', ';', '>', '<', '$', '`'];

/// How Auggie spawns a command (`dao`): `bash -c` when it starts with `~` or (without `args`)
/// holds a shell character; else split into words on blanks (quotes kept together) and run
/// without a shell; with `args`, the command and its args as given.
pub(crate) fn spawn_form(handler: HandlerSpec) -> HandlerSpec {
    let HandlerSpec::Shell { command, args, env } = handler else { return handler };
    let args = args.filter(|a| !a.is_empty());
    let needs_shell = command.starts_with('~') || (args.is_none() && command.contains(SHELL_CHARS));
    if needs_shell {
        let line = match args {
            Some(a) => format!("{command} {}", a.join(" ")),
            None => command,
        };
        return HandlerSpec::Shell { command: line, args: None, env };
    }
    match args {
        Some(a) => HandlerSpec::Shell { command, args: Some(a), env },
        None => {
            let mut words = split_words(&command).into_iter();
            let program = words.next().unwrap_or_default();
            HandlerSpec::Shell { command: program, args: Some(words.collect()), env }
        }
    }
}

/// Auggie's word split (`QIt`): `"…"` and `'…'` are one word without their quotes, anything
/// else splits on whitespace.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut w = String::new();
        if c == '"' || c == '\'' {
            chars.next();
            for ch in chars.by_ref() {
                if ch == c {
                    break;
                }
                w.push(ch);
            }
        } else {
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                w.push(ch);
                chars.next();
            }
        }
        words.push(w);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(command: &str, args: Option<Vec<&str>>) -> HandlerSpec {
        let args = args.map(|a| a.into_iter().map(str::to_owned).collect());
        HandlerSpec::Shell { command: command.into(), args, env: Vec::new() }
    }

    #[test]
    fn a_command_runs_without_a_shell_unless_it_needs_one() {
        assert_eq!(
            spawn_form(shell("python3 'my guard.py' -v", None)),
            shell("python3", Some(vec!["my guard.py", "-v"]))
        );
        assert_eq!(spawn_form(shell("./guard.sh", None)), shell("./guard.sh", Some(vec![])));
        assert_eq!(spawn_form(shell("cat > /tmp/x", None)), shell("cat > /tmp/x", None));
        assert_eq!(spawn_form(shell("~/bin/g", Some(vec!["a"]))), shell("~/bin/g a", None));
        // with args, shell characters are just characters
        assert_eq!(spawn_form(shell("echo", Some(vec!["a|b"]))), shell("echo", Some(vec!["a|b"])));
    }
}
