//! The JSON Schemas (`hookrt schema`) against the loader: on generated files of each dialect that
//! has a schema, the schema's type rejects a file exactly when the loader reports an error, at
//! the place the loader names; the emitted JSON Schema, run by an independent validator
//! (`jsonschema`), agrees; every hook file of the recordings agrees too; the committed
//! `schemas/` are what `hookrt schema` writes.

use hookrt::{check_schema, check_schema_at, parse_text, schema_of, Dialect, Severity};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::Path;

/// A property test's case count: `full` with `HOOKRT_FULL_TESTS=1` (what a change to a loader or
/// a schema should run), an eighth of it (at least 64) in everyday runs and CI.
fn cases(full: u32) -> u32 {
    if std::env::var("HOOKRT_FULL_TESTS").as_deref() == Ok("1") {
        full
    } else {
        (full / 8).max(64)
    }
}

/// The Claude-family dialects with a schema, each with a file path of theirs and whether its
/// events sit at the root (Droid's `hooks.json`) instead of under `hooks`.
const DIALECTS: &[(Dialect, &str, bool)] = &[
    (Dialect::Claude, "/p/.claude/settings.json", false),
    (Dialect::Codex, "/p/.codex/hooks.json", false),
    (Dialect::Qwen, "/p/.qwen/settings.json", false),
    (Dialect::Droid, "/p/.factory/hooks.json", true),
    (Dialect::Droid, "/p/.factory/settings.json", false),
];

/// One mistake made to an entry: a field set to a value (`Some`) or removed (`None`).
type Mistake = Option<(&'static str, Option<Value>)>;

/// The entry with its mistake made.
fn apply(mut o: serde_json::Map<String, Value>, mistake: Mistake) -> Value {
    match mistake {
        Some((k, Some(v))) => drop(o.insert(k.into(), v)),
        Some((k, None)) => drop(o.remove(k)),
        None => {}
    }
    Value::Object(o)
}

fn field_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!("")),
        Just(json!("  ")),
        Just(json!("./guard.sh")),
        Just(json!("https://127.0.0.1:9/h")),
        Just(json!("ftp://x")),
        Just(json!(5)),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(2.5)),
        Just(json!(true)),
        Just(json!(["a", "b"])),
        Just(json!([1])),
        Just(json!({"A": "1"})),
        Just(json!({"A": 1})),
        Just(json!("block")),
        Just(json!("Bash(git push:*)")),
    ]
}

