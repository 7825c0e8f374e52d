//! Matcher groups and hook entries: the part every JSON-shaped dialect shares
//! (`{Event: [{matcher, hooks: [{type, command, timeout, ...}]}]}`), with the JavaScript
//! implementation's diagnostic wording (`hooks[PreToolUse][0].hooks[2]: missing command`).

use super::{Diagnostic, HandlerSpec, Hook, OnError, Severity};
use crate::dialect::{Dialect, HandlerKind};
use crate::matcher::Matcher;
use serde_json::{Map, Value};
use std::path::Path;

/// Runtime values substituted into commands at load (`${CLAUDE_PROJECT_DIR}` and friends).
#[derive(Debug, Clone, Default)]
pub struct Substitutions {
    pub vars: Vec<(String, String)>,
}

impl Substitutions {
    /// Replaces every `${UPPER_CASE}` token that has a value; unknown tokens stay.
    pub fn apply(&self, s: &str) -> String {
        if self.vars.is_empty() || !s.contains("${") {
            return s.to_owned();
        }
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let end = after.find('}');
            let name = end.map(|e| &after[..e]);
            match name.and_then(|n| self.vars.iter().find(|(k, _)| k == n)) {
                Some((k, v)) => {
                    out.push_str(v);
                    rest = &after[k.len() + 1..];
                }
                None => {
                    out.push_str("${");
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// Everything about the file being parsed that hooks and diagnostics need.
pub struct FileCtx<'a> {
    pub path: &'a Path,
    pub dialect: Dialect,
    /// Root member the event map came from (`hooks` or `events`), used in diagnostic paths.
    pub member: &'a str,
    pub subst: &'a Substitutions,
    /// Plugin or managed settings (never de-duplicated against other origins).
    pub origin: super::Origin,
    /// Variables exported to every hook of the file (a plugin's root and data directory).
    pub env: &'a [(String, String)],
    /// Whether `if` rules are evaluated or reported and ignored.
    pub if_rules: super::IfRules,
}

impl FileCtx<'_> {
    fn file(&self) -> String {
        self.path.display().to_string()
    }

    fn base(&self) -> String {
        self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }

    pub fn diag(&self, severity: Severity, event: Option<&str>, message: String) -> Diagnostic {
        Diagnostic { severity, file: Some(self.file()), event: event.map(str::to_owned), message }
    }
}

/// Parses an event map; returns the number of matcher groups accepted.
pub fn parse_event_map(
    ctx: &FileCtx,
    map: &Map<String, Value>,
    hooks: &mut Vec<Hook>,
    diags: &mut Vec<Diagnostic>,
) -> usize {
    let mut groups = 0;
    for (event, value) in map {
        let Some((canonical, tool_result)) = ctx.dialect.config_event(event) else {
            diags.push(ctx.diag(Severity::Warning, None, format!("unknown event {} (ignored)", quote(event))));
            continue;
        };
        let at = format!("{}[{}]", ctx.member, event);
        let Some(list) = value.as_array() else {
            diags.push(ctx.diag(Severity::Error, Some(event), format!("{at}: must be an array of matcher groups")));
            continue;
        };
        for (gi, group) in list.iter().enumerate() {
            let gat = format!("{at}[{gi}]");
            let err = |m: &str| ctx.diag(Severity::Error, Some(event), format!("{gat}: {m}"));
            let Some(group) = group.as_object() else {
                diags.push(err("group is not an object"));
                continue;
            };
            let mut matcher_text = match matcher_field(group) {
                Ok(m) => m,
                Err(e) => {
                    diags.push(err(e));
                    continue;
                }
            };
            let entries = match group.get("hooks") {
                Some(Value::Array(a)) if a.is_empty() => {
                    diags.push(err("hooks must not be empty"));
                    continue;
                }
                Some(Value::Array(a)) => a,
                _ => {
                    diags.push(err("hooks must be an array"));
                    continue;
                }
            };
            let no_effect = || {
                ctx.diag(
                    Severity::Warning,
                    Some(event),
                    format!("{gat}: matcher has no effect on {event} (no matcher subject)"),
                )
            };
            let matcher = match event_matcher(&mut matcher_text, canonical.has_subject(), ctx.dialect) {
                Ok((m, dropped)) => {
                    if dropped {
                        diags.push(no_effect());
                    }
                    m
                }
                Err(e) => {
                    diags.push(err(&e));
                    continue;
                }
            };
            groups += 1;
            for (hi, entry) in entries.iter().enumerate() {
                let hat = format!("{gat}.hooks[{hi}]");
                let mut entry_diag =
                    |sev: Severity, m: &str| diags.push(ctx.diag(sev, Some(event), format!("{hat}: {m}")));
                let Some(handler) = parse_entry(ctx.dialect, ctx.subst, entry, &mut entry_diag) else {
                    continue;
                };
                let obj = entry.as_object();
                let timeout = parse_timeout(obj, &mut entry_diag);
                let on_error = parse_on_error(obj, &mut entry_diag);
                let claude = parse_claude_fields(ctx.if_rules, &handler, obj, &mut entry_diag);
                hooks.push(Hook {
                    id: format!("{}:{}:{}:{}:{}", ctx.dialect.as_str(), ctx.base(), event, gi, hi),
                    dialect: ctx.dialect,
                    event: event.clone(),
                    canonical,
                    tool_result,
                    matcher_text: matcher_text.clone(),
                    matcher: matcher.clone(),
                    handler,
                    timeout,
                    on_error,
                    deny_on_failure: obj.and_then(|o| o.get("denyOnFailure")) == Some(&Value::Bool(true)),
                    file: ctx.path.to_path_buf(),
                    enabled: parse_enabled(ctx.dialect, obj, &mut entry_diag),
                    fail_closed: obj.and_then(|o| o.get("failClosed")) == Some(&Value::Bool(true)),
                    claude,
                    env: ctx.env.to_vec(),
                    origin: ctx.origin,
                    harness: Default::default(),
                });
            }
        }
    }
    groups
}

/// Reads `if`, `async`, `asyncRewake`, `once` and `statusMessage`.
fn parse_claude_fields(
    if_rules: super::IfRules,
    handler: &HandlerSpec,
    obj: Option<&Map<String, Value>>,
    diag: &mut impl FnMut(Severity, &str),
) -> super::ClaudeFields {
    let mut f = super::ClaudeFields::default();
    let Some(o) = obj else { return f };
    let flag = |k: &str, diag: &mut dyn FnMut(Severity, &str)| match o.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diag(Severity::Warning, &format!("{k} must be true or false; ignored"));
            false
        }
    };
    match o.get("if") {
        None | Some(Value::Null) => {}
        Some(_) if if_rules == super::IfRules::Ignore => {
            diag(Severity::Warning, "\"if\" filters are not evaluated; this hook runs whenever the matcher matches")
        }
        Some(Value::String(rule)) => {
            f.if_text = Some(rule.clone());
            match crate::permission_rule::Rule::parse(rule) {
                Ok(r) => f.if_rule = Some(r),
                Err(e) => diag(Severity::Error, &format!("{e}; the hook runs on every matching tool call")),
            }
        }
        Some(_) => {
            diag(Severity::Error, "if must be a permission rule string; the hook runs on every matching tool call")
        }
    }
    f.async_rewake = flag("asyncRewake", diag);
    f.is_async = flag("async", diag) || f.async_rewake;
    if f.is_async && !matches!(handler, HandlerSpec::Shell { .. }) {
        diag(Severity::Warning, "async applies to command hooks only; this hook runs synchronously");
        f.is_async = false;
        f.async_rewake = false;
    }
    f.once = flag("once", diag);
    match o.get("statusMessage") {
        None | Some(Value::Null) => {}
        Some(Value::String(m)) => f.status_message = Some(m.clone()),
        Some(_) => diag(Severity::Warning, "statusMessage must be a string; ignored"),
    }
    f
}

