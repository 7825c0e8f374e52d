//! Codex CLI 0.171.0's hook trust (docs/harnesses/codex.md "Trust"), read-only from
//! `$CODEX_HOME/config.toml`:
//! - the project's `.codex/` layer loads only when `[projects."<dir>"] trust_level = "trusted"`
//!   names the project (or its git root);
//! - every hook runs only while `[hooks.state."<file>:<event_snake>:<group>:<handler>"]` holds a
//!   `trusted_hash` equal to the hook's current hash, and `enabled = false` there switches it off.
//!
//! The hash is Codex's own: SHA-256 over the JSON (keys sorted, no spaces) of the hook's
//! normalised identity — `event_name`, the group's `matcher` (none on UserPromptSubmit, Stop,
//! Interrupt and PreModelRequest) and the one handler with `timeout` filled in (600 s;
//! SessionEnd and Interrupt 1–3 s) and `async` —
//! checked against hashes the real binary reported (`tests/it/trust.rs`).

use crate::config::Hook;
use crate::harness::trust::{read_json, ProjectCtx, TrustCtx, Verdict};
use crate::vocab::Scope;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;

const APPROVE: &str = "trust it in `codex` (/hooks)";

/// One `[hooks.state]` entry.
#[derive(Debug, Default, Clone)]
struct State {
    enabled: Option<bool>,
    trusted_hash: Option<String>,
}

/// The verdict on each hook of one Codex file.
pub(crate) fn verdicts(ctx: &TrustCtx, hooks: &[Hook]) -> Vec<Verdict> {
    let config = ctx.roots.dir(super::HOME).join("config.toml");
    let user = read_json(&config).unwrap_or(Value::Null);
    let states = states(&user);
    let file = &ctx.cand.path;
    let project_untrusted = ctx.cand.scope == Scope::Project && !project_trusted(&user, ctx.roots.cwd);
    let raw = read_json(file).unwrap_or(Value::Null);
    let events = raw.get("hooks").and_then(Value::as_object);
    hooks
        .iter()
        .map(|h| {
            let Some((group, handler)) = position(h) else {
                return Verdict::refused("Codex has no such hook in this file", APPROVE);
            };
            let key = format!("{}:{}:{group}:{handler}", file.display(), snake(&h.event));
            let state = states.get(&key).cloned().unwrap_or_default();
            if state.enabled == Some(false) {
                return Verdict::disabled(format!("disabled in {} ([hooks.state.\"{key}\"] enabled = false)", config.display()));
            }
            if project_untrusted {
                let dir = ctx.roots.cwd.display();
                return Verdict::refused(
                    format!("Codex skips the project's .codex/ layer: {dir} is not a trusted project"),
                    format!("trust the project in `codex` ([projects.\"{dir}\"] trust_level = \"trusted\" in {})", config.display()),
                );
            }
            let entry = events.and_then(|e| entry(e, &h.event, group, handler));
            let Some(current) = entry.and_then(|(g, hd)| current_hash(&h.event, g, hd)) else {
                return Verdict::refused("Codex 0.171.0 runs only command hooks", APPROVE);
            };
            let extra = entry.map(unhashed).unwrap_or_default();
            if !extra.is_empty() {
                return Verdict::refused(
                    format!(
                        "the hook has fields Codex's trusted hash does not cover ({}), which hookrt would honour",
                        extra.join(", ")
                    ),
                    "remove them (Codex ignores them)",
                );
            }
            match state.trusted_hash {
                Some(t) if t == current => Verdict::trusted(format!("trusted in {} (hash {current})", config.display())),
                Some(_) => Verdict::refused(
                    format!("the hook changed since Codex trusted it ([hooks.state.\"{key}\"] trusted_hash is not {current})"),
                    APPROVE,
                ),
                None => Verdict::refused(format!("Codex has no trusted hash for this hook ({key})"), APPROVE),
            }
        })
        .collect()
}

/// Whether Codex trusts the project folder (`[projects."<dir>"] trust_level = "trusted"` for it or
/// its git repository), for the files it does not read itself when hookrt runs inside it.
pub(crate) fn project(p: &ProjectCtx) -> Verdict {
    let config = p.roots.dir(super::HOME).join("config.toml");
    let user = read_json(&config).unwrap_or(Value::Null);
    let dir = p.roots.cwd.display();
    if project_trusted(&user, p.roots.cwd) {
        return Verdict::trusted(format!("Codex trusts the project {dir} ({})", config.display()));
    }
    Verdict::refused(
        format!("Codex does not trust the project {dir}"),
        format!(
            "trust the project in `codex` ([projects.\"{dir}\"] trust_level = \"trusted\" in {})",
            config.display()
        ),
    )
}