/// A valid entry of a random type with optional extras, then (half the time) one field set to
/// a random value or removed: files with one mistake, or none.
fn handler(types: &[&'static str]) -> impl Strategy<Value = Value> {
    let ty = prop::option::of(prop::sample::select(types.to_vec()));
    let extras = prop::collection::vec(
        prop::sample::select(vec![
            ("timeout", json!(5)),
            ("onError", json!("block")),
            ("args", json!(["a"])),
            ("env", json!({"A": "1"})),
            ("headers", json!({"X": "y"})),
            ("if", json!("Bash(git push:*)")),
            ("statusMessage", json!("checking")),
            ("worker", json!(true)),
            ("maxInFlight", json!(4)),
            ("idleTimeout", json!(30)),
        ]),
        0..3,
    );
    let keys = prop::sample::select(vec![
        "type",
        "command",
        "args",
        "env",
        "timeout",
        "onError",
        "url",
        "headers",
        "allowedEnvVars",
        "server",
        "tool",
        "input",
        "prompt",
        "if",
        "maxInFlight",
        "idleTimeout",
    ]);
    let mistake = prop::option::of((keys, prop::option::of(field_value())));
    (ty, extras, mistake).prop_map(|(ty, extras, mistake)| {
        let mut o = serde_json::Map::new();
        let base: &[(&str, Value)] = match ty {
            Some("http" | "webhook") => &[("url", json!("https://127.0.0.1:9/h"))],
            Some("prompt" | "agent" | "oracle" | "subagent" | "proxy") => &[("prompt", json!("ok?"))],
            Some("mcp_tool") => &[("server", json!("s")), ("tool", json!("t"))],
            _ => &[("command", json!("./guard.sh"))],
        };
        if let Some(t) = ty {
            o.insert("type".into(), json!(t));
        }
        for (k, v) in base.iter().cloned().chain(extras) {
            o.insert(k.into(), v);
        }
        apply(o, mistake)
    })
}

/// The handler types Claude Code's file generator tries (all of Claude's, plus none).
const CLAUDE_TYPES: &[&str] = &["command", "http", "prompt", "agent", "mcp_tool"];

/// Claude-shaped files with some of `events` (and one unknown name) under `hooks`.
fn family_file(events: &[&'static str], types: &[&'static str]) -> impl Strategy<Value = Value> {
    let handler = prop_oneof![19 => handler(types), 1 => Just(json!(["./g.sh"]))];
    let matcher = prop::option::of(prop::sample::select(vec![
        json!("Bash"),
        json!("Edit|Write"),
        json!("mcp__.*"),
        json!(""),
        json!("Bash"),
        json!(3),
        json!("("),
    ]));
    let group = (matcher, prop::collection::vec(handler, 0..3), prop::bool::weighted(0.9)).prop_map(
        |(m, hooks, with_hooks)| {
            let mut g = serde_json::Map::new();
            if let Some(m) = m {
                g.insert("matcher".into(), m);
            }
            if with_hooks {
                g.insert("hooks".into(), Value::Array(hooks));
            }
            Value::Object(g)
        },
    );
    let group = prop_oneof![19 => group, 1 => Just(json!(["Bash", [{"command": "./g.sh"}]]))];
    let mut names = events.to_vec();
    names.push("NotAnEvent");
    let event = prop::sample::select(names);
    prop::collection::vec((event, prop::collection::vec(group, 1..3)), 0..3).prop_map(|evs| {
        json!({"hooks": evs.into_iter().map(|(e, gs)| (e.to_owned(), Value::Array(gs))).collect::<serde_json::Map<_, _>>()})
    })
}

/// The loader's errors for a file: the places it names (`hooks[PreToolUse][0].hooks[1]`).
fn loader_errors(path: &str, d: Dialect, v: &Value) -> Vec<String> {
    let (_, diags) = parse_text(Path::new(path), Some(d), &v.to_string());
    diags
        .into_iter()
        .filter(|x| x.severity == Severity::Error)
        // A problem of the whole file names no place.
        .map(|x| x.message.split_once(": ").map_or("", |(at, _)| at).to_owned())
        .collect()
}

fn validator(d: Dialect) -> jsonschema::Validator {
    let schema = schema_of(d).expect("schema");
    jsonschema::options().build(&schema).expect("a valid draft 2020-12 schema")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn the_schema_and_the_loader_agree_on_generated_files(
        which in 0..DIALECTS.len(),
        v in family_file(&["PreToolUse", "Stop", "SessionStart", "PostToolUse"], CLAUDE_TYPES),
        wrap in any::<bool>(),
        member in prop::sample::select(vec!["keep", "keep", "keep", "drop", "null"]),
        disable in prop::option::of(prop::sample::select(vec![json!(true), json!("no")])),
    ) {
        let (d, path, at_root) = DIALECTS[which];
        let mut v = match member {
            "drop" => json!({}),
            "null" => json!({"hooks": null}),
            _ => v,
        };
        if let Some(x) = disable {
            v["disableAllHooks"] = x;
        }
        // Droid: the events at the root, or (wrongly) under `hooks`.
        let v = if at_root && !wrap && v["hooks"].is_object() { v["hooks"].clone() } else { v };
        agree(d, path, &v)?;
    }
}

/// The dialect of a recorded hook file, by where it sits.
const RECORDED: &[(&str, Dialect)] = &[
    (".claude/settings.json", Dialect::Claude),
    (".claude/settings.local.json", Dialect::Claude),
    (".codex/hooks.json", Dialect::Codex),
    (".qwen/settings.json", Dialect::Qwen),
    (".factory/hooks.json", Dialect::Droid),
    (".factory/settings.json", Dialect::Droid),
    (".gemini/settings.json", Dialect::Gemini),
    (".github/hooks/recorder.json", Dialect::Copilot),
    (".hermes/config.yaml", Dialect::Hermes),
];

#[test]
fn every_recorded_hook_file_agrees_with_its_schema() {
    let mut checked = std::collections::BTreeMap::new();
    for entry in walk(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/e2e/recordings"))) {
        if entry.file_name().is_none_or(|n| n != "scenario.json") {
            continue;
        }
        let s: Value = serde_json::from_str(&std::fs::read_to_string(&entry).unwrap()).unwrap();
        for (rel, text) in s["files"].as_object().into_iter().flatten() {
            let Some((_, d)) = RECORDED.iter().find(|(p, _)| rel.ends_with(p)) else { continue };
            let Some(text) = text.as_str() else { continue };
            let v: Value = if rel.ends_with(".yaml") {
                serde_saphyr::from_str(text).unwrap()
            } else {
                serde_json::from_str(text).unwrap()
            };
            // A recording of a broken file (Droid's S12) fails at the place the loader names.
            let (_, diags) = parse_text(Path::new(rel), Some(*d), text);
            let places: Vec<&str> = diags
                .iter()
                .filter(|x| x.severity == Severity::Error)
                .map(|x| x.message.split_once(": ").map_or("", |(at, _)| at))
                .collect();
            let problem = check_schema_at(*d, Path::new(rel), &v).expect("a schema for the file");
            assert_eq!(problem.is_some(), !places.is_empty(), "{}: {rel}: {diags:?}", entry.display());
            if let Some(p) = &problem {
                assert!(places.iter().any(|at| p.at.starts_with(at)), "{}: {rel}: {p:?} {places:?}", entry.display());
            }
            // The published schema, where it describes the file (not Droid's settings.json).
            if !rel.ends_with("settings.json") || *d != Dialect::Droid {
                assert_eq!(validator(*d).is_valid(&v), places.is_empty(), "{}: {rel}", entry.display());
            }
            *checked.entry(d.as_str()).or_insert(0) += 1;
        }
    }
    // Every kit's files were found and checked.
    for (_, d) in RECORDED {
        assert!(
            checked.get(d.as_str()).is_some_and(|n| *n > 0),
            "no recorded {} file checked: {checked:?}",
            d.as_str()
        );
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_broken_file_fails_at_the_field_the_loader_names() {
    let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "ok"}, {"type": "command"}]}]}});
    let p = check_schema(Dialect::Claude, &v).expect("a schema problem");
    assert_eq!(p.at, "hooks[PreToolUse][0].hooks[1]");
    assert_eq!(p.event.as_deref(), Some("PreToolUse"));
    assert!(p.message.contains("command"), "{}", p.message);
    assert_eq!(
        loader_errors("/p/.claude/settings.json", Dialect::Claude, &v),
        vec!["hooks[PreToolUse][0].hooks[1]".to_owned()]
    );
}

