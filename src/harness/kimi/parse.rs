//! Kimi's `[[hooks]]` tables. Kimi rejects the whole file for one bad table (an unknown field
//! or event, a missing command, a timeout outside 1–600), so a file with any error loads no hook.
//! Identical commands of one event run once per moment: they become one hook whose matcher is
//! the union of theirs.

use crate::config::entry;
use crate::config::matcher::Matcher;
use crate::config::{FileCtx, HandlerSpec, LoadSink};
use crate::harness::kimi::schema::KimiHook;
use crate::harness::schema;
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

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

/// One table, read through its type ([`KimiHook`]); an error names the table's event when it has
/// one.
fn table(ctx: &FileCtx, v: &Value) -> Result<Table, (Option<String>, String)> {
    let Some(o) = v.as_object() else { return Err((None, "must be a table".into())) };
    let named = o.get("event").and_then(Value::as_str).map(str::to_owned);
    let t = match schema::leniently::<KimiHook>(v).0 {
        Ok(t) => t,
        Err(why) => return Err(unknown_field(&why).map_or((named, why), |m| (None, m))),
    };
    let event = t.event.0;
    let spec = ctx.event(&event).ok_or_else(|| (Some(event.clone()), format!("unknown event \"{event}\"")))?;
    Ok(Table {
        spec,
        matcher: t.matcher.map(|m| m.0).unwrap_or_default(),
        command: t.command.0,
        timeout: t.timeout.and_then(|s| s.0.as_f64()).unwrap_or(super::DEFAULT_TIMEOUT_SECS),
    })
}

/// serde's "unknown field `when`, expected one of `event`, …" in Kimi's words.
fn unknown_field(why: &str) -> Option<String> {
    let (field, rest) = why.strip_prefix("unknown field `")?.split_once('`')?;
    let fields = rest.strip_prefix(", expected one of ").unwrap_or_default().replace('`', "");
    Some(format!("unknown field \"{field}\" (a table takes only {fields})"))
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
        let unknown = "hooks[2]: unknown field \"when\" (a table takes only event, matcher, command, timeout)";
        assert_eq!(diags[0], unknown);
        let (hooks, _) = load("[[hooks]]\nevent = \"Stop\"\ncommand = \"s.sh\"\ntimeout = 601\n");
        assert!(hooks.is_empty());
    }

    /// Each table is read through its type, with Kimi's words for what is wrong, and the event
    /// of a table that names one on its diagnostic.
    #[test]
    fn tables_are_read_through_the_type_in_kimis_words() {
        let text = "hooks = [{ command = \"a.sh\" }, { event = \"PreToolUse\", command = \"\" },\n\
                    { event = \"Nope\", command = \"b.sh\" }, { event = \"Stop\", matcher = 3, command = \"c.sh\" },\n\
                    { event = \"Stop\", command = \"d.sh\", timeout = 601 }, 5]\n";
        let (hooks, d) = crate::load::parse_text(Path::new("/h/.kimi-code/config.toml"), Some(Dialect::Kimi), text);
        assert!(hooks.is_empty());
        let got: Vec<(Option<&str>, &str)> = d.iter().map(|d| (d.event.as_deref(), d.message.as_str())).collect();
        assert_eq!(
            got[..6],
            [
                (None, "hooks[0]: missing event"),
                (Some("PreToolUse"), "hooks[1]: missing command"),
                (Some("Nope"), "hooks[2]: unknown event \"Nope\""),
                (Some("Stop"), "hooks[3]: matcher must be a string"),
                (Some("Stop"), "hooks[4]: timeout must be a whole number of seconds from 1 to 600"),
                (None, "hooks[5]: must be a table"),
            ]
        );
        assert_eq!(got.len(), 7, "{got:?}");
    }
}
