//! A Kiro v3 hook file: `{"version": "v1", "hooks": [{name, trigger, matcher, action, timeout,
//! enabled}]}`. A file without `"version": "v1"` (the IDE's older `when`/`then` files share the
//! folder) is reported and skipped; each bad entry is reported and dropped.

use crate::config::matcher::{compile_matcher, Matcher};
use crate::config::{entry, FileCtx, LoadSink};
use crate::vocab::text::quote;
use crate::vocab::Severity;
use serde_json::{Map, Value};

/// Triggers Kiro fires from its IDE or spec workflow, for which hookrt has no moment.
const OTHER_TRIGGERS: [&str; 6] =
    ["PreTaskExec", "PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual"];
const FIELDS: [&str; 6] = ["name", "trigger", "matcher", "action", "timeout", "enabled"];

pub(super) fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    if root.get("version").and_then(Value::as_str) != Some("v1") {
        let m = "not a Kiro v1 hooks file (needs \"version\": \"v1\"; the IDE's when/then hooks are not read)";
        sink.file_diag(ctx, Severity::Warning, None, m.into());
        return 0;
    }
    let Some(list) = root.get("hooks").and_then(Value::as_array) else {
        sink.file_diag(ctx, Severity::Error, None, "hooks: must be an array of hooks".into());
        return 0;
    };
    let mut names: Vec<&str> = Vec::new();
    let mut count = 0;
    for (i, v) in list.iter().enumerate() {
        // The entry's type (schema.rs) first: what it refuses is the entry's error.
        if let Err(e) = crate::harness::schema::read_as::<super::schema::KiroEntry>(v) {
            let event = v.get("trigger").and_then(Value::as_str);
            let at = crate::harness::schema::render_path(e.path());
            sink.file_diag(ctx, Severity::Error, event, format!("hooks[{i}]{at}: {}", e.inner()));
            continue;
        }
        match entry_of(ctx, i, v, &mut names, sink) {
            Ok(added) => count += usize::from(added),
            Err((event, m)) => sink.file_diag(ctx, Severity::Error, event.as_deref(), format!("hooks[{i}]: {m}")),
        }
    }
    count
}

type Problem = (Option<String>, String);

/// Reads one entry; `Ok(false)` when it is valid but not run by hookrt.
fn entry_of<'a>(
    ctx: &FileCtx,
    i: usize,
    v: &'a Value,
    names: &mut Vec<&'a str>,
    sink: &mut LoadSink,
) -> Result<bool, Problem> {
    let Some(o) = v.as_object() else { return Err((None, "must be an object".into())) };
    for k in o.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        sink.file_diag(ctx, Severity::Warning, None, format!("hooks[{i}]: unknown field {} (ignored)", quote(k)));
    }
    let name = o.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()).ok_or((None, "missing name".into()))?;
    if names.contains(&name) {
        sink.file_diag(ctx, Severity::Warning, None, format!("hooks[{i}]: name {} is used twice", quote(name)));
    }
    names.push(name);
    let trigger = o.get("trigger").and_then(Value::as_str).ok_or((None, "missing trigger".to_owned()))?;
    let at = |m: String| (Some(trigger.to_owned()), m);
    let Some(spec) = ctx.event(trigger) else {
        if OTHER_TRIGGERS.contains(&trigger) {
            let m = format!(
                "hooks[{i}] ({name}): {trigger} is fired by Kiro's IDE or spec workflow; hookrt does not run it"
            );
            sink.file_diag(ctx, Severity::Warning, Some(trigger), m);
            return Ok(false);
        }
        return Err(at(format!("unknown trigger {}", quote(trigger))));
    };
    let action = o.get("action").and_then(Value::as_object).ok_or(at("missing action".into()))?;
    let command = match action.get("type").and_then(Value::as_str) {
        Some("command") => action
            .get("command")
            .and_then(Value::as_str)
            .filter(|c| !c.trim().is_empty())
            .ok_or(at("a command action needs a command".into()))?,
        Some("agent") => {
            let m = format!(
                "hooks[{i}] ({name}): agent actions are prompts for Kiro's own agent; hookrt does not run them"
            );
            sink.file_diag(ctx, Severity::Warning, Some(trigger), m);
            return Ok(false);
        }
        _ => return Err(at("action.type must be \"command\" or \"agent\"".into())),
    };
    let Options { matcher_text, matcher, timeout, enabled } = options(ctx, o).map_err(at)?;
    let spec_pair = (spec.canonical, spec.result);
    let mut h =
        entry::hook(ctx, trigger, spec_pair, &i.to_string(), entry::shell(ctx.subst.apply(command), Vec::new()));
    h.matcher_text = matcher_text.filter(|_| spec.matcher);
    h.matcher = if spec.matcher { matcher } else { Matcher::All };
    h.timeout = Some(timeout);
    h.enabled = enabled;
    h.harness.name = Some(name.to_owned());
    sink.hooks.push(h);
    Ok(true)
}

/// An entry's optional fields.
struct Options {
    matcher_text: Option<String>,
    matcher: Matcher,
    timeout: f64,
    enabled: bool,
}

fn options(ctx: &FileCtx, o: &Map<String, Value>) -> Result<Options, String> {
    let matcher_text = match o.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("matcher must be a string".into()),
    };
    let matcher = compile_matcher(matcher_text.as_deref(), ctx.style).map_err(|e| e.to_string())?;
    let timeout = match o.get("timeout") {
        None | Some(Value::Null) => super::DEFAULT_TIMEOUT_SECS,
        Some(t) => t.as_f64().filter(|t| *t > 0.0).ok_or("timeout must be a positive number of seconds")?,
    };
    let enabled = match o.get("enabled") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("enabled must be true or false".into()),
    };
    Ok(Options { matcher_text, matcher, timeout, enabled })
}

#[cfg(test)]
mod tests {
    use crate::vocab::Dialect;
    use std::path::Path;

    #[test]
    fn a_v1_file_loads_its_command_hooks_and_reports_the_rest() {
        let text = r#"{"version":"v1","hooks":[
          {"name":"guard","trigger":"PreToolUse","matcher":"execute_bash","action":{"type":"command","command":"true"},"timeout":5},
          {"name":"remind","trigger":"PreToolUse","action":{"type":"agent","prompt":"tests?"}},
          {"name":"lint","trigger":"PostFileSave","matcher":"\\.ts$","action":{"type":"command","command":"npm run lint"}},
          {"name":"guard","trigger":"Stop","action":{"type":"command","command":"true"}}]}"#;
        let (hooks, diags) = crate::load::parse_text(Path::new("/p/.kiro/hooks/a.json"), Some(Dialect::Kiro), text);
        assert_eq!(hooks.len(), 2, "a name used twice is a warning: the Stop hook loads too");
        assert_eq!(hooks[0].timeout, Some(5.0));
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert!(msgs.iter().any(|m| m.contains("agent actions")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("PostFileSave is fired by Kiro's IDE")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("hooks[3]: name \"guard\" is used twice")), "{msgs:?}");
        let ide = r#"{"name":"x","version":"1.0.0","when":{"type":"fileEdited"},"then":{"type":"askAgent"}}"#;
        let (hooks, diags) = crate::load::parse_text(Path::new("/p/.kiro/hooks/b.json"), Some(Dialect::Kiro), ide);
        assert!(hooks.is_empty() && diags[0].message.contains("not a Kiro v1 hooks file"));
    }
}
