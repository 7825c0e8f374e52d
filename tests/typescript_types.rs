//! The public TypeScript types in `wrapper.d.ts` checked against the Rust wire types, so a
//! field added on one side cannot be forgotten on the other.

use hookrt::CanonicalEvent;
use hookrt::EventFields;
use hookrt::Outcome;
use hookrt::{Decision, RunOutcome};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn dts() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/wrapper.d.ts")).unwrap()
}

/// Property names of `export interface <name> ... { ... }`, with those of interfaces it extends.
fn ts_props(src: &str, name: &str) -> BTreeSet<String> {
    let start = src.find(&format!("export interface {name} ")).unwrap_or_else(|| panic!("no interface {name}"));
    let head_end = start + src[start..].find('{').unwrap();
    let body_end = head_end + src[head_end..].find("\n}").unwrap();
    let mut props: BTreeSet<String> = src[head_end..body_end]
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' ') && !l.starts_with('/') && !l.starts_with('*'))
        .filter_map(|l| l.split([':', '?']).next())
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_owned)
        .collect();
    if let Some(ext) = src[start..head_end].split(" extends ").nth(1) {
        props.extend(ts_props(src, ext.trim()));
    }
    props
}

fn full_fields() -> EventFields {
    EventFields {
        permission: Some(json!({"behavior": "allow"})),
        updated_tool_output: Some(json!("x")),
        session_title: Some("t".into()),
        initial_user_message: Some("m".into()),
        watch_paths: Some(vec!["/p".into()]),
        reload_skills: true,
        retry: true,
        worktree_path: Some("/w".into()),
        elicitation: Some(json!({"action": "accept"})),
        display_content: Some("d".into()),
        terminal_sequence: Some("\u{7}".into()),
    }
}

fn keys(v: Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn outcome_fields_match_the_typescript_outcome() {
    let mut o = Outcome::empty();
    o.reason = Some("r".into());
    o.stop_reason = Some("s".into());
    o.raw_decision = Some(Decision::Deny);
    o.raw_reason = Some("r".into());
    o.fields = full_fields();
    o.env = Some([("K".to_string(), "V".to_string())].into());
    o.rewake = Some(hookrt::Rewake { reason: "r".into() });
    assert_eq!(keys(serde_json::to_value(&o).unwrap()), ts_props(&dts(), "Outcome"));
}

#[test]
fn run_outcome_fields_match_the_typescript_run_outcome() {
    let r = RunOutcome {
        exit_code: Some(Some(0)),
        decision: Some(Decision::Allow),
        reason: Some("r".into()),
        stop_reason: Some("s".into()),
        update_input: Some(json!({})),
        truncated: true,
        fields: full_fields(),
        ..Default::default()
    };
    assert_eq!(keys(serde_json::to_value(&r).unwrap()), ts_props(&dts(), "RunOutcome"));
}

#[test]
fn every_canonical_event_and_decision_is_in_the_unions() {
    let src = dts();
    let union = |name: &str| {
        let start = src.find(&format!("export type {name} =")).unwrap();
        let end = start + src[start..].find("\n\n").unwrap();
        src[start..end].to_owned()
    };
    let events = union("CanonicalEvent");
    for e in CanonicalEvent::ALL {
        assert!(events.contains(&format!("'{}'", e.as_str())), "{} missing from CanonicalEvent", e.as_str());
    }
    assert_eq!(events.matches("\n  | '").count(), CanonicalEvent::ALL.len());
    let names = union("EventName");
    for n in hookrt::all_dispatch_names().into_iter().filter(|n| CanonicalEvent::ALL.iter().all(|e| e.as_str() != *n)) {
        assert!(names.contains(&format!("'{n}'")), "{n} missing from EventName");
    }
    let decisions = union("Decision");
    for d in [Decision::None, Decision::Allow, Decision::Ask, Decision::Defer, Decision::Deny] {
        assert!(decisions.contains(&serde_json::to_string(&d).unwrap().replace('"', "'")), "{d:?}");
    }
}
