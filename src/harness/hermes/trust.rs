//! Hermes Agent 0.19.0's first-use consent: a hook runs when its (event, command) pair is in
//! `$HERMES_HOME/shell-hooks-allowlist.json` (`{"approvals": [{event, command, ...}]}`, the
//! command exactly as written, no script hash), or when everything is accepted
//! (`HERMES_ACCEPT_HOOKS=1|true|yes|on`, `hooks_auto_accept: true`); otherwise a run without a
//! terminal skips it.

use crate::config::Hook;
use crate::harness::trust::{read_json, TrustCtx, TrustEnv, Verdict};
use serde_json::Value;

/// The variable that accepts every hook, read as Hermes reads it (`1`, `true`, `yes`, `on`).
pub(super) const ACCEPT_HOOKS: &str = "HERMES_ACCEPT_HOOKS";

/// Whether `HERMES_ACCEPT_HOOKS` accepts every hook.
pub(super) fn accepts_all(env: &TrustEnv) -> bool {
    matches!(env.word(ACCEPT_HOOKS).as_str(), "1" | "true" | "yes" | "on")
}

pub(crate) fn verdicts(ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
    if accepts_all(ctx.env) || ctx.auto_accept {
        let why = if ctx.auto_accept { "hooks_auto_accept: true" } else { "HERMES_ACCEPT_HOOKS is set" };
        return hooks.iter().map(|_| Verdict::trusted(why)).collect();
    }
    let file = ctx.roots.dir(super::HOME).join("shell-hooks-allowlist.json");
    let list = read_json(&file).unwrap_or(Value::Null);
    let approvals = list.get("approvals").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    hooks
        .iter()
        .map(|h| {
            let command = h.command_text().unwrap_or_default();
            let approved = approvals.iter().any(|a| {
                a.get("event").and_then(Value::as_str) == Some(h.event.as_str())
                    && a.get("command").and_then(Value::as_str) == Some(command.as_ref())
            });
            if approved {
                Verdict::trusted(format!("approved in {}", file.display()))
            } else {
                Verdict::refused(
                    format!("Hermes skips hooks not in {}", file.display()),
                    "run `hermes --accept-hooks` once, or approve it at Hermes' prompt",
                )
            }
        })
        .collect()
}