/// The members of a group and of a handler that Codex's hash covers.
const HASHED_GROUP: &[&str] = &["matcher", "hooks"];
const HASHED_HANDLER: &[&str] = &["type", "command", "timeout", "timeoutSec", "async", "statusMessage"];

/// The members of a hook Codex's hash leaves out (`env`, `args`, `worker`, ...): hookrt would act
/// on them while Codex's trust never saw them, so a trusted hash does not stand for such a hook.
fn unhashed((group, handler): (&Value, &Value)) -> Vec<String> {
    let extra = |v: &Value, known: &[&str]| -> Vec<String> {
        v.as_object().into_iter().flatten().map(|(k, _)| k).filter(|k| !known.contains(&k.as_str())).cloned().collect()
    };
    let mut out = extra(group, HASHED_GROUP);
    out.extend(extra(handler, HASHED_HANDLER));
    out
}

/// `[hooks.state]` of the user's `config.toml`, keys trimmed as Codex trims them.
fn states(user: &Value) -> HashMap<String, State> {
    let Some(table) = user.get("hooks").and_then(|h| h.get("state")).and_then(Value::as_object) else {
        return HashMap::new();
    };
    table
        .iter()
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| {
            let state = State {
                enabled: v.get("enabled").and_then(Value::as_bool),
                trusted_hash: v.get("trusted_hash").and_then(Value::as_str).map(str::to_owned),
            };
            (k.trim().to_owned(), state)
        })
        .collect()
}

/// Whether `[projects."<dir>"] trust_level = "trusted"` names the project directory or the git
/// repository it is in.
fn project_trusted(user: &Value, cwd: &Path) -> bool {
    let Some(projects) = user.get("projects").and_then(Value::as_object) else {
        return false;
    };
    let trusted = |dir: &Path| {
        projects.get(&dir.display().to_string()).and_then(|p| p.get("trust_level")).and_then(Value::as_str)
            == Some("trusted")
    };
    let real = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let repo = real.ancestors().find(|d| d.join(".git").exists());
    trusted(cwd) || trusted(&real) || repo.is_some_and(trusted)
}

/// The group and handler index of a hook, from its id (`codex:<file>:<event>:<group>:<handler>`).
fn position(h: &Hook) -> Option<(usize, usize)> {
    let mut parts = h.id.rsplit(':');
    let handler = parts.next()?.parse().ok()?;
    let group = parts.next()?.parse().ok()?;
    Some((group, handler))
}

/// The raw group and handler objects at a position.
fn entry<'a>(events: &'a Map<String, Value>, event: &str, g: usize, h: usize) -> Option<(&'a Value, &'a Value)> {
    let group = events.get(event)?.as_array()?.get(g)?;
    let handler = group.get("hooks")?.as_array()?.get(h)?;
    Some((group, handler))
}

