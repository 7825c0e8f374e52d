//! Per-hook fields of Claude-shaped entries beyond the handler: `timeout`, `onError` and `if` as
//! the family's file type read them (schema.rs), and what the type leaves open, read here:
//! `failClosed`, `async`, `asyncRewake`, `once`, `statusMessage`, `enabled` and a worker's `warm`.

use crate::config::{FamilyFields, HandlerSpec};
use crate::harness::family::schema::{Family, IfRule, OnErrorWord};
use crate::harness::schema::{given, Lenient, Positive};
use crate::vocab::{IfRules, OnError, Severity};
use serde_json::{Map, Value};

/// Reads `if` (as the type read it), `async`, `asyncRewake`, `once` and `statusMessage`.
pub(crate) fn family(
    if_rules: IfRules,
    handler: &HandlerSpec,
    if_rule: Option<&IfRule>,
    o: &Map<String, Value>,
    diag: &mut dyn FnMut(Severity, &str),
) -> FamilyFields {
    let mut f = FamilyFields::default();
    let flag = |k: &str, diag: &mut dyn FnMut(Severity, &str)| match o.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diag(Severity::Warning, &format!("{k} must be true or false; ignored"));
            false
        }
    };
    match if_rule {
        None => {}
        Some(_) if if_rules == IfRules::Ignore => {
            diag(Severity::Warning, "\"if\" filters are not evaluated; this hook runs whenever the matcher matches")
        }
        Some(r) => {
            f.if_text = r.text.clone();
            match &r.parsed {
                Ok(rule) => f.if_rule = Some(rule.clone()),
                Err(why) => diag(Severity::Error, why),
            }
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
pub(crate) fn enabled(o: &Map<String, Value>, diag: &mut dyn FnMut(Severity, &str)) -> bool {
    match o.get("enabled") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diag(Severity::Warning, "enabled must be true or false; the hook stays enabled");
            true
        }
    }
}

/// A worker's `warm` (`None`: left out, or not a boolean and reported).
pub(crate) fn warm(o: &Map<String, Value>, diag: &mut dyn FnMut(Severity, &str)) -> Option<bool> {
    match o.get("warm") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            diag(Severity::Warning, "warm must be true or false; ignored");
            None
        }
    }
}

/// Per-hook `timeout` in seconds (milliseconds from the family member's `MILLIS_FROM` on).
pub(crate) fn timeout<F: Family>(t: &Option<Lenient<Positive>>) -> Option<f64> {
    let t = given(t)?.0;
    Some(if F::MILLIS_FROM.is_some_and(|m| t >= m) { t / 1000.0 } else { t })
}

/// Per-hook `onError`, with `failClosed` / `fail_closed` meaning `block`.
pub(crate) fn on_error(declared: &Option<Lenient<OnErrorWord>>, o: &Map<String, Value>) -> Option<OnError> {
    let fail_closed = ["failClosed", "fail_closed"].iter().any(|k| o.get(*k) == Some(&Value::Bool(true)));
    match fail_closed {
        true => Some(OnError::Block),
        false => given(declared).map(|w| w.policy()),
    }
}
