//! The public TypeScript types in `wrapper.d.ts` held against the JSON Schemas generated from
//! the Rust types that write (or, for `RuntimeOptions`, read) those shapes: every interface's
//! properties, which of them are optional, their rough type, and the properties of inline object
//! types. A field added on one side fails here until the other side has it.

use hookrt::{CanonicalEvent, Decision};
use serde_json::Value;
use std::collections::BTreeMap;

fn dts() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/wrapper.d.ts")).unwrap()
}

/// One TypeScript property: optional or not, and its type as written.
#[derive(Debug, Clone, PartialEq)]
struct Prop {
    optional: bool,
    ty: String,
}

/// `name?: type` pairs of an object type's body (`a?: T; b: U` or one per line), skipping
/// comments; nested braces stay in the type.
fn props_of_body(body: &str) -> BTreeMap<String, Prop> {
    let mut out = BTreeMap::new();
    let mut depth = 0;
    let mut item = String::new();
    let mut flush = |item: &mut String| {
        let text = item.trim();
        if let Some((name, ty)) = text.split_once(':') {
            let name = name.trim();
            let (name, optional) = match name.strip_suffix('?') {
                Some(n) => (n, true),
                None => (name, false),
            };
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()) {
                out.insert(name.to_owned(), Prop { optional, ty: ty.trim().to_owned() });
            }
        }
        item.clear();
    };
    for line in
        body.lines().map(str::trim).filter(|l| !(l.starts_with("/*") || l.starts_with('*') || l.starts_with("//")))
    {
        let mut prev = ' ';
        for c in line.chars() {
            match c {
                '{' | '(' | '<' | '[' => depth += 1,
                // The `>` of an arrow (`=>`) closes nothing.
                '>' if prev == '=' => {}
                '}' | ')' | '>' | ']' => depth -= 1,
                _ => {}
            }
            prev = c;
            if c == ';' && depth == 0 {
                flush(&mut item);
            } else {
                item.push(c);
            }
        }
        if depth == 0 {
            flush(&mut item);
        } else {
            item.push(' ');
        }
    }
    out
}

/// The properties of `export interface <name> … { … }`, with those of interfaces it extends.
fn interface(src: &str, name: &str) -> BTreeMap<String, Prop> {
    let start = src.find(&format!("export interface {name} ")).unwrap_or_else(|| panic!("no interface {name}"));
    let open = start + src[start..].find('{').unwrap();
    let close = open + src[open..].find("\n}").unwrap();
    let mut props = props_of_body(&src[open + 1..close]);
    if let Some(ext) = src[start..open].split(" extends ").nth(1) {
        for e in ext.split(',') {
            props.extend(interface(src, e.trim()));
        }
    }
    props
}

/// The coarse kind of a TypeScript type: string, number, boolean, array, object or any.
fn ts_kind(ty: &str) -> &'static str {
    let ty = ty.trim();
    let aliases = ["Dialect", "HandlerKind", "Decision", "CanonicalEvent", "OnError", "Exclude<Decision"];
    if ty.ends_with("[]") {
        "array"
    } else if ty.starts_with('\'') || ty == "string" || aliases.iter().any(|a| ty.starts_with(a)) {
        "string"
    } else if ty.starts_with("number") {
        "number"
    } else if ty == "boolean" || ty == "true" {
        "boolean"
    } else if ty.starts_with('{')
        || ty.starts_with("Record<")
        || ty.starts_with("HookRef")
        || ty.starts_with("RunOutcome")
        || ty.starts_with("Outcome")
    {
        "object"
    } else {
        "any"
    }
}

/// The coarse kind a JSON Schema allows (ignoring `null`), or `any`.
fn schema_kind(s: &Value) -> &'static str {
    let kinds: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
        _ => {
            let alts = s.get("oneOf").or_else(|| s.get("anyOf")).and_then(Value::as_array);
            let kinds: Vec<&'static str> =
                alts.into_iter().flatten().map(schema_kind).filter(|k| *k != "null").collect();
            return match kinds.first() {
                Some(k) if kinds.iter().all(|x| x == k) => k,
                _ => "any",
            };
        }
    };
    match kinds.as_slice() {
        ["string"] => "string",
        ["integer"] | ["number"] => "number",
        ["boolean"] => "boolean",
        ["array"] => "array",
        ["object"] => "object",
        ["null"] => "null",
        _ => "any",
    }
}

