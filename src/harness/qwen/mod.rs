//! Qwen Code: `settings.json` (system, user, project; docs/harnesses/qwen.md). Claude's event
//! names and file shape, Gemini CLI's tool names (`run_shell_command`), its own stdin fields
//! (`timestamp`, `tool_call_id`), `bash -c` with the project in `QWEN_PROJECT_DIR`,
//! `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`, and timeouts in seconds where a value of 1000
//! or more keeps its older meaning of milliseconds. Read from Qwen Code 0.24.4's source and
//! recorded from the real CLI (e2e/harnesses/qwen-code).

mod input;

use crate::config::{Candidate, FileCtx, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Installer, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{Answer, Dialect, EventSpec, MatcherStyle, RunOutcome, Scope, Shell, ToolResult};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Qwen;

const fn n(name: &'static str, e: E) -> EventSpec {
    EventSpec::named(name, e)
}

/// Qwen Code 0.24.4's `HookEventName` (`SessionDelete`, which has no canonical event, is not
/// read: a file naming it gets an "unknown event" warning).
pub(crate) static EVENTS: [EventSpec; 21] = [
    n("SessionStart", E::SessionStart),
    n("SessionEnd", E::SessionEnd),
    n("UserPromptSubmit", E::PromptSubmit),
    n("UserPromptExpansion", E::PromptExpand),
    n("PreToolUse", E::ToolBefore),
    EventSpec::tool("PostToolUse", E::ToolAfter, ToolResult::Success),
    EventSpec::tool("PostToolUseFailure", E::ToolAfter, ToolResult::Failure),
    n("PostToolBatch", E::ToolBatch),
    n("Stop", E::TurnStop),
    n("StopFailure", E::TurnFail),
    n("SubagentStart", E::SubagentStart),
    n("SubagentStop", E::SubagentEnd),
    n("Notification", E::Notice),
    n("PreCompact", E::CompactBefore),
    n("PostCompact", E::CompactAfter),
    n("PermissionRequest", E::PermissionRequest),
    n("PermissionDenied", E::PermissionDenied),
    n("MessageDisplay", E::MessageDisplay),
    n("InstructionsLoaded", E::InstructionsLoad),
    n("TodoCreated", E::TaskCreate),
    n("TodoCompleted", E::TaskComplete),
];

/// Qwen's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["run_shell_command"]),
    ("Read", &["read_file"]),
    ("Write", &["write_file"]),
    ("Edit", &["edit"]),
    ("NotebookEdit", &["notebook_edit"]),
    ("Grep", &["grep_search"]),
    ("Glob", &["glob"]),
    ("LS", &["list_directory"]),
    ("WebFetch", &["web_fetch"]),
    ("WebSearch", &["web_search"]),
    ("TodoWrite", &["todo_write"]),
    ("Task", &["agent"]),
    ("AskUserQuestion", &["ask_user_question"]),
];

/// What it is, as data. Matchers: an unanchored regular expression (`run` matches
/// `run_shell_command`); `""`, `*` and `.*` match every tool.
static DESCRIPTOR: Descriptor = Descriptor {
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    shell: Shell::Bash,
    ..Descriptor::new(Dialect::Qwen, &EVENTS, MatcherStyle::EntryList)
};

impl Harness for Qwen {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        static S: crate::harness::schema::FileSchema = crate::harness::schema::FileSchema::of::<QwenSettings>();
        Some(&S)
    }

    /// System, user, project — the order Qwen Code merges its settings in.
    fn files(&self, r: Roots) -> Vec<Candidate> {
        vec![
            Candidate::of(r.system.join("qwen-code/settings.json"), Dialect::Qwen, Scope::System),
            Candidate::of(r.home.join(".qwen/settings.json"), Dialect::Qwen, Scope::Global),
            Candidate::of(r.cwd.join(".qwen/settings.json"), Dialect::Qwen, Scope::Project),
        ]
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path).1, ".qwen" | "qwen-code")
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Qwen Code settings"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    /// `QWEN_PROJECT_DIR`, `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` are the session's
    /// working directory; `QWEN_CODE_SESSION_ID` its id.
    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        let mut v = vec![
            ("GEMINI_PROJECT_DIR".into(), e.cwd.to_owned()),
            ("CLAUDE_PROJECT_DIR".into(), e.cwd.to_owned()),
            ("QWEN_PROJECT_DIR".into(), e.cwd.to_owned()),
        ];
        if !e.session_id.is_empty() {
            v.push(("QWEN_CODE_SESSION_ID".into(), e.session_id.to_owned()));
        }
        // The session's storage folder: `~/.qwen/projects/<project path with every other
        // character than a letter or digit as '-'>` (`sanitizeCwd`).
        let slug: String = e.project_dir.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        v.push(("QWEN_CODE_PROJECT_DIR".into(), e.home.join(".qwen/projects").join(slug).display().to_string()));
        v
    }
}

