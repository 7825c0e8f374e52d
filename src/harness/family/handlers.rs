//! The handler part of one Claude-shaped hook entry: `command` (or exec form `args`, or a
//! worker), `http`, `mcp_tool`, `prompt`, `agent`/`subagent`, and the aliases native files allow.

use crate::config::{HandlerSpec, Substitutions};
use crate::harness::family::fields::worker_settings;
use crate::harness::family::fields::GroupRules;
use crate::vocab::text::quote;
use crate::vocab::{HandlerKind, Severity};
use serde_json::{Map, Value};

type Diag<'a> = dyn FnMut(Severity, &str) + 'a;

fn non_blank(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

fn string_map(v: &Value) -> Option<Vec<(String, String)>> {
    v.as_object()?.iter().map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned()))).collect()
}

/// Parses the handler part of an entry; `None` (with a diagnostic) drops the hook.
pub(crate) fn parse(rules: GroupRules, subst: &Substitutions, entry: &Value, diag: &mut Diag) -> Option<HandlerSpec> {
    let Some(o) = entry.as_object() else {
        diag(Severity::Error, "entry is not an object");
        return None;
    };
    let ty = match o.get("type") {
        None | Some(Value::Null) => "command".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let Some(kind) = (rules.kind)(&ty) else {
        diag(Severity::Error, &format!("unknown hook type {}", quote(&ty)));
        return None;
    };
    match kind {
        HandlerKind::Shell | HandlerKind::Worker => command(rules, subst, o, kind, diag),
        HandlerKind::Webhook => http(rules.full_handlers && ty == "http", o, diag),
        HandlerKind::McpTool => mcp_tool(o, diag),
        HandlerKind::Oracle => prompt(rules, o, diag),
        HandlerKind::Proxy => proxy(subst, o, diag),
        HandlerKind::Callback => {
            diag(Severity::Error, &format!("unknown hook type {}", quote(&ty)));
            None
        }
    }
}

fn env(o: &Map<String, Value>, diag: &mut Diag) -> Vec<(String, String)> {
    match o.get("env") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => string_map(v).unwrap_or_else(|| {
            diag(Severity::Error, "env must be a string map");
            Vec::new()
        }),
    }
}

/// `command` through the shell, or exec form with `args`; a worker with `type: "worker"` or
/// (Claude, Codex) `"worker": true`.
fn command(
    rules: GroupRules,
    subst: &Substitutions,
    o: &Map<String, Value>,
    kind: HandlerKind,
    diag: &mut Diag,
) -> Option<HandlerSpec> {
    let Some(command) = non_blank(o.get("command")) else {
        diag(Severity::Error, "missing command");
        return None;
    };
    let args = match o.get("args") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => match a.iter().map(|x| x.as_str().map(|s| subst.apply(s))).collect() {
            Some(v) => Some(v),
            None => {
                diag(Severity::Error, "args must be an array of strings");
                return None;
            }
        },
        Some(_) => {
            diag(Severity::Error, "args must be an array of strings");
            return None;
        }
    };
    let (command, env) = (subst.apply(command), env(o, diag));
    let worker_flag = rules.full_handlers && o.get("worker") == Some(&Value::Bool(true));
    if kind == HandlerKind::Worker || worker_flag {
        let settings = worker_settings(o, diag);
        return Some(HandlerSpec::Worker { command, args, env, settings });
    }
    Some(HandlerSpec::Shell { command, args, env })
}

/// A native `webhook`, or (`full`) a Claude/Codex `http` hook with Claude's rules.
fn http(full: bool, o: &Map<String, Value>, diag: &mut Diag) -> Option<HandlerSpec> {
    let Some(url) = non_blank(o.get("url")) else {
        diag(Severity::Error, "missing url");
        return None;
    };
    let headers = match o.get("headers") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => string_map(v).unwrap_or_else(|| {
            diag(Severity::Error, "headers must be a string map");
            Vec::new()
        }),
    };
    let url = url.trim();
    if !full {
        return Some(HandlerSpec::Webhook { url: url.to_owned(), headers });
    }
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        diag(Severity::Error, &format!("url must be http:// or https://: {}", quote(url)));
        return None;
    }
    let allowed_env_vars = match o.get("allowedEnvVars") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
            a.iter().filter_map(Value::as_str).map(str::to_owned).collect()
        }
        Some(_) => {
            diag(Severity::Error, "allowedEnvVars must be an array of variable names");
            Vec::new()
        }
    };
    Some(HandlerSpec::Http { url: url.to_owned(), headers, allowed_env_vars })
}

fn mcp_tool(o: &Map<String, Value>, diag: &mut Diag) -> Option<HandlerSpec> {
    let (Some(server), Some(tool)) = (non_blank(o.get("server")), non_blank(o.get("tool"))) else {
        diag(Severity::Error, "mcp_tool hooks need server and tool");
        return None;
    };
    let input = match o.get("input") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => {
            diag(Severity::Error, "input must be an object");
            return None;
        }
    };
    Some(HandlerSpec::McpTool { server: server.to_owned(), tool: tool.to_owned(), input })
}

fn prompt(rules: GroupRules, o: &Map<String, Value>, diag: &mut Diag) -> Option<HandlerSpec> {
    let Some(prompt) = non_blank(o.get("prompt")) else {
        diag(Severity::Error, "missing prompt");
        return None;
    };
    let model = o.get("model").and_then(Value::as_str).map(str::to_owned);
    // Claude: "If $ARGUMENTS is not present, input JSON is appended to the prompt".
    let prompt = if rules.full_handlers && !prompt.contains("$ARGUMENTS") {
        format!("{prompt}\n\n$ARGUMENTS")
    } else {
        prompt.to_owned()
    };
    Some(HandlerSpec::Oracle { prompt, model })
}

fn proxy(subst: &Substitutions, o: &Map<String, Value>, diag: &mut Diag) -> Option<HandlerSpec> {
    let Some(prompt) = non_blank(o.get("prompt")) else {
        diag(Severity::Error, "missing prompt");
        return None;
    };
    let command = match o.get("command") {
        None | Some(Value::Null) => None,
        Some(v) => match non_blank(Some(v)) {
            Some(c) => Some(subst.apply(c)),
            None => {
                diag(Severity::Error, "command must not be empty");
                return None;
            }
        },
    };
    Some(HandlerSpec::Proxy { prompt: prompt.to_owned(), command, env: env(o, diag) })
}