#[test]
fn the_shipped_schemas_are_what_hookrt_schema_writes() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/schemas"));
    for d in Dialect::ALL {
        let file = dir.join(format!("{}.schema.json", d.as_str()));
        match schema_of(d) {
            Some(s) => {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                let expected = serde_json::to_string_pretty(&s).unwrap() + "\n";
                assert!(text == expected, "{} is stale: run `hookrt schema --out schemas`", file.display());
                assert_eq!(s["$id"], json!(format!("{}{}.schema.json", hookrt::SCHEMA_BASE, d.as_str())));
            }
            None => assert!(!file.exists(), "{} has no schema type", d.as_str()),
        }
    }
}

/// An Auggie hook: valid, with optional extras, then maybe one mistake.
fn auggie_hook() -> impl Strategy<Value = Value> {
    let extras = prop::collection::vec(
        prop::sample::select(vec![("args", json!(["a"])), ("timeout", json!(500)), ("env", json!({"A": 1}))]),
        0..2,
    );
    let keys = prop::sample::select(vec!["type", "command", "args", "timeout"]);
    let mistake = prop::option::of((keys, prop::option::of(field_value())));
    (extras, mistake).prop_map(|(extras, mistake)| {
        let mut o = serde_json::Map::new();
        o.insert("type".into(), json!("command"));
        o.insert("command".into(), json!("./g.sh"));
        for (k, v) in extras {
            o.insert(k.into(), v);
        }
        apply(o, mistake)
    })
}

