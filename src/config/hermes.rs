//! Hermes `config.yaml`: the `hooks:` block (shell hooks, one flat entry per hook, commands
//! split shell-style and run without a shell) and `hooks.outbound` (signed notify-only
//! webhooks). Consent follows [`crate::trust`].

use super::consent::{Consent, ListedHook};
use super::groups::{event_matcher, matcher_field, quote, FileCtx};
use super::{Diagnostic, HandlerSpec, Hook, Severity};
use crate::dialect::Dialect;
use crate::event::{CanonicalEvent, ToolResult};
use crate::trust::TrustStatus;
use serde::Serialize;
use serde_json::{Map, Value};

/// Hermes' default and largest shell-hook timeouts, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 60.0;
pub const MAX_TIMEOUT: f64 = 300.0;

/// A `hooks.outbound` target.
#[derive(Debug, Clone, Serialize)]
pub struct OutboundTarget {
    pub url: String,
    /// The events it wants, canonical and as Hermes spells them.
    pub events: Vec<(CanonicalEvent, String)>,
    /// Environment variable holding the HMAC secret.
    pub secret_env: Option<String>,
}

/// What a Hermes file contributed besides hooks.
#[derive(Debug, Default)]
pub struct HermesOut {
    pub outbound: Vec<OutboundTarget>,
    pub listed: Vec<ListedHook>,
}

