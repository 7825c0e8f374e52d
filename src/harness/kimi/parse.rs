//! Kimi's `[[hooks]]` tables. Kimi rejects the whole file for one bad table (an unknown field
//! or event, a missing command, a timeout outside 1–600), so a file with any error loads no hook.
//! Identical commands of one event run once per moment: they become one hook whose matcher is
//! the union of theirs.

use crate::config::entry;
use crate::config::matcher::Matcher;
use crate::config::{FileCtx, HandlerSpec, LoadSink};
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

const FIELDS: [&str; 4] = ["event", "matcher", "command", "timeout"];

/// One table as Kimi validates it.
struct Table {
    spec: EventSpec,
    matcher: String,
    command: String,
    timeout: f64,
}

pub(super) fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let list = match root.get("hooks") {
        None => return 0,
        Some(Value::Array(a)) => a,
        Some(_) => {
            sink.file_diag(ctx, Severity::Error, None, "hooks must be an array of [[hooks]] tables".into());
            return 0;
        }
    };
    let mut tables = Vec::new();
    let mut errors = 0;
    for (i, v) in list.iter().enumerate() {
        match table(ctx, v) {
            Ok(t) => tables.push(t),
            Err((event, m)) => {
                errors += 1;
                sink.file_diag(ctx, Severity::Error, event.as_deref(), format!("hooks[{i}]: {m}"));
            }
        }
    }
    if errors > 0 {
        let m = "Kimi Code refuses the whole config when one [[hooks]] table is wrong: none of its hooks run";
        sink.file_diag(ctx, Severity::Error, None, m.into());
        return 0;
    }
    merge(ctx, tables, sink)
}

fn table(ctx: &FileCtx, v: &Value) -> Result<Table, (Option<String>, String)> {
    let Some(o) = v.as_object() else { return Err((None, "must be a table".into())) };
    if let Some(k) = o.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err((None, format!("unknown field \"{k}\" (a table takes only event, matcher, command, timeout)")));
    }
    let event = o.get("event").and_then(Value::as_str).ok_or((None, "missing event".to_owned()))?;
    let spec = ctx.event(event).ok_or((Some(event.to_owned()), format!("unknown event \"{event}\"")))?;
    let at = |m: &str| (Some(event.to_owned()), m.to_owned());
    let command = o.get("command").and_then(Value::as_str).filter(|c| !c.is_empty()).ok_or(at("missing command"))?;
    let matcher = match o.get("matcher") {
        None => String::new(),
        Some(Value::String(m)) => m.clone(),
        Some(_) => return Err(at("matcher must be a string")),
    };
    let timeout = match o.get("timeout") {
        None => super::DEFAULT_TIMEOUT_SECS,
        Some(t) => match t.as_i64().filter(|n| (1..=600).contains(n)) {
            Some(n) => n as f64,
            None => return Err(at("timeout must be a whole number of seconds from 1 to 600")),
        },
    };
    Ok(Table { spec, matcher, command: command.to_owned(), timeout })
}

/// One hook per (event, command): the matchers joined (any empty one matches everything),
/// the longest timeout kept.
fn merge(ctx: &FileCtx, tables: Vec<Table>, sink: &mut LoadSink) -> usize {
    let mut merged: Vec<Table> = Vec::new();
    for t in tables {
        match merged.iter_mut().find(|m| m.spec.name == t.spec.name && m.command == t.command) {
            Some(m) if m.matcher.is_empty() || t.matcher.is_empty() => m.matcher.clear(),
            Some(m) => {
                m.matcher = format!("(?:{})|(?:{})", m.matcher, t.matcher);
                m.timeout = m.timeout.max(t.timeout);
            }
            None => merged.push(t),
        }
    }
    let n = merged.len();
    for (i, t) in merged.into_iter().enumerate() {
        let handler = HandlerSpec::Shell { command: t.command, args: None, env: Vec::new() };
        let mut h = entry::hook(ctx, t.spec.name, (t.spec.canonical, t.spec.result), &i.to_string(), handler);
        if !t.matcher.is_empty() {
            h.matcher_text = Some(t.matcher.clone());
            // An invalid regular expression matches nothing (Kimi skips it silently).
            h.matcher = Matcher::compile(&t.matcher, ctx.style).unwrap_or_else(|_| {
                let m = format!("matcher {:?} is not a valid regular expression: the hook never runs", t.matcher);
                sink.file_diag(ctx, Severity::Warning, Some(t.spec.name), m);
                Matcher::Literal(Vec::new())
            });
        }
        h.timeout = Some(t.timeout);
        sink.hooks.push(h);
    }
    n
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    fn load(text: &str) -> (Vec<crate::config::Hook>, Vec<String>) {
        let (h, d) = crate::load::parse_text(Path::new("/h/.kimi-code/config.toml"), Some(Dialect::Kimi), text);
        (h, d.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn identical_commands_of_an_event_are_one_hook_and_one_bad_table_loads_nothing() {
        let ok = "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"g.sh\"\n\
                  [[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Write\"\ncommand = \"g.sh\"\ntimeout = 5\n";
        let (hooks, diags) = load(ok);
        assert_eq!((hooks.len(), diags.len()), (1, 0), "{diags:?}");
        assert_eq!(hooks[0].matcher_text.as_deref(), Some("(?:Bash)|(?:Write)"));
        assert_eq!(hooks[0].timeout, Some(30.0));
        let bad = format!("{ok}[[hooks]]\nevent = \"Stop\"\ncommand = \"s.sh\"\nwhen = \"always\"\n");
        let (hooks, diags) = load(&bad);
        assert!(hooks.is_empty());
        assert!(diags.iter().any(|d| d.contains("unknown field \"when\"")), "{diags:?}");
        let (hooks, _) = load("[[hooks]]\nevent = \"Stop\"\ncommand = \"s.sh\"\ntimeout = 601\n");
        assert!(hooks.is_empty());
    }
}