/// Properties and required names of an object schema (an `anyOf`/`oneOf` of one object and
/// `null` counts as that object).
fn schema_object(s: &Value) -> Option<(BTreeMap<String, Value>, Vec<String>)> {
    if let Some(p) = s.get("properties").and_then(Value::as_object) {
        let required = s.get("required").and_then(Value::as_array).into_iter().flatten();
        return Some((
            p.clone().into_iter().collect(),
            required.filter_map(Value::as_str).map(str::to_owned).collect(),
        ));
    }
    let alts = s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array)?;
    alts.iter().find_map(schema_object)
}

/// Compares an object type's TypeScript properties with its schema; `js_only` are properties
/// the JavaScript wrapper takes before anything reaches Rust.
fn compare(at: &str, ts: &BTreeMap<String, Prop>, schema: &Value, js_only: &[&str], problems: &mut Vec<String>) {
    let Some((props, required)) = schema_object(schema) else {
        problems.push(format!("{at}: the Rust side is not an object"));
        return;
    };
    for name in props.keys().filter(|n| !ts.contains_key(*n)) {
        problems.push(format!("{at}.{name}: in Rust, missing from wrapper.d.ts"));
    }
    for (name, p) in ts {
        let Some(s) = props.get(name) else {
            if !js_only.contains(&name.as_str()) {
                problems.push(format!("{at}.{name}: in wrapper.d.ts, not in Rust"));
            }
            continue;
        };
        if p.optional == required.contains(name) {
            let (ts_says, rust) =
                if p.optional { ("optional", "always written") } else { ("always present", "optional") };
            problems.push(format!("{at}.{name}: {ts_says} in wrapper.d.ts but {rust} in Rust"));
        }
        let (tk, sk) = (ts_kind(&p.ty), schema_kind(s));
        if tk != "any" && sk != "any" && tk != sk {
            problems.push(format!("{at}.{name}: {tk} in wrapper.d.ts but {sk} in Rust"));
        }
        let inner = p.ty.trim_end_matches("[]").trim();
        if let (Some(body), true) = (inner.strip_prefix('{').and_then(|b| b.strip_suffix('}')), tk != "any") {
            let nested = if tk == "array" { s.get("items").cloned().unwrap_or(Value::Null) } else { s.clone() };
            if schema_object(&nested).is_some() {
                compare(&format!("{at}.{name}"), &props_of_body(body), &nested, &[], problems);
            }
        }
    }
}

#[test]
fn every_interface_matches_its_rust_type() {
    let src = dts();
    let schemas = hookrt::wire_schemas();
    let mut problems = Vec::new();
    for (name, schema) in &schemas {
        // `mcpCall` and `hooks` hold functions the wrapper turns into callbacks; they never
        // reach Rust as data.
        let js_only: &[&str] = if name == "RuntimeOptions" { &["mcpCall", "hooks"] } else { &[] };
        compare(name, &interface(&src, name), schema, js_only, &mut problems);
    }
    let checked: Vec<&str> = schemas.keys().map(String::as_str).collect();
    // The interfaces no Rust type writes: the host's own answer, the options of one call, and
    // its callback hooks (functions; the wrapper hands Rust ids in their place).
    let host_side = ["McpResult", "DispatchOptions", "HookCallbackMatcher", "CallbackHooksHandle"];
    for decl in src.match_indices("export interface ").map(|(i, _)| &src[i + 17..]) {
        let name: String = decl.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        assert!(
            checked.contains(&name.as_str()) || host_side.contains(&name.as_str()),
            "interface {name} is not checked"
        );
    }
    assert!(problems.is_empty(), "wrapper.d.ts and the Rust types differ:\n{}", problems.join("\n"));
}

#[test]
fn the_check_notices_a_missing_an_extra_and_a_wrongly_optional_field() {
    let schema: Value = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    let ts = props_of_body("a?: string\nc: number");
    let mut problems = Vec::new();
    compare("X", &ts, &schema, &[], &mut problems);
    assert_eq!(
        problems,
        [
            "X.b: in Rust, missing from wrapper.d.ts",
            "X.a: optional in wrapper.d.ts but always written in Rust",
            "X.c: in wrapper.d.ts, not in Rust"
        ]
    );
}

#[test]
fn every_event_name_and_decision_is_in_the_unions() {
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