/// `enabled: false` keeps a hook loaded and listed but never run (claude, codex and native
/// files, which tolerate extra keys).
fn parse_enabled(dialect: Dialect, obj: Option<&Map<String, Value>>, diag: &mut impl FnMut(Severity, &str)) -> bool {
    if !matches!(dialect, Dialect::Claude | Dialect::Codex | Dialect::Native) {
        return true;
    }
    match obj.and_then(|o| o.get("enabled")) {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diag(Severity::Warning, "enabled must be true or false; the hook stays enabled");
            true
        }
    }
}

/// Reads a `matcher` field: absent or null is none, a string is kept, anything else is the
/// `matcher must be a string` error.
pub fn matcher_field(o: &Map<String, Value>) -> Result<Option<String>, &'static str> {
    match o.get("matcher") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err("matcher must be a string"),
    }
}

/// Compiles an optional matcher with a dialect's rule; the error is the diagnostic text.
pub fn compile_matcher(text: Option<&str>, dialect: Dialect) -> Result<Matcher, String> {
    match text {
        None => Ok(Matcher::All),
        Some(m) => {
            Matcher::compile(m, dialect.matcher_style()).map_err(|_| format!("invalid regex matcher {}", quote(m)))
        }
    }
}

/// Compiles a group's matcher, then drops it (`true` in the answer, for a warning) where the
/// event has no subject. Compiling comes first so that an invalid regex drops its group on
/// every event, as in the JavaScript implementation (SPEC §5), instead of turning into a
/// match-all on subjectless events such as Stop.
pub fn event_matcher(
    text: &mut Option<String>,
    uses_subject: bool,
    dialect: Dialect,
) -> Result<(Matcher, bool), String> {
    let matcher = compile_matcher(text.as_deref(), dialect)?;
    if !uses_subject && text.as_deref().is_some_and(|m| !Matcher::is_match_all(m)) {
        *text = None;
        return Ok((Matcher::All, true));
    }
    Ok((matcher, false))
}

