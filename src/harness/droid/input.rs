//! Droid's stdin and environment, as recorded from Droid 0.225.2 (docs/harnesses/droid.md):
//! `session_id`, `transcript_path`, `cwd`, `permission_mode`, `hook_event_name`, then the
//! event's fields; a tool's output is its text; no trailing newline.

use crate::harness::stdin::{tool_output_text, Stdin};
use crate::harness::{EnvCtx, PayloadCtx};
use crate::vocab::Dialect;
use serde_json::{Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

/// What Claude Code sends that Droid does not.
const NOT_SENT: &[&str] = &[
    "prompt_id",
    "turn_id",
    "model",
    "tool_use_id",
    "duration_ms",
    "session_crons",
    "background_tasks",
    "permission_suggestions",
    "last_assistant_message",
];

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("session_id", &["session_id", "sessionId"], s(""));
    m.copy_or("transcript_path", &["transcript_path", "transcriptPath"], s(""));
    m.copy_or("cwd", &["cwd"], s(ctx.cwd));
    m.copy_or("permission_mode", &["permission_mode"], s("default"));
    m.put_str("hook_event_name", ctx.spelling);
    m.used(&["hook_event_name"]);
    m.rest(NOT_SENT);
    m.map_field("tool_response", |v| if v.is_string() { v.clone() } else { Value::String(tool_output_text(v)) });
    let mut out = m.finish();
    crate::harness::tools::rename_in(&mut out, Dialect::Droid, "tool_name");
    out
}

/// What Droid 0.225.2 sets for a hook it did not get from a plugin (it says so in the value).
const NO_PLUGIN_ROOT: &str = "/PLUGIN_ROOT_NOT_EXPANDED_ERROR";

/// The project under three names, what Droid's runner sets for every hook, and every scalar
/// field of the hook's stdin under its own name (`session_id`, `tool_name`, `stop_hook_active`).
pub(crate) fn env(e: &EnvCtx) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = vec![
        ("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ("FACTORY_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ("DROID_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ("CLAUDE_PLUGIN_ROOT".into(), NO_PLUGIN_ROOT.into()),
        ("DROID_PLUGIN_ROOT".into(), NO_PLUGIN_ROOT.into()),
        ("FORCE_COLOR".into(), "0".into()),
    ];
    for (k, val) in e.input {
        let text = match val {
            Value::String(t) => t.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => continue,
        };
        if !k.is_empty() && !k.contains(['=', '\0']) {
            v.push((k.clone(), text));
        }
    }
    v
}