/// Levenshtein distance, for did-you-mean hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest known name, when it is close enough to be a typo.
pub fn did_you_mean(name: &str, known: &[&str]) -> Option<String> {
    known
        .iter()
        .map(|k| (distance(name, k), *k))
        .filter(|(d, k)| *d <= 3.max(k.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.to_owned())
}

fn expand_home(s: &str, home: &std::path::Path) -> String {
    match s.strip_prefix("~/") {
        Some(rest) => home.join(rest).display().to_string(),
        None if s == "~" => home.display().to_string(),
        None => s.to_owned(),
    }
}

/// Parses the `hooks` mapping of a Hermes config; returns the number of hooks accepted.
pub fn parse(
    ctx: &FileCtx,
    root: &Map<String, Value>,
    home: &std::path::Path,
    consent: &Consent,
    hooks: &mut Vec<Hook>,
    diags: &mut Vec<Diagnostic>,
    out: &mut HermesOut,
) -> usize {
    let Some(block) = root.get("hooks") else { return 0 };
    let Some(map) = block.as_object() else {
        if !block.is_null() {
            diags.push(ctx.diag(Severity::Error, None, "hooks: must be a mapping of event names".into()));
        }
        return 0;
    };
    let accept_all = consent.accept_all || root.get("hooks_auto_accept") == Some(&Value::Bool(true));
    let known = Dialect::Hermes.event_names();
    let mut count = 0;
    for (event, value) in map {
        if event == "outbound" {
            parse_outbound(ctx, value, diags, &mut out.outbound);
            continue;
        }
        let Some((canonical, _)) = Dialect::Hermes.config_event(event) else {
            let hint =
                did_you_mean(event, &known).map(|k| format!("; did you mean {}?", quote(&k))).unwrap_or_default();
            diags.push(ctx.diag(Severity::Warning, None, format!("unknown event {} (ignored){hint}", quote(event))));
            continue;
        };
        let at = format!("hooks[{event}]");
        let Some(list) = value.as_array() else {
            diags.push(ctx.diag(Severity::Error, Some(event), format!("{at}: must be a list of hooks")));
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let eat = format!("{at}[{i}]");
            let diag = |sev, m: String| ctx.diag(sev, Some(event), format!("{eat}: {m}"));
            let Some(o) = entry.as_object() else {
                diags.push(diag(Severity::Error, "entry is not a mapping".into()));
                continue;
            };
            let Some(command) = o.get("command").and_then(Value::as_str).filter(|c| !c.trim().is_empty()) else {
                diags.push(diag(Severity::Warning, "missing command (skipped)".into()));
                continue;
            };
            let Some(argv) = shlex::split(command).filter(|a| !a.is_empty()) else {
                diags.push(diag(Severity::Error, "command cannot be split into words (unbalanced quotes?)".into()));
                continue;
            };
            let argv: Vec<String> = argv.iter().map(|a| expand_home(a, home)).collect();
            let mut matcher_text = match matcher_field(o) {
                Ok(m) => m,
                Err(e) => {
                    diags.push(diag(Severity::Error, e.into()));
                    continue;
                }
            };
            let tool_event = matches!(canonical, CanonicalEvent::ToolBefore | CanonicalEvent::ToolAfter);
            let matcher = match event_matcher(&mut matcher_text, tool_event, Dialect::Hermes) {
                Ok((m, dropped)) => {
                    if dropped {
                        diags.push(diag(
                            Severity::Warning,
                            format!("matcher has no effect on {event} (only pre_tool_call and post_tool_call use it)"),
                        ));
                    }
                    m
                }
                Err(e) => {
                    diags.push(diag(Severity::Error, e));
                    continue;
                }
            };
            let timeout = match o.get("timeout") {
                None | Some(Value::Null) => DEFAULT_TIMEOUT,
                Some(v) => match v.as_f64() {
                    Some(t) if t > MAX_TIMEOUT => {
                        diags.push(diag(Severity::Warning, format!("timeout {t} is over {MAX_TIMEOUT}s; capped")));
                        MAX_TIMEOUT
                    }
                    Some(t) if t > 0.0 => t,
                    _ => {
                        diags.push(diag(Severity::Error, "timeout must be a positive number of seconds".into()));
                        DEFAULT_TIMEOUT
                    }
                },
            };
            let entry = super::consent::assess(
                consent,
                accept_all,
                (event, command),
                &argv,
                ctx.path.parent().unwrap_or(home),
                (ctx.path, super::Scope::Global),
            );
            let status = entry.status;
            out.listed.push(entry);
            if status != TrustStatus::Approved {
                let what = status.why_not();
                if consent.require {
                    diags.push(diag(
                        Severity::Warning,
                        format!("{what}; skipped (approve with `hookrt trust approve`)"),
                    ));
                    continue;
                }
                diags.push(diag(
                    Severity::Warning,
                    format!("{what}; runs anyway (approve with `hookrt trust approve`)"),
                ));
            }
            let mut args = argv;
            let program = args.remove(0);
            let handler = HandlerSpec::Shell { command: program, args: Some(args), env: Vec::new() };
            let mut h = super::entry::hook(ctx, event, (canonical, ToolResult::Either), &format!("{i}:0"), handler);
            h.env = Vec::new();
            h.origin = Default::default();
            h.matcher_text = matcher_text;
            h.matcher = matcher;
            h.timeout = Some(timeout);
            hooks.push(h);
            count += 1;
        }
    }
    count
}

fn parse_outbound(ctx: &FileCtx, value: &Value, diags: &mut Vec<Diagnostic>, out: &mut Vec<OutboundTarget>) {
    let Some(list) = value.as_array() else {
        diags.push(ctx.diag(Severity::Error, None, "hooks[outbound]: must be a list of targets".into()));
        return;
    };
    for (i, t) in list.iter().enumerate() {
        let at = format!("hooks[outbound][{i}]");
        let Some(o) = t.as_object() else {
            diags.push(ctx.diag(Severity::Error, None, format!("{at}: entry is not a mapping")));
            continue;
        };
        let Some(url) = o.get("url").and_then(Value::as_str).filter(|u| !u.trim().is_empty()) else {
            diags.push(ctx.diag(Severity::Error, None, format!("{at}: missing url")));
            continue;
        };
        let mut events = Vec::new();
        for e in o.get("events").and_then(Value::as_array).into_iter().flatten() {
            match e.as_str().and_then(|n| Dialect::Hermes.config_event(n).map(|(c, _)| (c, n.to_owned()))) {
                Some(pair) => events.push(pair),
                None => diags.push(ctx.diag(Severity::Warning, None, format!("{at}: unknown event {} (ignored)", e))),
            }
        }
        if events.is_empty() {
            diags.push(ctx.diag(Severity::Warning, None, format!("{at}: no known events; it will never be called")));
        }
        let secret_env = o.get("secret_env").and_then(Value::as_str).map(str::to_owned);
        out.push(OutboundTarget { url: url.trim().to_owned(), events, secret_env });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_typos() {
        let known = Dialect::Hermes.event_names();
        assert_eq!(did_you_mean("pre_tool_cal", &known).as_deref(), Some("pre_tool_call"));
        assert_eq!(did_you_mean("on_sesion_end", &known).as_deref(), Some("on_session_end"));
        assert_eq!(did_you_mean("completely_else_entirely", &known), None);
    }
}
