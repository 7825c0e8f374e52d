//! Gemini's consent for project hooks: `home/.gemini/trusted_hooks.json` maps a project
//! directory to the `name:command` keys its user trusted.

use crate::config::{HandlerSpec, Hook, Roots};
use crate::vocab::{Diagnostic, Severity};
use serde_json::Value;

/// Under `requireHookApproval`, project
/// hooks (from `first` on) without such a key are dropped with a warning, as Gemini skips them.
pub(crate) fn keep_trusted(hooks: &mut Vec<Hook>, first: usize, roots: Roots, diags: &mut Vec<Diagnostic>) {
    let file = roots.home.join(".gemini/trusted_hooks.json");
    let trusted: Value =
        std::fs::read_to_string(&file).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
    let keys: Vec<&str> = trusted
        .get(roots.cwd.display().to_string())
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut i = first;
    while i < hooks.len() {
        let h = &hooks[i];
        let command = match &h.handler {
            HandlerSpec::Shell { command, .. } => command.as_str(),
            _ => "",
        };
        let key = format!("{}:{command}", h.harness.name.as_deref().unwrap_or(""));
        if keys.contains(&key.as_str()) {
            i += 1;
            continue;
        }
        diags.push(Diagnostic {
            severity: Severity::Warning,
            file: Some(h.file.display().to_string()),
            event: Some(h.event.clone()),
            message: format!(
                "project hook {key:?} is not trusted in {} (requireHookApproval); not loaded",
                file.display()
            ),
        });
        hooks.remove(i);
    }
}
