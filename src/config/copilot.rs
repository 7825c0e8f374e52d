//! GitHub Copilot hook files (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`):
//! `{"version": 1, "disableAllHooks", "hooks": {"preToolUse": [{"type": "command", "bash",
//! "powershell", "command", "exec", "args", "cwd", "env", "timeoutSec", "matcher"}]}}`; `http`
//! entries take `url`, `headers`, `allowedEnvVars`. Matchers are anchored regexes; a file's
//! hooks run one after the other, in order.

use super::entry::{self, Entry, LoadSink, Unit};
use super::groups::FileCtx;
use super::{HandlerSpec, Order, Severity};
use crate::harness::copilot::DEFAULT_TIMEOUT;
use serde_json::{Map, Value};

/// Parses a Copilot file; returns the number of hooks accepted.
pub fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(Value::Object(map)) = root.get("hooks") else { return 0 };
    if root.get("disableAllHooks") == Some(&Value::Bool(true)) {
        return 0;
    }
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        let Some(handler) = handler(e, sink) else { return false };
        let Some((matcher_text, matcher)) = e.matcher(sink, spec.canonical, None) else { return false };
        let mut h = entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), handler);
        h.matcher_text = matcher_text;
        h.matcher = matcher;
        let alias = e.timeout(sink, "timeout", Unit::Seconds, Some(DEFAULT_TIMEOUT));
        h.timeout = e.timeout(sink, "timeoutSec", Unit::Seconds, alias);
        h.harness.order = Order::InOrder;
        h.harness.cwd = e.string(sink, "cwd");
        sink.hooks.push(h);
        true
    })
}

fn handler(e: &Entry, sink: &mut LoadSink) -> Option<HandlerSpec> {
    match e.obj.get("type").and_then(Value::as_str).unwrap_or("command") {
        "command" if e.obj.contains_key("exec") => {
            let exec = e.command(sink, &["exec"])?;
            let args = match e.obj.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
                    a.iter().filter_map(Value::as_str).map(|s| e.ctx.subst.apply(s)).collect()
                }
                Some(_) => {
                    e.diag(sink, Severity::Error, "args must be an array of strings");
                    return None;
                }
            };
            Some(HandlerSpec::Shell { command: exec, args: Some(args), env: entry::env_map(e, sink) })
        }
        "command" => Some(entry::shell(e.command(sink, &["bash", "command"])?, entry::env_map(e, sink))),
        "http" => {
            let url = e.command(sink, &["url"])?;
            let headers = match e.obj.get("headers").and_then(Value::as_object) {
                Some(m) => m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned()))).collect(),
                None => Vec::new(),
            };
            let allowed_env_vars = match e.obj.get("allowedEnvVars").and_then(Value::as_array) {
                Some(a) => a.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
                None => Vec::new(),
            };
            Some(HandlerSpec::Http { url, headers, allowed_env_vars })
        }
        other => {
            e.diag(sink, Severity::Error, &format!("unknown hook type {}", super::groups::quote(other)));
            None
        }
    }
}