/// JSON-style quoting for names in messages (`"Foo"`).
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

fn non_blank(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

fn string_map(v: &Value) -> Option<Vec<(String, String)>> {
    v.as_object()?.iter().map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned()))).collect()
}

/// Parses the handler part of an entry; `None` (with a diagnostic) drops the hook.
pub fn parse_entry(
    dialect: Dialect,
    subst: &Substitutions,
    entry: &Value,
    diag: &mut dyn FnMut(Severity, &str),
) -> Option<HandlerSpec> {
    let Some(o) = entry.as_object() else {
        diag(Severity::Error, "entry is not an object");
        return None;
    };
    let ty = match o.get("type") {
        None | Some(Value::Null) => "command".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let Some(kind) = dialect.handler_kind(&ty) else {
        diag(Severity::Error, &format!("unknown hook type {}", quote(&ty)));
        return None;
    };
    let env = |diag: &mut dyn FnMut(Severity, &str)| match o.get("env") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => string_map(v).unwrap_or_else(|| {
            diag(Severity::Error, "env must be a string map");
            Vec::new()
        }),
    };
    match kind {
        HandlerKind::Shell | HandlerKind::Worker => {
            let Some(command) = non_blank(o.get("command")) else {
                diag(Severity::Error, "missing command");
                return None;
            };
            let args = match o.get("args") {
                None | Some(Value::Null) => None,
                Some(Value::Array(a)) => match a.iter().map(|x| x.as_str().map(|s| subst.apply(s))).collect() {
                    Some(v) => Some(v),
                    None => {
                        diag(Severity::Error, "args must be an array of strings");
                        return None;
                    }
                },
                Some(_) => {
                    diag(Severity::Error, "args must be an array of strings");
                    return None;
                }
            };
            let (command, env) = (subst.apply(command), env(diag));
            let worker_flag =
                matches!(dialect, Dialect::Claude | Dialect::Codex) && o.get("worker") == Some(&Value::Bool(true));
            if kind == HandlerKind::Worker || worker_flag {
                let settings = parse_worker_settings(o, diag);
                return Some(HandlerSpec::Worker { command, args, env, settings });
            }
            Some(HandlerSpec::Shell { command, args, env })
        }
        HandlerKind::Webhook => {
            let Some(url) = non_blank(o.get("url")) else {
                diag(Severity::Error, "missing url");
                return None;
            };
            let headers = match o.get("headers") {
                None | Some(Value::Null) => Vec::new(),
                Some(v) => string_map(v).unwrap_or_else(|| {
                    diag(Severity::Error, "headers must be a string map");
                    Vec::new()
                }),
            };
            if matches!(dialect, Dialect::Claude | Dialect::Codex) && ty == "http" {
                let url = url.trim();
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    diag(Severity::Error, &format!("url must be http:// or https://: {}", quote(url)));
                    return None;
                }
                let allowed_env_vars = match o.get("allowedEnvVars") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
                        a.iter().filter_map(Value::as_str).map(str::to_owned).collect()
                    }
                    Some(_) => {
                        diag(Severity::Error, "allowedEnvVars must be an array of variable names");
                        Vec::new()
                    }
                };
                return Some(HandlerSpec::Http { url: url.to_owned(), headers, allowed_env_vars });
            }
            Some(HandlerSpec::Webhook { url: url.trim().to_owned(), headers })
        }
        HandlerKind::McpTool => {
            let (Some(server), Some(tool)) = (non_blank(o.get("server")), non_blank(o.get("tool"))) else {
                diag(Severity::Error, "mcp_tool hooks need server and tool");
                return None;
            };
            let input = match o.get("input") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(v @ Value::Object(_)) => v.clone(),
                Some(_) => {
                    diag(Severity::Error, "input must be an object");
                    return None;
                }
            };
            Some(HandlerSpec::McpTool { server: server.to_owned(), tool: tool.to_owned(), input })
        }
        HandlerKind::Oracle => {
            let Some(prompt) = non_blank(o.get("prompt")) else {
                diag(Severity::Error, "missing prompt");
                return None;
            };
            let model = o.get("model").and_then(Value::as_str).map(str::to_owned);
            // Claude: "If $ARGUMENTS is not present, input JSON is appended to the prompt".
            let prompt = if matches!(dialect, Dialect::Claude | Dialect::Codex) && !prompt.contains("$ARGUMENTS") {
                format!("{prompt}\n\n$ARGUMENTS")
            } else {
                prompt.to_owned()
            };
            Some(HandlerSpec::Oracle { prompt, model })
        }
        HandlerKind::Proxy => {
            let Some(prompt) = non_blank(o.get("prompt")) else {
                diag(Severity::Error, "missing prompt");
                return None;
            };
            let command = match o.get("command") {
                None | Some(Value::Null) => None,
                Some(v) => match non_blank(Some(v)) {
                    Some(c) => Some(subst.apply(c)),
                    None => {
                        diag(Severity::Error, "command must not be empty");
                        return None;
                    }
                },
            };
            Some(HandlerSpec::Proxy { prompt: prompt.to_owned(), command, env: env(diag) })
        }
    }
}

