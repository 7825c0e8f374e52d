//! `.agents/hooks.json`: `{PreToolUse: [{matcher, command, timeoutMs, denyOnFailure}], PostToolUse,
//! Stop}`, optionally wrapped in `{"hooks": ...}`. Commands run through the shell; timeouts are
//! in milliseconds (default 5 s); `denyOnFailure` makes any failure a deny.

use super::groups::{event_matcher, matcher_field, quote, FileCtx};
use super::{Diagnostic, HandlerSpec, Hook, Severity};
use crate::dialect::Dialect;
use serde_json::{Map, Value};

/// Default timeout of an `.agents` hook, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 5.0;

/// Parses the hooks of an `.agents` file; returns how many were accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, hooks: &mut Vec<Hook>, diags: &mut Vec<Diagnostic>) -> usize {
    let map = match root.get("hooks") {
        Some(Value::Object(m)) => m,
        _ => root,
    };
    let mut count = 0;
    for (event, value) in map {
        if event == "disableAllHooks" {
            continue;
        }
        let Some((canonical, tool_result)) = Dialect::Agents.config_event(event) else {
            diags.push(ctx.diag(Severity::Warning, None, format!("unknown event {} (ignored)", quote(event))));
            continue;
        };
        let Some(list) = value.as_array() else {
            diags.push(ctx.diag(Severity::Error, Some(event), format!("{event}: must be an array of hooks")));
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let at = format!("{event}[{i}]");
            let diag = |sev, m: &str| ctx.diag(sev, Some(event), format!("{at}: {m}"));
            let Some(o) = entry.as_object() else {
                diags.push(diag(Severity::Error, "entry is not an object"));
                continue;
            };
            let Some(command) = o.get("command").and_then(Value::as_str).filter(|c| !c.trim().is_empty()) else {
                diags.push(diag(Severity::Error, "missing command"));
                continue;
            };
            let mut matcher_text = match matcher_field(o) {
                Ok(m) => m,
                Err(e) => {
                    diags.push(diag(Severity::Error, e));
                    continue;
                }
            };
            let matcher = match event_matcher(&mut matcher_text, canonical.has_subject(), Dialect::Agents) {
                Ok((m, dropped)) => {
                    if dropped {
                        diags.push(diag(
                            Severity::Warning,
                            &format!("matcher has no effect on {event} (no matcher subject)"),
                        ));
                    }
                    m
                }
                Err(e) => {
                    diags.push(diag(Severity::Error, &e));
                    continue;
                }
            };
            let timeout = match o.get("timeoutMs") {
                None | Some(Value::Null) => DEFAULT_TIMEOUT,
                Some(v) => match v.as_f64() {
                    Some(ms) if ms > 0.0 && ms.is_finite() => ms / 1000.0,
                    _ => {
                        diags.push(diag(Severity::Error, "timeoutMs must be a positive number of milliseconds"));
                        DEFAULT_TIMEOUT
                    }
                },
            };
            let deny_on_failure = match o.get("denyOnFailure") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    diags.push(diag(Severity::Error, "denyOnFailure must be true or false"));
                    false
                }
            };
            hooks.push(Hook {
                id: format!(
                    "agents:{}:{}:{}:0",
                    ctx.path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
                    event,
                    i
                ),
                dialect: Dialect::Agents,
                event: event.clone(),
                canonical,
                tool_result,
                matcher_text,
                matcher,
                handler: HandlerSpec::Shell { command: ctx.subst.apply(command), args: None, env: Vec::new() },
                timeout: Some(timeout),
                on_error: None,
                deny_on_failure,
                file: ctx.path.to_path_buf(),
                enabled: true,
                fail_closed: false,
                claude: Default::default(),
                env: Vec::new(),
                origin: Default::default(),
            });
            count += 1;
        }
    }
    count
}
