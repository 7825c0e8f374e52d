//! One hook's entry object in the target dialect's field names: the handler, timeout units,
//! flags; what the target cannot say is a warning.

use super::NotConverted;
use crate::config::{HandlerSpec, Hook};
use crate::vocab::Dialect;
use serde_json::{json, Map, Value};

/// The hook's entry object in the target's field names.
pub(crate) fn entry(h: &Hook, to: Dialect, warns: &mut Vec<String>) -> Result<Map<String, Value>, NotConverted> {
    let (command, args, worker) = match &h.handler {
        HandlerSpec::Shell { command, args, .. } => (command, args.as_deref(), false),
        HandlerSpec::Worker { command, args, .. } => (command, args.as_deref(), true),
        other if matches!(to, Dialect::Claude | Dialect::Codex) => {
            let mut e = handler_entry(other);
            add_timeout(&mut e, h, to, warns);
            return Ok(e);
        }
        other => return Err(NotConverted::Handler { kind: other.kind().as_str(), to: to.as_str() }),
    };
    if worker && !matches!(to, Dialect::Claude | Dialect::Codex | Dialect::Native) {
        warns.push("worker: written as a plain command hook".into());
    }
    let mut e = command_entry(h, to, (command, args, worker), warns);
    add_timeout(&mut e, h, to, warns);
    if h.fail_closed {
        match to {
            Dialect::Cursor | Dialect::Claude | Dialect::Codex | Dialect::Native => {
                e.insert("failClosed".into(), json!(true));
            }
            _ => warns.push(format!("failClosed cannot be expressed in {}", to.as_str())),
        }
    }
    if !h.enabled {
        warns.push("disabled hook converted as enabled".into());
    }
    Ok(e)
}

/// A webhook, prompt, agent or MCP hook as Claude and Codex write it.
fn handler_entry(handler: &HandlerSpec) -> Map<String, Value> {
    let mut e = Map::new();
    let mut v = serde_json::to_value(handler).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        let kind = o.remove("kind");
        let ty = match kind.as_ref().and_then(Value::as_str) {
            Some("oracle") => "prompt",
            Some("proxy") => "agent",
            Some("webhook") | Some("http") => "http",
            Some(k) => k,
            None => "command",
        };
        e.insert("type".into(), json!(ty));
        e.extend(o.clone());
    }
    e
}

/// A command hook (shell line or exec form, maybe a worker) in the target's fields.
fn command_entry(
    h: &Hook,
    to: Dialect,
    (command, args, worker): (&str, Option<&[String]>, bool),
    warns: &mut Vec<String>,
) -> Map<String, Value> {
    let mut e = Map::new();
    let exec = |e: &mut Map<String, Value>, key: &str| {
        e.insert(key.into(), json!(command));
        if let Some(a) = args {
            e.insert("args".into(), json!(a));
        }
    };
    match to {
        Dialect::Copilot => {
            e.insert("type".into(), json!("command"));
            if args.is_some() {
                exec(&mut e, "exec");
            } else {
                e.insert("bash".into(), json!(command));
            }
        }
        Dialect::Cursor | Dialect::Windsurf => {
            e.insert("command".into(), json!(shell_line(command, args, warns)));
        }
        Dialect::Droid | Dialect::Antigravity | Dialect::Kiro => {
            e.insert("type".into(), json!("command"));
            e.insert("command".into(), json!(shell_line(command, args, warns)));
        }
        Dialect::Native => {
            e.insert("type".into(), json!(if worker { "worker" } else { "shell" }));
            exec(&mut e, "command");
        }
        Dialect::Gemini | Dialect::Opencode => {
            e.insert("type".into(), json!("command"));
            e.insert("command".into(), json!(shell_line(command, args, warns)));
            if let (Dialect::Gemini, Some(n)) = (to, &h.harness.name) {
                e.insert("name".into(), json!(n));
            }
        }
        _ => {
            e.insert("type".into(), json!("command"));
            exec(&mut e, "command");
            if worker && matches!(to, Dialect::Claude | Dialect::Codex) {
                e.insert("worker".into(), json!(true));
            }
        }
    }
    e
}

/// An exec-form command as one shell line (quoted) for targets without `args`.
fn shell_line(command: &str, args: Option<&[String]>, warns: &mut Vec<String>) -> String {
    match args {
        None => command.to_owned(),
        Some(a) => {
            warns.push("exec form written as a shell command line".into());
            let mut words = vec![command.to_owned()];
            words.extend(a.iter().cloned());
            shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
        }
    }
}

fn add_timeout(e: &mut Map<String, Value>, h: &Hook, to: Dialect, warns: &mut Vec<String>) {
    let Some(secs) = h.timeout else { return };
    let num = |x: f64| if x.fract() == 0.0 { json!(x as i64) } else { json!(x) };
    match to {
        Dialect::Gemini => {
            e.insert("timeout".into(), num((secs * 1000.0).round()));
        }
        Dialect::Copilot => {
            e.insert("timeoutSec".into(), num(secs));
        }
        Dialect::Windsurf => warns.push(format!("timeout {secs} s cannot be expressed in Windsurf")),
        // Antigravity's are whole seconds.
        Dialect::Antigravity => {
            e.insert("timeout".into(), num(secs.ceil()));
        }
        // Auggie's timeouts are milliseconds.
        Dialect::Auggie => {
            e.insert("timeout".into(), num((secs * 1000.0).round()));
        }
        // Qwen Code reads 1000 and more as milliseconds.
        Dialect::Qwen if secs >= 1000.0 => {
            e.insert("timeout".into(), num((secs * 1000.0).round()));
        }
        _ => {
            e.insert("timeout".into(), num(secs));
        }
    }
}