/// `PreToolUse` → `pre_tool_use`.
pub(crate) fn snake(event: &str) -> String {
    let mut out = String::with_capacity(event.len() + 4);
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Codex's hash of one command hook; `None` for a handler Codex does not run.
pub(crate) fn current_hash(event: &str, group: &Value, handler: &Value) -> Option<String> {
    if handler.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = handler.get("command")?.as_str()?;
    let timeout = handler.get("timeout").or_else(|| handler.get("timeoutSec")).and_then(Value::as_u64);
    let timeout = match event {
        "SessionEnd" | "Interrupt" => timeout.unwrap_or(1).clamp(1, 3),
        _ => timeout.unwrap_or(600).max(1),
    };
    let mut h = Map::new();
    h.insert("type".into(), "command".into());
    h.insert("command".into(), command.into());
    h.insert("timeout".into(), timeout.into());
    h.insert("async".into(), handler.get("async").and_then(Value::as_bool).unwrap_or(false).into());
    if let Some(s) = handler.get("statusMessage").and_then(Value::as_str) {
        h.insert("statusMessage".into(), s.into());
    }
    let mut identity = Map::new();
    identity.insert("event_name".into(), snake(event).into());
    if !matches!(event, "UserPromptSubmit" | "Stop" | "Interrupt" | "PreModelRequest") {
        if let Some(m) = group.get("matcher").and_then(Value::as_str) {
            identity.insert("matcher".into(), m.into());
        }
    }
    identity.insert("hooks".into(), Value::Array(vec![Value::Object(h)]));
    let text = serde_json::to_string(&sorted(Value::Object(identity))).ok()?;
    Some(format!("sha256:{}", hex::encode(Sha256::digest(text.as_bytes()))))
}

/// The value with every object's keys in order (the crate keeps insertion order).
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Hashes `codex app-server` → `hooks/list` reported for these hooks (Codex 0.171.0).
    #[test]
    fn hashes_are_the_real_binarys() {
        let cases = [
            (
                "SessionStart",
                json!({"matcher": "startup"}),
                json!({"type": "command", "command": "echo toml"}),
                "99a77f82ef952caa618e2ee20682d4f2cd0b320e4b30d595df28f87f367b1c25",
            ),
            (
                "PreToolUse",
                json!({"matcher": "Bash"}),
                json!({"type": "command", "command": "./guard.sh", "timeout": 5}),
                "3d1ff1eef187be14dbb08126090080fe2173fa8a23671c843daf96321b1b22ae",
            ),
            (
                "PreToolUse",
                json!({"matcher": "Bash"}),
                json!({"type": "command", "command": "echo two", "statusMessage": "checking"}),
                "be6f6f0afd6ed3172d713ffc454d8d861b674cf8bcac8a5b9c39126188c5b675",
            ),
            (
                "PostToolUse",
                json!({"matcher": ""}),
                json!({"type": "command", "command": "echo post ${X}"}),
                "7c6adf924b982e46104b7bbf5b37501469db445bad79eb6c40ebacf8b72ff658",
            ),
            (
                "SessionEnd",
                json!({}),
                json!({"type": "command", "command": "echo end", "timeout": 10}),
                "84be7971dba2dbb128add226e0537c753853bf675df8efb85a5dcbb611374b4f",
            ),
            (
                "UserPromptSubmit",
                json!({"matcher": "ignored"}),
                json!({"type": "command", "command": "echo p"}),
                "81448bb358e8a804f072f281fee75f40510dbc678b6e9b3a1791b159f1f17b87",
            ),
            (
                "Stop",
                json!({}),
                json!({"type": "command", "command": "echo stop", "async": true}),
                "15ef4f26bc8f6b43c1e00904949feba5dfe0587e2ee2bdb93017aab285582f31",
            ),
            (
                "Interrupt",
                json!({}),
                json!({"type": "command", "command": "echo i"}),
                "7181efa38f7a375410869cf16b8f63fb3fa47502036e94eb74299623757343a3",
            ),
            (
                "Interrupt",
                json!({"matcher": "x"}),
                json!({"type": "command", "command": "echo i", "timeout": 10}),
                "4ade3bc13d25fce0e2345f97915af7a3e36a13bb584f046cd5d395c3c07dc7d3",
            ),
            (
                "PreModelRequest",
                json!({"matcher": "m"}),
                json!({"type": "command", "command": "echo pm"}),
                "cd34399af885b918fb9de46bf28e1a6d75715d184604077a53bb14e628a74cc4",
            ),
            (
                "SubagentStop",
                json!({"matcher": "m"}),
                json!({"type": "command", "command": "echo ss"}),
                "36ae16341bab40321e90f529291eb2c6baab36de8212c4794fb350d0478e5921",
            ),
            (
                "PermissionRequest",
                json!({"matcher": "m"}),
                json!({"type": "command", "command": "echo a"}),
                "7157fd904481dd0dcfb581642904fe03aa3a4ca64cf2fd83c12dac1c3a369f1c",
            ),
            (
                "PreCompact",
                json!({"matcher": "m"}),
                json!({"type": "command", "command": "echo a"}),
                "a0c3349bf5b14b0cea4147ec440fd928311d0987b152735f99822ac2cfb4d215",
            ),
        ];
        for (event, group, handler, want) in cases {
            assert_eq!(current_hash(event, &group, &handler).unwrap(), format!("sha256:{want}"), "{event} {handler}");
        }
        assert_eq!(current_hash("Stop", &json!({}), &json!({"type": "prompt", "prompt": "x"})), None);
        assert_eq!(snake("PreModelRequest"), "pre_model_request");
    }
}
