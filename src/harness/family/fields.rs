//! Per-hook fields of Claude-shaped entries beyond the handler: `timeout`, `onError` /
//! `failClosed`, Claude's `if`, `async`, `asyncRewake`, `once`, `statusMessage`, `enabled`, and a
//! worker's settings.

use crate::config::if_rule::Rule;
use crate::config::{FamilyFields, HandlerSpec};
use crate::vocab::{HandlerKind, IfRules, OnError, Severity, WorkerSettings};
use serde_json::{Map, Value};

/// What a family member's files allow beyond the shared shape.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupRules {
    /// Claude's handler rules (`http` with `allowedEnvVars`, `"worker": true`, `$ARGUMENTS`
    /// appended to prompts): Claude and Codex.
    pub full_handlers: bool,
    /// Per-hook `enabled: false` (Claude, Codex, native).
    pub enabled_flag: bool,
    /// The `type` words the dialect accepts.
    pub kind: fn(&str) -> Option<HandlerKind>,
    /// A `timeout` at or above this is milliseconds, below it seconds (Qwen Code keeps the
    /// millisecond timeouts its files had before it switched to seconds); `None`: always seconds.
    pub millis_from: Option<f64>,
}

impl GroupRules {
    /// The family's rules for a dialect whose `timeout` is always seconds.
    pub(crate) const fn seconds(
        full_handlers: bool,
        enabled_flag: bool,
        kind: fn(&str) -> Option<HandlerKind>,
    ) -> Self {
        GroupRules { full_handlers, enabled_flag, kind, millis_from: None }
    }
}

/// Reads `if`, `async`, `asyncRewake`, `once` and `statusMessage`.
pub(crate) fn family(
    if_rules: IfRules,
    handler: &HandlerSpec,
    obj: Option<&Map<String, Value>>,
    diag: &mut impl FnMut(Severity, &str),
) -> FamilyFields {
    let mut f = FamilyFields::default();
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
        Some(_) if if_rules == IfRules::Ignore => {
            diag(Severity::Warning, "\"if\" filters are not evaluated; this hook runs whenever the matcher matches")
        }
        Some(Value::String(rule)) => {
            f.if_text = Some(rule.clone());
            match Rule::parse(rule) {
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

/// `enabled: false` keeps a hook loaded and listed but never run.
pub(crate) fn enabled(obj: Option<&Map<String, Value>>, diag: &mut impl FnMut(Severity, &str)) -> bool {
    match obj.and_then(|o| o.get("enabled")) {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diag(Severity::Warning, "enabled must be true or false; the hook stays enabled");
            true
        }
    }
}

/// A worker's `maxInFlight`, `idleTimeout` (seconds) and `warm`; invalid values are reported
/// and the defaults kept.
pub(crate) fn worker_settings(o: &Map<String, Value>, diag: &mut dyn FnMut(Severity, &str)) -> WorkerSettings {
    let mut w = WorkerSettings::default();
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

/// Per-hook `timeout` in seconds (milliseconds from `millis_from` on); invalid values are
/// reported and ignored.
pub(crate) fn timeout(
    o: Option<&Map<String, Value>>,
    millis_from: Option<f64>,
    diag: &mut dyn FnMut(Severity, &str),
) -> Option<f64> {
    let v = o?.get("timeout")?;
    match v.as_f64() {
        Some(t) if t > 0.0 && t.is_finite() && millis_from.is_some_and(|m| t >= m) => Some(t / 1000.0),
        Some(t) if t > 0.0 && t.is_finite() => Some(t),
        _ if v.is_null() => None,
        _ => {
            diag(Severity::Error, "timeout must be a positive number of seconds");
            None
        }
    }
}

/// Per-hook `onError`, with `failClosed` / `fail_closed` meaning `block`.
pub(crate) fn on_error(o: Option<&Map<String, Value>>, diag: &mut dyn FnMut(Severity, &str)) -> Option<OnError> {
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
