//! The Claude Code family: what Claude Code defined and most harnesses copied — the `hooks`
//! object of matcher groups ([`groups`], [`handlers`], [`fields`]), Claude's event names
//! ([`events`]), the stdin's base fields ([`input`]), the answer JSON and exit codes
//! ([`answer`]), the reply `hookrt hook` prints ([`reply`]) and the file types the JSON
//! Schemas come from ([`schema`]). Harness folders share these from here, never from another
//! harness's folder.

pub(crate) mod aggregate;
pub(crate) mod answer;
pub(crate) mod events;
pub(crate) mod fields;
pub(crate) mod groups;
pub(crate) mod handlers;
pub(crate) mod input;
pub(crate) mod reply;
pub(crate) mod schema;

use crate::config::{FileCtx, LoadSink};
use schema::Family;
use serde_json::{Map, Value};

/// Reads the `hooks` member of a family file (`member` names it in diagnostics): an object of
/// events, missing (an error only in a dedicated hooks file without `disableAllHooks`), or wrong.
pub(crate) fn parse_member<F: Family>(
    ctx: &FileCtx,
    root: &Map<String, Value>,
    dedicated: bool,
    sink: &mut LoadSink,
) -> usize {
    let member = ctx.member;
    match root.get(member) {
        Some(Value::Object(map)) => groups::parse_event_map::<F>(ctx, map, sink),
        None | Some(Value::Null) => {
            if dedicated && root.get("disableAllHooks").and_then(Value::as_bool).is_none() {
                sink.file_diag(ctx, crate::vocab::Severity::Error, None, format!("config has no \"{member}\" object"));
            }
            0
        }
        Some(_) => {
            let m = format!("\"{member}\" must be an object of event names");
            sink.file_diag(ctx, crate::vocab::Severity::Error, None, m);
            0
        }
    }
}