/// A worker's `maxInFlight`, `idleTimeout` (seconds) and `warm`; invalid values are reported
/// and the defaults kept.
fn parse_worker_settings(
    o: &Map<String, Value>,
    diag: &mut dyn FnMut(Severity, &str),
) -> crate::handler::worker::WorkerSettings {
    let mut w = crate::handler::worker::WorkerSettings::default();
    match o.get("maxInFlight") {
        None | Some(Value::Null) => {}
        Some(v) => match v.as_u64().filter(|n| (1..=10_000).contains(n)) {
            Some(n) => w.max_in_flight = n as usize,
            None => diag(Severity::Error, "maxInFlight must be a whole number from 1 to 10000"),
        },
    }
    match o.get("idleTimeout") {
        None | Some(Value::Null) => {}
        Some(v) => match v.as_f64().filter(|n| n.is_finite() && *n > 0.0) {
            Some(n) => w.idle_timeout = n,
            None => diag(Severity::Error, "idleTimeout must be a positive number of seconds"),
        },
    }
    match o.get("warm") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => w.warm = *b,
        Some(_) => diag(Severity::Warning, "warm must be true or false; ignored"),
    }
    w
}

/// Per-hook `timeout` in seconds; invalid values are reported and ignored.
pub fn parse_timeout(o: Option<&Map<String, Value>>, diag: &mut dyn FnMut(Severity, &str)) -> Option<f64> {
    let v = o?.get("timeout")?;
    match v.as_f64() {
        Some(t) if t > 0.0 && t.is_finite() => Some(t),
        _ if v.is_null() => None,
        _ => {
            diag(Severity::Error, "timeout must be a positive number of seconds");
            None
        }
    }
}

/// Per-hook `onError`, with `failClosed` / `fail_closed` meaning `block`.
pub fn parse_on_error(o: Option<&Map<String, Value>>, diag: &mut dyn FnMut(Severity, &str)) -> Option<OnError> {
    let o = o?;
    let fail_closed = ["failClosed", "fail_closed"].iter().any(|k| o.get(*k) == Some(&Value::Bool(true)));
    let declared = match o.get("onError") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_str().and_then(OnError::parse) {
            Some(e) => Some(e),
            None => {
                diag(Severity::Error, "onError must be one of ignore/warn/block");
                None
            }
        },
    };
    if fail_closed {
        Some(OnError::Block)
    } else {
        declared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_keeps_unknown_tokens() {
        let s = Substitutions { vars: vec![("CLAUDE_PROJECT_DIR".into(), "/p".into())] };
        assert_eq!(s.apply("${CLAUDE_PROJECT_DIR}/x ${OTHER} $HOME ${"), "/p/x ${OTHER} $HOME ${");
        assert_eq!(Substitutions::default().apply("${CLAUDE_PROJECT_DIR}"), "${CLAUDE_PROJECT_DIR}");
    }
}
