//! GitHub Copilot CLI 1.0.102's folder trust: repository hooks (`.github/hooks/*.json`) load
//! only in a trusted folder — one listed (or below one listed) in `trusted_folders` of
//! `$COPILOT_HOME/config.json` (`~/.copilot/config.json`; `trustedFolders` in newer versions), or
//! with `COPILOT_ALLOW_ALL=true` — and are skipped silently otherwise. User hooks
//! (`~/.copilot/hooks/`) are not gated.

/// `COPILOT_ALLOW_ALL=true`: Copilot loads repository hooks without folder trust.
pub(super) const ALLOW_ALL: &str = "COPILOT_ALLOW_ALL";

use crate::config::Hook;
use crate::harness::trust::{each, read_json, within, ProjectCtx, TrustCtx, Verdict};
use crate::vocab::Scope;
use serde_json::Value;
use std::path::Path;

pub(crate) fn verdicts(ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
    each(hooks, folder(ctx))
}

fn folder(ctx: &TrustCtx) -> Verdict {
    if ctx.cand.scope != Scope::Project {
        return Verdict::not_gated("Copilot CLI runs user hooks without folder trust");
    }
    project(&ProjectCtx { roots: ctx.roots, env: ctx.env })
}

/// Whether Copilot CLI trusts the project folder.
pub(crate) fn project(ctx: &ProjectCtx) -> Verdict {
    if ctx.env.word(ALLOW_ALL) == "true" {
        return Verdict::trusted("COPILOT_ALLOW_ALL=true");
    }
    let home = ctx.roots.dir(super::HOME);
    let file = home.join("config.json");
    let config = read_json(&file).unwrap_or(Value::Null);
    let cwd = ctx.roots.cwd;
    let listed = ["trusted_folders", "trustedFolders"]
        .iter()
        .filter_map(|k| config.get(k).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .find(|f| within(cwd, Path::new(f)));
    match listed {
        Some(f) => Verdict::trusted(format!("{f} is a trusted folder in {}", file.display())),
        None => Verdict::refused(
            format!(
                "Copilot CLI skips repository hooks: {} is not a trusted folder in {}",
                cwd.display(),
                file.display()
            ),
            "trust the folder in `copilot` (for future sessions), or set COPILOT_ALLOW_ALL=true",
        ),
    }
}
