//! Property-based fuzzing of every parser that reads untrusted input: config files of each
//! dialect (as arbitrary JSON trees and as arbitrary text), hook stdout decoding, oracle answers
//! and protocol lines. The property is always "no panic, and a defined result".
//! A short run is part of `cargo test`; a long one: `PROPTEST_CASES=200000 cargo test --profile ci
//! --no-default-features --features fuzzing --test it fuzz::`.

use hookrt::parse_oracle_answer as parse_answer;
use hookrt::CanonicalEvent;
use hookrt::Dialect;
use hookrt::{decode, Raw};
use hookrt::{load, LoadOptions};
use hookrt::{parse_line, quick_answer};
use proptest::prelude::*;
use serde_json::Value;

/// Arbitrary JSON, biased towards the keys and shapes hook files use.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("hooks".to_string()),
        Just("events".to_string()),
        Just("matcher".to_string()),
        Just("command".to_string()),
        Just("type".to_string()),
        Just("timeout".to_string()),
        Just("timeoutMs".to_string()),
        Just("onError".to_string()),
        Just("env".to_string()),
        Just("args".to_string()),
        Just("url".to_string()),
        Just("headers".to_string()),
        Just("prompt".to_string()),
        Just("PreToolUse".to_string()),
        Just("Stop".to_string()),
        Just("tool:before".to_string()),
        Just("pre_tool_call".to_string()),
        Just("outbound".to_string()),
        Just("disableAllHooks".to_string()),
        "[a-zA-Z:._]{0,12}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        prop_oneof![
            Just("".to_string()),
            Just("*".to_string()),
            Just("(".to_string()),
            Just("true".to_string()),
            ".{0,20}"
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

const FILES: &[&str] = &[
    "proj/.claude/settings.json",
    "proj/.codex/hooks.json",
    "proj/.codex/config.toml",
    "proj/opencode.json",
    "proj/.agents/hooks.json",
    "proj/.dsh-hooks.json",
    "home/.hermes/config.yaml",
    "proj/.gemini/settings.json",
    "proj/.cursor/hooks.json",
    "proj/.github/hooks/a.json",
    "proj/.windsurf/hooks.json",
    "proj/.qwen/settings.json",
    "proj/.factory/hooks.json",
    "home/.kimi-code/config.toml",
    "proj/.augment/settings.json",
    "proj/_agent/hooks.json",
    "proj/.kiro/hooks/a.json",
];

/// The other harnesses' files with their own event names, for shaped trees.
const HARNESS_FILES: &[(&str, Dialect)] = &[
    ("proj/.gemini/settings.json", Dialect::Gemini),
    ("proj/.cursor/hooks.json", Dialect::Cursor),
    ("proj/.github/hooks/a.json", Dialect::Copilot),
    ("proj/.windsurf/hooks.json", Dialect::Windsurf),
    ("proj/.augment/settings.json", Dialect::Auggie),
    ("proj/.qwen/settings.json", Dialect::Qwen),
];

fn load_with(files: &[(&str, Vec<u8>)]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let opts = LoadOptions {
        home: dir.path().join("home"),
        cwd: dir.path().join("proj"),
        system_dir: dir.path().join("etc"),
        ..Default::default()
    };
    let l = load(&opts);
    l.table.hooks().len() + l.diagnostics.len()
}

fn to_text(file: &str, v: &Value) -> Vec<u8> {
    if file.ends_with(".toml") {
        toml::to_string(v).unwrap_or_default().into_bytes()
    } else if file.ends_with(".yaml") {
        serde_saphyr::to_string(v).unwrap_or_default().into_bytes()
    } else {
        serde_json::to_vec(v).unwrap()
    }
}

