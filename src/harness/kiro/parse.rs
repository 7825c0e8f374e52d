//! A Kiro v3 hook file: `{"version": "v1", "hooks": [{name, trigger, matcher, action, timeout,
//! enabled}]}`. A file without `"version": "v1"` (the IDE's older `when`/`then` files share the
//! folder) is reported and skipped; each bad entry is reported and dropped.

use crate::config::matcher::Matcher;
use crate::config::{entry, FileCtx, LoadSink};
use crate::vocab::text::quote;
use crate::vocab::Severity;
use serde_json::{Map, Value};
use super::schema::{Action, KiroEntry};

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
    let mut names: Vec<String> = Vec::new();
    let mut count = 0;
    for (i, v) in list.iter().enumerate() {
        // Each entry through its type (schema.rs): what it refuses is the entry's error.
        let e = match crate::harness::schema::read_as::<KiroEntry>(v) {
            Ok(e) => e,
            Err(e) => {
                let event = v.get("trigger").and_then(Value::as_str);
                let at = crate::harness::schema::render_path(e.path());
                sink.file_diag(ctx, Severity::Error, event, format!("hooks[{i}]{at}: {}", e.inner()));
                continue;
            }
        };
        for k in v.as_object().into_iter().flat_map(Map::keys).filter(|k| !FIELDS.contains(&k.as_str())) {
            sink.file_diag(ctx, Severity::Warning, None, format!("hooks[{i}]: unknown field {} (ignored)", quote(k)));
        }
        if names.contains(&e.name.0) {
            let m = format!("hooks[{i}]: name {} is used twice", quote(&e.name.0));
            sink.file_diag(ctx, Severity::Warning, None, m);
        }
        names.push(e.name.0.clone());
        count += usize::from(entry_of(ctx, i, e, sink));
    }
    count
}

/// Makes the hook of a valid entry; `false` when hookrt does not run it (reported).
fn entry_of(ctx: &FileCtx, i: usize, e: KiroEntry, sink: &mut LoadSink) -> bool {
    let (trigger, name) = (e.trigger.name(), &e.name.0);
    let Some(spec) = ctx.event(&trigger) else {
        let m = format!("hooks[{i}] ({name}): {trigger} is fired by Kiro's IDE or spec workflow; hookrt does not run it");
        sink.file_diag(ctx, Severity::Warning, Some(&trigger), m);
        return false;
    };
    let command = match &e.action {
        Action::Command(c) => c,
        Action::Agent => {
            let m = format!("hooks[{i}] ({name}): agent actions are prompts for Kiro's own agent; hookrt does not run them");
            sink.file_diag(ctx, Severity::Warning, Some(&trigger), m);
            return false;
        }
    };
    // Empty means everything.
    let (matcher_text, matcher) = e.matcher.map_or((None, Matcher::All), |p| (p.text, p.matcher));
    let mut h = entry::hook(
        ctx,
        spec.name,
        (spec.canonical, spec.result),
        &i.to_string(),
        entry::shell(ctx.subst.apply(command), Vec::new()),
    );
    h.matcher_text = matcher_text.filter(|_| spec.matcher);
    h.matcher = if spec.matcher { matcher } else { Matcher::All };
    h.timeout = Some(e.timeout.map_or(super::DEFAULT_TIMEOUT_SECS, |t| t.0));
    h.enabled = e.enabled.unwrap_or(true);
    h.harness.name = Some(name.clone());
    sink.hooks.push(h);
    true
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
