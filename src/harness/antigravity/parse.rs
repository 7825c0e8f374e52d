//! Reading an Antigravity `hooks.json`: `{"<name>": {"enabled": bool, "PreToolUse": [{matcher,
//! hooks: [handler]}], "Stop": [handler], …}}`. As skillsaw measured `agy` 1.1.25: one
//! load-time error drops the whole file; an unknown event or key is dropped with a warning.

use crate::config::matcher::compile_matcher;
use crate::config::{entry, FileCtx, LoadSink};
use crate::harness::antigravity::schema::{AntigravityFile, Handler};
use crate::vocab::text::quote;
use crate::vocab::{EventSpec, Severity};
use serde_json::{Map, Value};

const GROUP_KEYS: [&str; 2] = ["matcher", "hooks"];
const HANDLER_KEYS: [&str; 5] = ["type", "command", "prompt", "model", "timeout"];

/// Whether a `hooks.json` root holds Antigravity's named hooks rather than the `.agents`
/// dialect's event lists: a top-level value that is an object (a named hook), except a lone
/// `"hooks"` wrapper unless what it wraps has Antigravity's matcher groups or `enabled`.
pub(crate) fn is_named_hooks(root: &Map<String, Value>) -> bool {
    if root.iter().any(|(k, v)| k != "hooks" && v.is_object()) {
        return true;
    }
    let Some(inner) = root.get("hooks").and_then(Value::as_object) else { return false };
    let has_groups =
        |v: &Value| v.as_array().is_some_and(|a| a.iter().any(|g| g.get("hooks").is_some_and(Value::is_array)));
    inner.contains_key("enabled") || inner.values().any(has_groups)
}

/// What the file has that Antigravity discards (its errors are the type's, schema.rs).
#[derive(Default)]
struct Check {
    warnings: Vec<String>,
}

impl Check {
    fn unknown(&mut self, at: &str, o: &Map<String, Value>, known: &[&str]) {
        for k in o.keys().filter(|k| !known.contains(&k.as_str())) {
            self.warnings.push(format!("{at}: unknown key {} is discarded by Antigravity", quote(k)));
        }
    }

    fn event(&mut self, at: &str, spec: EventSpec, v: &Value) {
        for (i, item) in v.as_array().into_iter().flatten().enumerate() {
            let at = format!("{at}[{i}]");
            let Some(o) = item.as_object() else { continue };
            if !spec.matcher {
                self.unknown(&at, o, &HANDLER_KEYS);
                continue;
            }
            self.unknown(&at, o, &GROUP_KEYS);
            for (j, h) in o.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                if let Some(h) = h.as_object() {
                    self.unknown(&format!("{at}.hooks[{j}]"), h, &HANDLER_KEYS);
                }
            }
        }
    }

    fn named(&mut self, name: &str, hook: &Value) {
        for (k, v) in hook.as_object().into_iter().flatten() {
            match super::event_of(k) {
                _ if k == "enabled" => {}
                Some(spec) => self.event(&format!("{name}[{k}]"), spec, v),
                None => self.warnings.push(format!("{name}: {} is not an Antigravity event; it never fires", quote(k))),
            }
        }
    }
}

pub(crate) fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    // The file's type (schema.rs) says whether Antigravity loads it at all, and holds its hooks.
    let value = Value::Object(root.clone());
    let Ok(file) = crate::harness::schema::read_as::<AntigravityFile>(&value) else {
        if let Some(p) = crate::harness::schema::check_root(crate::vocab::Dialect::Antigravity, &value) {
            let m = format!("{}: {}; Antigravity loads no hook from this file", p.at, p.message);
            sink.file_diag(ctx, Severity::Error, p.event.as_deref(), m);
        }
        return 0;
    };
    let mut check = Check::default();
    for (name, hook) in root {
        check.named(name, hook);
    }
    for w in check.warnings {
        sink.file_diag(ctx, Severity::Warning, None, w);
    }
    let mut count = 0;
    for (name, hook) in &file.hooks {
        let enabled = hook.enabled.unwrap_or(true);
        for (spec, items) in &hook.events {
            for (i, item) in items.iter().enumerate() {
                for (j, h) in item.handlers.iter().enumerate() {
                    let matcher = item.matcher.as_deref();
                    let at = Place { name, spec: *spec, index: format!("{name}:{i}:{j}"), matcher, enabled };
                    count += usize::from(add(ctx, &at, h, sink));
                }
            }
        }
    }
    count
}