proptest! {
    // Cases: 256 by default, PROPTEST_CASES to change.
    #![proptest_config(ProptestConfig { failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn config_trees_of_every_dialect(v in json_value(), which in 0..FILES.len()) {
        let file = FILES[which];
        load_with(&[(file, to_text(file, &v))]);
    }

    #[test]
    fn harness_files_shaped_like_theirs(which in 0..HARNESS_FILES.len(), ev in 0usize..30, entries in prop::collection::vec(json_value(), 0..4),
                                        wrap in any::<bool>(), extra in json_value()) {
        let (file, dialect) = HARNESS_FILES[which];
        let names = hookrt::event_names(dialect);
        let event = names.get(ev).copied().unwrap_or("bogusEvent");
        // Gemini nests entries in groups; the others list them directly.
        let list = if wrap { serde_json::json!([{"matcher": extra, "sequential": true, "hooks": entries}]) } else { Value::Array(entries) };
        let root = serde_json::json!({"version": 1, "hooksConfig": extra, "hooks": {event: list}});
        load_with(&[(file, serde_json::to_vec(&root).unwrap())]);
    }

    #[test]
    fn antigravity_named_hooks(ev in 0usize..8, items in prop::collection::vec(json_value(), 0..4), enabled in json_value(),
                               grouped in any::<bool>(), at in 0usize..2) {
        let names = hookrt::event_names(Dialect::Antigravity);
        let event = names.get(ev).copied().unwrap_or("SessionEnd");
        let list = if grouped { serde_json::json!([{"matcher": "run_command", "hooks": items}]) } else { Value::Array(items) };
        let root = serde_json::json!({"guard": {"enabled": enabled, event: list}});
        let file = ["proj/.agents/hooks.json", "proj/.agent/hooks.json"][at];
        load_with(&[(file, serde_json::to_vec(&root).unwrap())]);
    }

    #[test]
    fn config_text_of_every_dialect(bytes in prop::collection::vec(any::<u8>(), 0..400), which in 0..FILES.len()) {
        load_with(&[(FILES[which], bytes)]);
    }

    #[test]
    fn stdout_decoder(out in ".{0,200}", err in ".{0,50}", code in prop::option::of(-3i32..300), v in json_value(),
                      as_json in any::<bool>(), ev in 0usize..CanonicalEvent::COUNT, d in 0usize..10) {
        let dialects = [Dialect::Claude, Dialect::Codex, Dialect::Opencode, Dialect::Hermes, Dialect::Native, Dialect::Agents,
                        Dialect::Gemini, Dialect::Cursor, Dialect::Copilot, Dialect::Windsurf];
        let stdout = if as_json { serde_json::to_string(&v).unwrap() } else { out };
        let o = decode(Raw { exit_code: code, stdout, stderr: err, truncated: false }, CanonicalEvent::ALL[ev], dialects[d]);
        prop_assert_eq!(o.exit_code, Some(code));
        if code == Some(2) && o.decision == Some(hookrt::Decision::Deny) && o.stdout.is_empty() {
            prop_assert!(o.reason.is_some());
        }
        serde_json::to_string(&o).unwrap();
    }

    #[test]
    fn oracle_answers(s in ".{0,200}", v in json_value(), fence in 0usize..4) {
        let _ = parse_answer(&s);
        let body = serde_json::to_string(&v).unwrap();
        let wrapped = match fence { 0 => body.clone(), 1 => format!("```json\n{body}\n```"), 2 => format!("Sure:\n```JSON\n{body}\n```\nok"), _ => format!("```{body}") };
        let r = parse_answer(&wrapped);
        if fence < 3 && v.is_object() {
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }

    #[test]
    fn protocol_lines(bytes in prop::collection::vec(any::<u8>(), 0..300), v in json_value(), op in 0usize..5) {
        let _ = parse_line(&bytes);
        let _ = std::str::from_utf8(&bytes).ok().map(|t| quick_answer(t, |_, _| false));
        let mut req = match v { Value::Object(m) => m, other => { let mut m = serde_json::Map::new(); m.insert("payload".into(), other); m } };
        req.insert("op".into(), Value::from(["ping", "dispatch", "reload", "bye", "x"][op]));
        req.insert("event".into(), Value::from("PreToolUse"));
        let line = serde_json::to_string(&req).unwrap();
        let env = parse_line(line.as_bytes());
        if let Some(quick) = quick_answer(&line, |_, _| false) {
            // The fast path agrees with the full decoder on what was asked.
            prop_assert!(env.request.is_ok(), "quick answered {} but the full path says {:?}", quick, env.request);
            let q: Value = serde_json::from_str(&quick).unwrap();
            prop_assert_eq!(q.get("id"), env.id.as_ref());
        }
    }
}