impl Reader for Qwen {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.qwen/settings.json"]
    }

    fn dedicated(&self, _path: &Path) -> bool {
        false
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        crate::harness::family::parse_member::<QwenFamily>(ctx, root, false, sink)
    }
}

impl Planner for Qwen {
    fn names_tools(&self) -> bool {
        true
    }

    fn own_tool_names_only(&self) -> bool {
        true
    }

    /// `matchesHookPattern`: `Bash` names `run_shell_command` as a whole entry, not in a regex.
    fn canonical_aliases(&self) -> bool {
        true
    }
}

impl AnswerReader for Qwen {
    /// Exit 2 reads stderr only (`hookRunner.ts`): a JSON object there (or a JSON string
    /// holding one) is the hook's answer, like stdout's on exit 0; other text is the reason of a
    /// deny; an empty stderr gives no output at all, so nothing is decided.
    fn read_run(&self, code: Option<i32>, event: E, _stdout: &str, stderr: &str, out: &mut RunOutcome) -> bool {
        if code != Some(2) {
            return false;
        }
        let text = stderr.trim();
        if text.is_empty() {
            return true;
        }
        if let Some(obj) = crate::harness::object_answer(text) {
            out.answered = true;
            self.read_answer(&crate::harness::answer_for(&obj, event), event, out);
        } else {
            out.decision = Some(crate::vocab::Decision::Deny);
            out.reason = Some(text.to_owned());
        }
        true
    }

    /// Qwen Code 0.24.4's PreToolUse takes a deny, a reason and context, never a rewritten
    /// input (`firePreToolUseHook`; only a PermissionRequest hook's `updatedInput` applies).
    fn read_answer(&self, a: &Answer, event: E, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        if event == E::ToolBefore {
            out.update_input = None;
        }
    }
}

impl Aggregator for Qwen {
    fn reason_separator(&self) -> &'static str {
        "\n"
    }
}

impl Replier for Qwen {}

impl Installer for Qwen {}

impl TrustGate for Qwen {
    fn why_ungated(&self, _dialect: crate::vocab::Dialect) -> String {
        "Qwen Code runs project hooks without a trust step headless".into()
    }
}

/// Qwen Code's handlers: `command`, `http` (any URL), `prompt`; unanchored regex matchers.
struct QwenFamily;

impl crate::harness::family::schema::Family for QwenFamily {
    const NAME: &'static str = "Qwen";
    /// The types a Qwen Code settings file may declare (`function` hooks exist only in a session).
    const KINDS: &'static [&'static str] = &["command", "http", "prompt"];
    const FULL_HANDLERS: bool = false;
    /// A timeout of 1000 or more is milliseconds (`LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`).
    const MILLIS_FROM: Option<f64> = Some(1000.0);
    type Of = QwenDialect;
}

crate::harness::schema::dialect_marker!(QwenDialect, Dialect::Qwen);

crate::harness::family::schema::events_object!(
    QwenEvents,
    QwenFamily,
    [
        SessionStart,
        SessionEnd,
        UserPromptSubmit,
        UserPromptExpansion,
        PreToolUse,
        PostToolUse,
        PostToolUseFailure,
        PostToolBatch,
        Stop,
        StopFailure,
        SubagentStart,
        SubagentStop,
        Notification,
        PreCompact,
        PostCompact,
        PermissionRequest,
        PermissionDenied,
        MessageDisplay,
        InstructionsLoaded,
        TodoCreated,
        TodoCompleted
    ]
);

/// A Qwen Code `settings.json`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[schemars(title = "Qwen Code settings (hooks)")]
struct QwenSettings {
    #[allow(dead_code)]
    hooks: Option<QwenEvents>,
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    #[test]
    fn the_schema_knows_every_event_the_loader_reads() {
        assert_eq!(super::QwenEvents::NAMES, crate::harness::event_names(Dialect::Qwen));
    }

    #[test]
    fn a_timeout_is_seconds_below_1000_and_milliseconds_from_there() {
        let file = |t: u32| {
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"hooks":[{{"type":"command","command":"true","timeout":{t}}}]}}]}}}}"#
            )
        };
        let timeout = |t| {
            crate::load::parse_text(Path::new("/p/.qwen/settings.json"), Some(Dialect::Qwen), &file(t)).0[0].timeout
        };
        assert_eq!(timeout(10), Some(10.0));
        assert_eq!(timeout(999), Some(999.0));
        assert_eq!(timeout(1500), Some(1.5));
    }
}
