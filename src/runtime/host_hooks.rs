//! The embedding program's own hooks: functions registered in the Claude Agent SDK's shape
//! (`{ PreToolUse: [{ matcher, hooks: [fn], timeout }] }`), held beside the files' hook table
//! and planned first. They are Claude Code hooks in everything but how they run: Claude's
//! matcher, Claude's stdin, Claude's answers, Claude's rules when several answer.

use crate::config::matcher::event_matcher;
use crate::config::{HandlerSpec, Hook};
use crate::load::HookTable;
use crate::vocab::{Dialect, DispatchEvent};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

/// `hooks` as the host gives it: event name → matcher groups.
pub type CallbackHooks = BTreeMap<String, Vec<CallbackMatcher>>;

/// One SDK `HookCallbackMatcher`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallbackMatcher {
    #[serde(default)]
    pub matcher: Option<String>,
    pub hooks: Vec<CallbackRef>,
    /// Seconds, for every hook of the group (the SDK's default is 60).
    #[serde(default)]
    pub timeout: Option<f64>,
}

/// A registered function: the host's id for it and its name.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallbackRef {
    pub id: u64,
    #[serde(default)]
    pub name: String,
}

/// A registration the host cannot make, naming the event and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("hooks.{event}{field}: {message}")]
pub struct HostHooksError {
    pub event: String,
    pub field: String,
    pub message: String,
}

