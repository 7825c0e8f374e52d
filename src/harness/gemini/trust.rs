//! Gemini's trust: folder trust, which gates every hook (`requireHookApproval: "harness"`), and
//! its fingerprints of project hooks, `home/.gemini/trusted_hooks.json`, which map a project
//! directory to the `name:command` keys its user trusted (`"project"` and `"all"`).

/// `GEMINI_CLI_TRUST_WORKSPACE=true`: Gemini trusts the workspace.
pub(super) const TRUST_WORKSPACE: &str = "GEMINI_CLI_TRUST_WORKSPACE";

use crate::config::{HandlerSpec, Hook, Roots};
use crate::harness::trust::{each, read_json, within, ProjectCtx, TrustCtx, Verdict};
use crate::vocab::{Diagnostic, Severity};
use serde_json::Value;
use std::path::Path;

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

/// Gemini CLI 0.61.0's folder trust, which gates every hook, user-level too: the workspace is
/// trusted when `GEMINI_CLI_TRUST_WORKSPACE=true`, when the user settings switch folder trust off
/// (`security.folderTrust.enabled: false`), or when the longest rule of
/// `~/.gemini/trustedFolders.json` that covers it says `TRUST_FOLDER` or `TRUST_PARENT`;
/// otherwise Gemini refuses to run (headless: exit 55) and no hook runs.
pub(crate) fn verdicts(ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
    each(hooks, folder(&ProjectCtx { roots: ctx.roots, env: ctx.env }))
}

/// Gemini's folder trust of the project.
pub(crate) fn folder(ctx: &ProjectCtx) -> Verdict {
    if ctx.env.word(TRUST_WORKSPACE) == "true" {
        return Verdict::trusted("GEMINI_CLI_TRUST_WORKSPACE=true");
    }
    let dir = ctx.roots.home.join(".gemini");
    let settings = read_json(&dir.join("settings.json")).unwrap_or(Value::Null);
    let enabled = settings.pointer("/security/folderTrust/enabled").and_then(Value::as_bool).unwrap_or(true);
    if !enabled {
        return Verdict::trusted("folder trust is off (security.folderTrust.enabled: false)");
    }
    let file = dir.join("trustedFolders.json");
    let rules = read_json(&file).unwrap_or(Value::Null);
    let cwd = ctx.roots.cwd;
    let mut best: Option<(usize, &str)> = None;
    for (path, level) in rules.as_object().into_iter().flatten() {
        let Some(level) = level.as_str() else { continue };
        let root = Path::new(path);
        let effective = if level == "TRUST_PARENT" { root.parent().unwrap_or(root) } else { root };
        if within(cwd, effective) && best.is_none_or(|(len, _)| path.len() > len) {
            best = Some((path.len(), level));
        }
    }
    let approve = "trust the folder in `gemini` (/permissions), or set GEMINI_CLI_TRUST_WORKSPACE=true";
    match best.map(|(_, l)| l) {
        Some("TRUST_FOLDER" | "TRUST_PARENT") => {
            Verdict::trusted(format!("{} is trusted in {}", cwd.display(), file.display()))
        }
        Some("DO_NOT_TRUST") => {
            Verdict::refused(format!("{} is marked DO_NOT_TRUST in {}", cwd.display(), file.display()), approve)
        }
        _ => Verdict::refused(
            format!(
                "Gemini CLI runs no hook in a folder it does not trust ({} has no rule in {})",
                cwd.display(),
                file.display()
            ),
            approve,
        ),
    }
}