/// Where one handler sits.
struct Place<'a> {
    name: &'a str,
    spec: EventSpec,
    index: String,
    matcher: Option<&'a str>,
    enabled: bool,
}

fn add(ctx: &FileCtx, at: &Place, h: &Handler, sink: &mut LoadSink) -> bool {
    let event = at.spec.name;
    if h.prompt {
        let m = format!("{}: prompt hooks are run by Antigravity's own model; hookrt does not run them", at.name);
        sink.file_diag(ctx, Severity::Warning, Some(event), m);
        return false;
    }
    let Some(command) = h.command.as_deref().filter(|c| !c.trim().is_empty()) else {
        let m = format!("{}: a command hook without a command loads and runs nothing", at.name);
        sink.file_diag(ctx, Severity::Warning, Some(event), m);
        return false;
    };
    let text = at.matcher.filter(|m| !m.is_empty() && *m != "*");
    let matcher = match compile_matcher(text, ctx.style) {
        Ok(m) => m,
        Err(e) => {
            sink.file_diag(ctx, Severity::Warning, Some(event), format!("{}: {e}; this hook never runs", at.name));
            return false;
        }
    };
    let spec = (at.spec.canonical, at.spec.result);
    let mut hook = entry::hook(ctx, event, spec, &at.index, entry::shell(ctx.subst.apply(command), Vec::new()));
    hook.matcher_text = text.map(str::to_owned);
    hook.matcher = matcher;
    hook.enabled = at.enabled;
    hook.timeout = h.timeout.filter(|t| *t > 0).map(|t| t as f64);
    hook.harness.name = Some(at.name.to_owned());
    sink.hooks.push(hook);
    true
}

#[cfg(test)]
mod tests {
    use super::is_named_hooks;
    use crate::vocab::Dialect;
    use serde_json::json;
    use std::path::Path;

    fn obj(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_shape_tells_antigravity_from_the_agents_dialect() {
        assert!(is_named_hooks(&obj(json!({"guard": {"PreToolUse": []}}))));
        assert!(!is_named_hooks(&obj(json!({"PreToolUse": [{"matcher": "Bash", "command": "x"}]}))));
        assert!(!is_named_hooks(&obj(json!({"hooks": {"Stop": [{"command": "x"}]}}))));
        assert!(is_named_hooks(&obj(json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "x"}]}]}}))));
    }

    #[test]
    fn one_load_error_drops_the_file_and_unknown_events_only_warn() {
        let load = |text: &str| {
            let (hooks, diags) =
                crate::load::parse_text(Path::new("/p/.agents/hooks.json"), Some(Dialect::Agents), text);
            (
                hooks.iter().map(|h| h.dialect).collect::<Vec<_>>(),
                diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
            )
        };
        let good = r#"{"a":{"pretooluse":[{"matcher":"run_command","hooks":[{"command":"true","timeout":5}]}],"SessionEnd":[]}}"#;
        let (hooks, diags) = load(good);
        assert_eq!(hooks, vec![Dialect::Antigravity]);
        assert!(diags.iter().any(|d| d.contains("\"SessionEnd\" is not an Antigravity event")), "{diags:?}");
        let bad = r#"{"a":{"Stop":[{"command":"true"}]},"b":{"Stop":[{"command":"true","timeout":1.5}]}}"#;
        let (hooks, diags) = load(bad);
        assert!(hooks.is_empty());
        assert!(diags.iter().any(|d| d.contains("b[Stop][0]: timeout must be a whole number")), "{diags:?}");
    }
}