/// The registrations, and the table built from them.
#[derive(Default)]
pub(crate) struct HostHooks {
    groups: Mutex<Vec<(u64, Vec<Hook>)>>,
    table: RwLock<Option<Arc<HookTable>>>,
    next: std::sync::atomic::AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl HostHooks {
    /// Registers `spec`; the handle removes exactly these hooks.
    pub(crate) fn add(&self, spec: &CallbackHooks, table_rules: (bool, bool)) -> Result<u64, HostHooksError> {
        let handle = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let hooks = hooks_of(spec, handle)?;
        let mut groups = lock(&self.groups);
        groups.push((handle, hooks));
        self.rebuild(&groups, table_rules);
        Ok(handle)
    }

    /// Removes one registration; false when it was removed already.
    pub(crate) fn remove(&self, handle: u64, table_rules: (bool, bool)) -> bool {
        let mut groups = lock(&self.groups);
        let before = groups.len();
        groups.retain(|(h, _)| *h != handle);
        let removed = groups.len() != before;
        if removed {
            self.rebuild(&groups, table_rules);
        }
        removed
    }

    /// The registered hooks as a table, none when there are none.
    pub(crate) fn table(&self) -> Option<Arc<HookTable>> {
        match self.table.read() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn rebuild(&self, groups: &[(u64, Vec<Hook>)], (case_insensitive, harness_names): (bool, bool)) {
        let hooks: Vec<Hook> = groups.iter().flat_map(|(_, h)| h.iter().cloned()).collect();
        let table = (!hooks.is_empty()).then(|| {
            let mut t = HookTable::new(hooks, false);
            t.case_insensitive_literals = case_insensitive;
            t.harness_tool_names = harness_names;
            Arc::new(t)
        });
        match self.table.write() {
            Ok(mut g) => *g = table,
            Err(p) => *p.into_inner() = table,
        }
    }
}

/// The hooks of one registration, in the order given.
fn hooks_of(spec: &CallbackHooks, handle: u64) -> Result<Vec<Hook>, HostHooksError> {
    let mut out = Vec::new();
    for (event, groups) in spec {
        let err = |field: String, message: String| HostHooksError { event: event.clone(), field, message };
        let Some(ev) = crate::harness::resolve_dispatch_name(event) else {
            // An event of a newer SDK that hookrt does not know: a host passing its SDK hooks
            // unchanged keeps working; nothing can dispatch the event, so they never run.
            tracing::warn!("hooks.{event}: hookrt has no such event; its callbacks never run");
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let timeout = match group.timeout {
                Some(t) if !(t.is_finite() && t > 0.0) => {
                    return Err(err(format!("[{g}].timeout"), "must be a positive number of seconds".into()))
                }
                t => t,
            };
            let mut text = group.matcher.clone();
            let (matcher, _) = event_matcher(&mut text, ev.canonical.has_subject(), MATCHER)
                .map_err(|e| err(format!("[{g}].matcher"), e.to_string()))?;
            for (i, f) in group.hooks.iter().enumerate() {
                let mut hook = callback_hook(ev, event, (handle, g, i), f);
                hook.matcher_text = text.clone();
                hook.matcher = matcher.clone();
                hook.timeout = timeout;
                out.push(hook);
            }
        }
    }
    Ok(out)
}

const MATCHER: crate::vocab::MatcherStyle = crate::vocab::MatcherStyle::LiteralOrRegex;

/// A Claude Code hook that calls a host function; its event is spelled as Claude spells it.
fn callback_hook(ev: DispatchEvent, written: &str, (handle, g, i): (u64, usize, usize), f: &CallbackRef) -> Hook {
    let canonical = crate::harness::of(Dialect::CANONICAL);
    let spelled = canonical
        .events()
        .iter()
        .find(|e| e.canonical == ev.canonical && e.result == ev.result)
        .or_else(|| canonical.events().iter().find(|e| e.canonical == ev.canonical))
        .map_or(written, |e| e.name);
    let name = if f.name.is_empty() { "anonymous".to_owned() } else { f.name.clone() };
    Hook {
        id: format!("callback:{name}:{spelled}:{handle}.{g}.{i}"),
        dialect: Dialect::CANONICAL,
        event: spelled.to_owned(),
        canonical: ev.canonical,
        tool_result: ev.result,
        matcher_text: None,
        matcher: crate::config::matcher::Matcher::All,
        handler: HandlerSpec::Callback { name, id: f.id },
        timeout: None,
        on_error: None,
        deny_on_failure: false,
        file: PathBuf::from("<host>"),
        enabled: true,
        fail_closed: false,
        family: Default::default(),
        env: Vec::new(),
        origin: crate::vocab::Origin::Host,
        harness: Default::default(),
        wire_json: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: serde_json::Value) -> CallbackHooks {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn registrations_plan_and_remove() {
        let h = HostHooks::default();
        let a = h
            .add(&spec(serde_json::json!({"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"id": 1, "name": "guard"}], "timeout": 5}]})), (false, false))
            .unwrap();
        let ev = crate::harness::resolve_dispatch_name("PreToolUse").unwrap();
        let t = h.table().unwrap();
        assert_eq!(t.plan(ev, Some("Edit"), &Default::default()).len(), 1);
        assert!(t.plan(ev, Some("Bash"), &Default::default()).is_empty());
        let hook = &t.plan(ev, Some("Write"), &Default::default())[0];
        assert_eq!(hook.timeout, Some(5.0));
        assert_eq!(hook.handler, HandlerSpec::Callback { name: "guard".into(), id: 1 });
        assert!(h.remove(a, (false, false)));
        assert!(h.table().is_none());
        assert!(!h.remove(a, (false, false)));
    }

    /// A run's `hook` is written once per hook, and is what `wire()` says; a copy of a hook
    /// (which may then be changed) writes its own.
    #[test]
    fn a_hooks_wire_json_is_its_wire_written_once() {
        let h = HostHooks::default();
        h.add(
            &spec(serde_json::json!({"PreToolUse": [{"matcher": "Read", "hooks": [{"id": 7, "name": "g\"q"}]}]})),
            (false, false),
        )
        .unwrap();
        let ev = crate::harness::resolve_dispatch_name("PreToolUse").unwrap();
        let hook = h.table().unwrap().plan(ev, Some("Read"), &Default::default())[0].clone();
        let written = hook.wire_json().unwrap().get().to_owned();
        assert_eq!(written, serde_json::to_string(&hook.wire()).unwrap());
        assert!(std::ptr::eq(hook.wire_json().unwrap(), hook.wire_json().unwrap()));
        let mut copy = (*hook).clone();
        copy.id = "callback:other".into();
        let theirs: serde_json::Value = serde_json::from_str(copy.wire_json().unwrap().get()).unwrap();
        assert_eq!(theirs["id"], "callback:other");
    }

    #[test]
    fn errors_name_the_event_and_field() {
        let h = HostHooks::default();
        let e = h.add(&spec(serde_json::json!({"PreToolUse": [{"matcher": "(", "hooks": []}]})), (false, false));
        assert_eq!(e.unwrap_err().field, "[0].matcher");
        let e = h.add(&spec(serde_json::json!({"Stop": [{"matcher": "(", "hooks": []}]})), (false, false));
        assert_eq!(e.unwrap_err().to_string().split(':').next(), Some("hooks.Stop[0].matcher"));
        assert!(h.add(&spec(serde_json::json!({"Nope": [{"hooks": [{"id": 1}]}]})), (false, false)).is_ok());
        assert!(h.table().is_none());
        let e = h.add(&spec(serde_json::json!({"Stop": [{"hooks": [], "timeout": 0}]})), (false, false)).unwrap_err();
        assert_eq!(e.field, "[0].timeout");
    }
}