fn auggie_file() -> impl Strategy<Value = Value> {
    let matcher = prop::option::of(prop::sample::select(vec![
        json!("launch-process"),
        json!(".*"),
        json!(""),
        json!(3),
        json!("("),
        Value::Null,
    ]));
    let metadata = prop::option::of(prop::sample::select(vec![
        json!({"includeUserContext": true}),
        json!({"includeUserContext": 1}),
        json!(4),
    ]));
    let group = (matcher, metadata, prop::collection::vec(auggie_hook(), 0..3), prop::bool::weighted(0.9)).prop_map(
        |(m, meta, hooks, with_hooks)| {
            let mut g = serde_json::Map::new();
            if let Some(m) = m {
                g.insert("matcher".into(), m);
            }
            if let Some(meta) = meta {
                g.insert("metadata".into(), meta);
            }
            if with_hooks {
                g.insert("hooks".into(), Value::Array(hooks));
            }
            Value::Object(g)
        },
    );
    let event = prop::sample::select(vec!["PreToolUse", "Stop", "PromptSubmit", "NotAnEvent", "beforeShellExecution"]);
    prop::collection::vec((event, prop::collection::vec(group, 0..3)), 0..3).prop_map(|evs| {
        json!({"hooks": evs.into_iter().map(|(e, gs)| (e.to_owned(), Value::Array(gs))).collect::<serde_json::Map<_, _>>()})
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn auggie_schema_and_loader_agree(v in auggie_file()) {
        agree(Dialect::Auggie, "/p/.augment/settings.json", &v)?;
    }
}

/// The loader reports an error exactly when the schema's type refuses the file, at a place the
/// loader names; the emitted JSON Schema agrees (unless only a regex is wrong, which JSON
/// Schema cannot check).
fn agree(d: Dialect, path: &str, v: &Value) -> Result<(), TestCaseError> {
    let errors = loader_errors(path, d, v);
    let problem = check_schema_at(d, Path::new(path), v).expect("a schema for the file");
    prop_assert_eq!(
        problem.is_some(),
        !errors.is_empty(),
        "{:?}: loader {:?}, schema {:?}, file {}",
        d,
        errors,
        problem,
        v
    );
    if let Some(p) = &problem {
        prop_assert!(
            errors.iter().any(|e| p.at.starts_with(e.as_str())),
            "{:?}: loader {:?}, schema {:?}",
            d,
            errors,
            p
        );
    }
    // The published schema describes the file unless its shape differs (Droid's settings.json).
    let published = !(d == Dialect::Droid && path.ends_with("settings.json"));
    if published && !v.to_string().contains("\"matcher\":\"(\"") {
        prop_assert_eq!(validator(d).is_valid(v), problem.is_none(), "{:?}: {}", d, v);
    }
    Ok(())
}

/// A Kiro v1 entry: valid, with optional extras, then maybe one mistake.
fn kiro_entry() -> impl Strategy<Value = Value> {
    let trigger = prop::sample::select(vec!["PreToolUse", "Stop", "PostFileSave", "UserPromptSubmit"]);
    let action = prop::sample::select(vec![
        json!({"type": "command", "command": "./g.sh"}),
        json!({"type": "agent", "prompt": "tests?"}),
    ]);
    let extras = prop::collection::vec(
        prop::sample::select(vec![
            ("matcher", json!("execute_bash")),
            ("timeout", json!(5)),
            ("enabled", json!(false)),
            ("matcher", json!("")),
        ]),
        0..2,
    );
    let keys = prop::sample::select(vec!["name", "trigger", "action", "matcher", "timeout", "enabled"]);
    let mistake = prop::option::of((
        keys,
        prop::option::of(prop_oneof![
            field_value(),
            Just(json!("Bogus")),
            Just(json!("(")),
            Just(json!({"type": "command", "command": " "})),
            Just(json!({"type": "shell"})),
            Just(json!({"type": "command"})),
        ]),
    ));
    (trigger, action, extras, mistake).prop_map(|(trigger, action, extras, mistake)| {
        let mut o = serde_json::Map::new();
        o.insert("name".into(), json!("n"));
        o.insert("trigger".into(), json!(trigger));
        o.insert("action".into(), action);
        for (k, v) in extras {
            o.insert(k.into(), v);
        }
        apply(o, mistake)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn kiro_schema_and_loader_agree(
        entries in prop::collection::vec(kiro_entry(), 0..4),
        list in prop::bool::weighted(0.95),
        version in prop::sample::select(vec![json!("v1"), json!("v1"), json!("v1"), json!("v2"), Value::Null]),
    ) {
        let hooks = if list { Value::Array(entries) } else { json!({"a": 1}) };
        agree(Dialect::Kiro, "/p/.kiro/hooks/a.json", &json!({"version": version, "hooks": hooks}))?;
    }
}

/// An Antigravity handler: valid, with optional extras, then maybe one mistake.
fn antigravity_handler() -> impl Strategy<Value = Value> {
    let base = prop::sample::select(vec![
        json!({"command": "./g.sh"}),
        json!({"type": "command", "command": "./g.sh"}),
        json!({"type": "prompt", "prompt": "UTC", "model": "m"}),
    ]);
    let keys = prop::sample::select(vec!["type", "command", "prompt", "model", "timeout", "env"]);
    let mistake = prop::option::of((
        keys,
        prop::option::of(prop_oneof![field_value(), Just(json!("COMMAND")), Just(json!(3_000_000_000i64))]),
    ));
    (base, prop::option::of(Just(json!(5))), mistake).prop_map(|(mut h, timeout, mistake)| {
        let o = h.as_object_mut().unwrap();
        if let Some(t) = timeout {
            o.insert("timeout".into(), t);
        }
        apply(std::mem::take(o), mistake)
    })
}

fn antigravity_file() -> impl Strategy<Value = Value> {
    let group = (
        prop::option::of(prop::sample::select(vec![json!("run_command"), json!("*"), json!(3)])),
        prop::collection::vec(antigravity_handler(), 0..3),
    )
        .prop_map(|(m, hooks)| {
            let mut g = serde_json::Map::new();
            if let Some(m) = m {
                g.insert("matcher".into(), m);
            }
            g.insert("hooks".into(), Value::Array(hooks));
            Value::Object(g)
        });
    let event = prop_oneof![
        prop::collection::vec(group, 0..2).prop_map(|g| ("PreToolUse", Value::Array(g))),
        prop::collection::vec(antigravity_handler(), 0..2).prop_map(|h| ("stop", Value::Array(h))),
        prop::collection::vec(antigravity_handler(), 0..2).prop_map(|h| ("SessionEnd", Value::Array(h))),
        Just(("Stop", json!({"command": "x"}))),
    ];
    let hook = (
        prop::collection::vec(event, 0..3),
        prop::option::of(prop::sample::select(vec![json!(true), json!(false), json!("no")])),
    )
        .prop_map(|(evs, enabled)| {
            let mut h: serde_json::Map<String, Value> = evs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            if let Some(e) = enabled {
                h.insert("enabled".into(), e);
            }
            Value::Object(h)
        });
    let name = prop::sample::select(vec!["guard", "lint", "enabled"]);
    prop::collection::vec((name, prop_oneof![9 => hook, 1 => Just(json!([1]))]), 1..3)
        .prop_map(|hs| Value::Object(hs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn antigravity_schema_and_loader_agree(v in antigravity_file()) {
        agree(Dialect::Antigravity, "/p/.agent/hooks.json", &v)?;
    }
}

/// A Kimi `[[hooks]]` table: valid, then maybe one mistake.
fn kimi_table() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec!["event", "matcher", "command", "timeout", "when"]);
    let value = prop_oneof![
        Just(json!("")),
        Just(json!("Bash")),
        Just(json!("NotAnEvent")),
        Just(json!(5)),
        Just(json!(0)),
        Just(json!(601)),
        Just(json!(2.5)),
        Just(json!(true)),
        Just(json!(["a"])),
    ];
    let mistake = prop::option::of((keys, prop::option::of(value)));
    (prop::option::of(Just(json!(10))), mistake).prop_map(|(timeout, mistake)| {
        let mut o = serde_json::Map::new();
        o.insert("event".into(), json!("PreToolUse"));
        o.insert("matcher".into(), json!("Bash"));
        o.insert("command".into(), json!("./g.sh"));
        if let Some(t) = timeout {
            o.insert("timeout".into(), t);
        }
        apply(o, mistake)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn kimi_schema_and_loader_agree(tables in prop::collection::vec(kimi_table(), 0..3)) {
        let v = json!({"model": {"name": "k2"}, "hooks": tables});
        let path = "/h/.kimi-code/config.toml";
        let text = toml::to_string(&v).unwrap();
        let (_, diags) = parse_text(Path::new(path), Some(Dialect::Kimi), &text);
        let errors: Vec<String> = diags.into_iter().filter(|x| x.severity == Severity::Error)
            .map(|x| x.message.split(": ").next().unwrap_or("").to_owned()).collect();
        let problem = check_schema(Dialect::Kimi, &v);
        prop_assert_eq!(problem.is_some(), !errors.is_empty(), "loader {:?}, schema {:?}, file {}", errors, problem, v);
        if let Some(p) = &problem {
            prop_assert!(errors.iter().any(|e| p.at.starts_with(e.as_str())), "loader {:?}, schema {:?}", errors, p);
        }
        prop_assert_eq!(validator(Dialect::Kimi).is_valid(&v), problem.is_none(), "{}", v);
    }
}

/// Every handler type and alias hookrt's own files take, and one they do not.
const NATIVE_TYPES: &[&str] = &[
    "command", "shell", "http", "webhook", "prompt", "oracle", "agent", "subagent", "proxy", "mcp_tool", "worker",
    "exec",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn native_schema_and_loader_agree(
        v in family_file(&["tool:before", "turn:stop", "session:start"], NATIVE_TYPES),
        member in prop::sample::select(vec!["events", "hooks", "none", "null"]),
        disable in prop::option::of(prop::sample::select(vec![json!(true), json!(false), json!("yes")])),
    ) {
        let mut root = serde_json::Map::new();
        root.insert("version".into(), json!(1));
        match member {
            "none" => {}
            "null" => drop(root.insert("events".into(), Value::Null)),
            m => drop(root.insert(m.into(), v["hooks"].clone())),
        }
        if let Some(d) = disable {
            root.insert("disableAllHooks".into(), d);
        }
        agree(Dialect::Native, "/p/.dsh-hooks.json", &Value::Object(root))?;
    }

    #[test]
    fn opencode_schema_and_loader_agree(
        v in family_file(&["tool.execute.before", "session.idle", "chat.message"], &["command", "http", "subagent", "prompt"]),
        hooks in prop::sample::select(vec!["object", "none", "null", "list"]),
    ) {
        let v = match hooks {
            "object" => v,
            "none" => json!({"model": "m"}),
            "null" => json!({"hooks": null}),
            _ => json!({"hooks": [1]}),
        };
        agree(Dialect::Opencode, "/p/opencode.json", &v)?;
    }
}

/// An entry built from `base`, with some of `extras`, then maybe one mistake: a key of `keys`
/// set to a generic wrong value or one of `values`, or removed.
fn flat_entry(
    base: Vec<Value>,
    extras: Vec<(&'static str, Value)>,
    keys: Vec<&'static str>,
    values: Vec<Value>,
) -> impl Strategy<Value = Value> {
    let values = if values.is_empty() { vec![Value::Null] } else { values };
    let mistake = prop::option::of((
        prop::sample::select(keys),
        prop::option::of(prop_oneof![field_value(), prop::sample::select(values)]),
    ));
    let entry = (prop::sample::select(base), prop::collection::vec(prop::sample::select(extras), 0..3), mistake)
        .prop_map(|(base, extras, mistake)| {
            let mut o = base.as_object().cloned().unwrap_or_default();
            o.extend(extras.into_iter().map(|(k, v)| (k.to_owned(), v)));
            apply(o, mistake)
        });
    // Now and then a list where the entry should be (serde would fill a struct from it).
    prop_oneof![19 => entry, 1 => Just(json!(["./g.sh", "x", 5]))]
}

/// `{"hooks": {event: [entry, …]}}` with some of `events` and one unknown name; sometimes with
/// `hooks` missing, `null` or a list.
fn flat_file(events: &[&'static str], entry: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    let mut names = events.to_vec();
    names.push("NotAnEvent");
    let list = prop_oneof![9 => prop::collection::vec(entry, 0..3).prop_map(Value::Array), 1 => Just(json!({"a": 1}))];
    let hooks = prop::collection::vec((prop::sample::select(names), list), 0..3)
        .prop_map(|evs| Value::Object(evs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()));
    let root = prop::sample::select(vec!["object", "object", "object", "object", "none", "null", "list"]);
    (hooks, root).prop_map(|(hooks, root)| match root {
        "object" => json!({"version": 1, "hooks": hooks}),
        "none" => json!({"version": 1}),
        "null" => json!({"hooks": null}),
        _ => json!({"hooks": [hooks]}),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn cursor_schema_and_loader_agree(v in flat_file(
        &["beforeShellExecution", "stop", "preToolUse"],
        flat_entry(
            vec![json!({"command": "./g.sh"}), json!({"type": "command", "command": "./g.sh"})],
            vec![("matcher", json!("Shell")), ("timeout", json!(5)), ("failClosed", json!(true)), ("loop_limit", json!(3)), ("loop_limit", Value::Null)],
            vec!["type", "command", "matcher", "timeout", "failClosed", "loop_limit"],
            vec![json!("prompt"), json!("("), json!(u64::MAX)],
        ),
    )) {
        agree(Dialect::Cursor, "/p/.cursor/hooks.json", &v)?;
    }

    #[test]
    fn windsurf_schema_and_loader_agree(v in flat_file(
        &["pre_run_command", "post_cascade_response"],
        flat_entry(
            vec![json!({"command": "./g.sh"})],
            vec![("working_directory", json!("/tmp")), ("show_output", json!(true)), ("matcher", json!("x"))],
            vec!["command", "working_directory"],
            vec![],
        ),
    )) {
        agree(Dialect::Windsurf, "/p/.windsurf/hooks.json", &v)?;
    }

    #[test]
    fn copilot_schema_and_loader_agree(
        v in flat_file(
            &["preToolUse", "PreToolUse", "sessionStart"],
            flat_entry(
                vec![
                    json!({"type": "command", "bash": "./g.sh"}),
                    json!({"command": "./g.sh"}),
                    json!({"type": "command", "exec": "./g", "args": ["a"]}),
                    json!({"type": "http", "url": "http://127.0.0.1:9/h"}),
                ],
                vec![("matcher", json!("bash|edit")), ("timeoutSec", json!(5)), ("cwd", json!("sub")), ("env", json!({"A": "1"})), ("bash", json!(" "))],
                vec!["type", "bash", "command", "exec", "args", "env", "url", "matcher", "timeout", "timeoutSec", "cwd"],
                vec![json!("prompt"), json!("("), json!(["a", 1])],
            ),
        ),
        disable in prop::option::of(prop::sample::select(vec![json!(true), json!(false), json!(1)])),
    ) {
        let mut v = v;
        if let Some(d) = disable {
            v["disableAllHooks"] = d;
        }
        agree(Dialect::Copilot, "/p/.github/hooks/a.json", &v)?;
    }
}

fn gemini_file() -> impl Strategy<Value = Value> {
    let hook = flat_entry(
        vec![json!({"type": "command", "command": "./g.sh"}), json!({"command": "./g.sh", "name": "guard"})],
        vec![("timeout", json!(5000)), ("env", json!({"A": "1"})), ("name", json!("n")), ("description", json!("d"))],
        vec!["type", "command", "name", "env", "timeout"],
        vec![json!("prompt")],
    );
    let group = flat_entry(
        vec![json!({"matcher": "run_shell_command"}), json!({})],
        vec![("matcher", json!("(")), ("sequential", json!(true)), ("matcher", Value::Null)],
        vec!["matcher", "sequential"],
        vec![],
    );
    let group = (group, prop::option::of(prop::collection::vec(hook, 0..3))).prop_map(|(mut g, hooks)| {
        if let (Some(h), Some(o)) = (hooks, g.as_object_mut()) {
            o.insert("hooks".into(), Value::Array(h));
        }
        g
    });
    let switches = prop::sample::select(vec![
        json!({}),
        json!({}),
        json!({"hooksConfig": {"enabled": false}}),
        json!({"hooksConfig": {"enabled": true, "disabled": ["guard"]}}),
        json!({"hooksConfig": 3}),
        json!({"hooks": {"enabled": false}}),
    ]);
    (flat_file(&["BeforeTool", "AfterAgent", "SessionStart"], group), switches).prop_map(|(mut v, switches)| {
        for (k, s) in switches.as_object().into_iter().flatten() {
            match (k.as_str(), v["hooks"].as_object_mut()) {
                ("hooks", Some(h)) => h.extend(s.as_object().cloned().unwrap_or_default()),
                ("hooks", None) => {}
                _ => v[k] = s.clone(),
            }
        }
        v
    })
}

proptest! {
    // Mistakes sit two levels deep here: more cases to reach each.
    #![proptest_config(ProptestConfig { cases: cases(2048), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn gemini_schema_and_loader_agree(v in gemini_file()) {
        agree(Dialect::Gemini, "/p/.gemini/settings.json", &v)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn agents_schema_and_loader_agree(
        v in flat_file(
            &["PreToolUse", "PostToolUse", "Stop"],
            flat_entry(
                vec![json!({"command": "./g.sh"}), json!({"matcher": "Bash", "command": "./g.sh"})],
                vec![("timeoutMs", json!(300)), ("denyOnFailure", json!(true)), ("matcher", json!("*"))],
                vec!["command", "matcher", "timeoutMs", "denyOnFailure"],
                vec![json!("(")],
            ),
        ),
        wrapped in any::<bool>(),
    ) {
        // The events at the root, or wrapped in `hooks`.
        let v = match (wrapped, v.get("hooks")) {
            (false, Some(h @ Value::Object(_))) => h.clone(),
            _ => v,
        };
        // Objects under names make it Antigravity's file (tested there).
        prop_assume!(!v.as_object().unwrap().iter().any(|(k, x)| k != "hooks" && x.is_object()));
        agree(Dialect::Agents, "/p/.agents/hooks.json", &v)?;
    }
}

fn hermes_config() -> impl Strategy<Value = Value> {
    let hook = flat_entry(
        vec![json!({"command": "./g.sh"}), json!({"command": "~/bin/g --tag '#x'", "matcher": "terminal"})],
        vec![("timeout", json!(30)), ("timeout", json!(400)), ("matcher", json!("term.*"))],
        vec!["command", "matcher", "timeout"],
        vec![json!("a 'b"), json!("(")],
    );
    let outbound = flat_entry(
        vec![json!({"url": "http://127.0.0.1:9/h", "events": ["pre_tool_call"]})],
        vec![("secret_env", json!("S")), ("events", json!(["nope"]))],
        vec!["url", "events"],
        vec![],
    );
    let outbound = prop::collection::vec(outbound, 0..2).prop_map(|o| ("outbound", Value::Array(o)));
    (flat_file(&["pre_tool_call", "on_session_start", "pre_verify"], hook), prop::option::of(outbound)).prop_map(
        |(mut v, outbound)| {
            if let (Some((k, o)), Some(h)) = (outbound, v["hooks"].as_object_mut()) {
                h.insert(k.into(), o);
            }
            v
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1024), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn hermes_schema_and_loader_agree(v in hermes_config()) {
        // YAML reads JSON; a command with unbalanced quotes is the type's business only.
        let path = "/h/.hermes/config.yaml";
        let errors = loader_errors(path, Dialect::Hermes, &v);
        let problem = check_schema(Dialect::Hermes, &v);
        prop_assert_eq!(problem.is_some(), !errors.is_empty(), "loader {:?}, schema {:?}, file {}", errors, problem, v);
        if let Some(p) = &problem {
            prop_assert!(errors.iter().any(|e| p.at.starts_with(e.as_str())), "loader {:?}, schema {:?}", errors, p);
        }
        let text = v.to_string();
        if !text.contains("\"matcher\":\"(\"") && !text.contains("a 'b") {
            prop_assert_eq!(validator(Dialect::Hermes).is_valid(&v), problem.is_none(), "{}", v);
        }
    }
}

#[test]
fn every_example_hook_file_loads_cleanly_and_validates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (rel, d) in [
        ("examples/project/.claude/settings.json", Dialect::Claude),
        ("examples/project/.dsh-hooks.json", Dialect::Native),
        ("examples/slow-hooks.json", Dialect::Native),
    ] {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let (hooks, diags) = parse_text(&root.join(rel), Some(d), &text);
        assert!(!hooks.is_empty() && diags.iter().all(|x| x.severity != Severity::Error), "{rel}: {diags:?}");
        assert_eq!(check_schema(d, &v), None, "{rel}");
        assert!(validator(d).is_valid(&v), "{rel}");
    }
}

/// One broken file per dialect (Kimi's TOML has its own test above): the loader names the place,
/// and the schema's problem is at it or inside it.
#[test]
fn a_broken_file_of_every_dialect_fails_where_the_loader_says() {
    let cases: &[(Dialect, &str, Value, &str)] = &[
        (
            Dialect::Claude,
            "/p/.claude/settings.json",
            json!({"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "ftp://x"}]}]}}),
            "hooks[Stop][0].hooks[0]",
        ),
        (
            Dialect::Codex,
            "/p/.codex/hooks.json",
            json!({"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": 0}]}]}}),
            "hooks[Stop][0].hooks[0]",
        ),
        (
            Dialect::Qwen,
            "/p/.qwen/settings.json",
            json!({"hooks": {"Stop": [{"hooks": [{"type": "agent", "prompt": "p"}]}]}}),
            "hooks[Stop][0].hooks[0]",
        ),
        (Dialect::Droid, "/p/.factory/hooks.json", json!({"Stop": [{"hooks": []}]}), "[Stop][0]"),
        (
            Dialect::Gemini,
            "/p/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"hooks": [{"command": "x", "timeout": -5}]}]}}),
            "hooks[BeforeTool][0].hooks[0]",
        ),
        (
            Dialect::Copilot,
            "/p/.github/hooks/a.json",
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": " "}]}}),
            "hooks[preToolUse][0]",
        ),
        (
            Dialect::Cursor,
            "/p/.cursor/hooks.json",
            json!({"version": 1, "hooks": {"stop": [{"command": "x", "loop_limit": -1}]}}),
            "hooks[stop][0]",
        ),
        (
            Dialect::Windsurf,
            "/p/.windsurf/hooks.json",
            json!({"hooks": {"pre_run_command": [{"command": 5}]}}),
            "hooks[pre_run_command][0]",
        ),
        (
            Dialect::Hermes,
            "/h/.hermes/config.yaml",
            json!({"hooks": {"pre_tool_call": [{"command": "g", "timeout": "soon"}]}}),
            "hooks[pre_tool_call][0]",
        ),
        (
            Dialect::Opencode,
            "/p/opencode.json",
            json!({"hooks": {"session.idle": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]}}),
            "hooks[session.idle][0].hooks[0]",
        ),
        (
            Dialect::Native,
            "/p/.dsh-hooks.json",
            json!({"version": 1, "events": {"turn:stop": [{"hooks": [{"type": "worker", "command": "w", "idleTimeout": 0}]}]}}),
            "events[turn:stop][0].hooks[0]",
        ),
        (
            Dialect::Agents,
            "/p/.agents/hooks.json",
            json!({"hooks": {"Stop": [{"command": "x", "timeoutMs": "5s"}]}}),
            "hooks[Stop][0]",
        ),
        (
            Dialect::Auggie,
            "/p/.augment/settings.json",
            json!({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}),
            "hooks[Stop][0].hooks[0]",
        ),
        (
            Dialect::Antigravity,
            "/p/.agent/hooks.json",
            json!({"guard": {"PreToolUse": [{"hooks": [{"command": 5}]}]}}),
            "guard[PreToolUse][0].hooks[0]",
        ),
        (
            Dialect::Kiro,
            "/p/.kiro/hooks/a.json",
            json!({"version": "v1", "hooks": [{"name": "n", "trigger": "Stop", "action": {"type": "command"}}]}),
            "hooks[0].action",
        ),
    ];
    for (d, path, v, at) in cases {
        let p = check_schema_at(*d, Path::new(path), v).flatten().unwrap_or_else(|| panic!("{d:?}: no schema problem"));
        assert!(p.at.starts_with(at), "{d:?}: schema at {:?}, expected {at:?}", p.at);
        let places = loader_errors(path, *d, v);
        assert!(places.iter().any(|l| l == at), "{d:?}: loader at {places:?}, expected {at:?}");
    }
}
