//! The crate's layers (docs/architecture.md), checked from the source: every `crate::…` and
//! `super::…` path in `src/` is an import from one file to another; imports may only point down
//! the layers (or within one), and no chain of imports may come back to where it started. The
//! napi types stay in the binding.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; a module may import its own layer and the ones below.
const LAYERS: &[&[&str]] = &[
    &["vocab"],
    &["config"],
    &["harness"],
    &["load"],
    &["contract"],
    &["handler"],
    &["runtime"],
    &["protocol", "listen", "inside", "cli", "doctor", "convert", "binding", "fuzzing"],
];

fn layer(module: &[String]) -> Option<usize> {
    let top = module.first()?;
    LAYERS.iter().position(|l| l.contains(&top.as_str()))
}

/// A file's module path (`harness/claude/mod.rs` is `harness::claude`) and whether it is a
/// `mod.rs`.
fn module_of(rel: &Path) -> (Vec<String>, bool) {
    let mut parts: Vec<String> = rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let is_mod = matches!(parts.last().map(String::as_str), Some("mod"));
    if is_mod {
        parts.pop();
    }
    (parts, is_mod)
}

/// The source with comments, string and char literals blanked and `#[cfg(test)]` modules
/// removed (tests may import anything).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 4 + e);
            i = end;
        } else if b[i] == b'"' || (b[i] == b'r' && b.get(i + 1).is_some_and(|c| *c == b'"' || *c == b'#')) {
            i = skip_string(b, i);
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    remove_test_modules(&out)
}

/// The index after a string literal starting at `i` (plain or raw).
fn skip_string(b: &[u8], mut i: usize) -> usize {
    if b[i] == b'r' {
        let mut hashes = 0;
        i += 1;
        while b.get(i) == Some(&b'#') {
            hashes += 1;
            i += 1;
        }
        i += 1;
        while i < b.len() {
            if b[i] == b'"' && b[i + 1..].iter().take(hashes).filter(|c| **c == b'#').count() == hashes {
                return i + 1 + hashes;
            }
            i += 1;
        }
        return i;
    }
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

fn remove_test_modules(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = &rest[at..];
        let Some(open) = after.find('{') else { break };
        let is_mod = after[..open].contains("mod ");
        out.push_str(&rest[..at]);
        if !is_mod {
            out.push_str("#[cfg(test)]");
            rest = &rest[at + "#[cfg(test)]".len()..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (k, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The module paths a file's code names: `crate::a::b::C`, `super::x`, and the items of
/// `use crate::a::{b, c::d}` groups.
fn referenced(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for (start, word) in [("crate::", true), ("super::", false)] {
        let mut from = 0;
        while let Some(pos) = code[from..].find(start) {
            let at = from + pos;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let mut base: Vec<String> = if word {
                Vec::new()
            } else {
                // `super` of `a/b/c.rs` (`a::b::c`) and of `a/b/c/mod.rs` alike is `a::b`.
                let mut b = module.to_vec();
                b.pop();
                b
            };
            let mut path_text = &code[from..];
            while let Some(rest) = path_text.strip_prefix("super::") {
                base.pop();
                path_text = rest;
            }
            let (segments, group) = path_segments(path_text);
            let mut prefix = base.clone();
            prefix.extend(segments);
            found.push(prefix.clone());
            for item in group {
                let mut p = prefix.clone();
                p.extend(item.split("::").map(str::trim).filter(|s| !s.is_empty() && *s != "self").map(str::to_owned));
                found.push(p);
            }
        }
    }
    found
}

/// `a::b::{c, d::e}` → (`[a, b]`, `["c", "d::e"]`).
fn path_segments(text: &str) -> (Vec<String>, Vec<String>) {
    let mut segs = Vec::new();
    let mut rest = text;
    loop {
        let n = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if n == 0 {
            break;
        }
        segs.push(rest[..n].to_owned());
        rest = &rest[n..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return (segs, Vec::new()),
        }
    }
    let group = match rest.strip_prefix('{') {
        Some(g) => g[..g.find('}').unwrap_or(g.len())]
            .split(',')
            .map(|s| s.split(" as ").next().unwrap_or("").trim().to_owned())
            .collect(),
        None => Vec::new(),
    };
    (segs, group)
}

/// The import graph of a source tree: file module → modules it imports.
fn graph(files: &BTreeMap<Vec<String>, (String, bool)>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| files.contains_key(p))
    };
    files
        .iter()
        .map(|(m, (src, _))| {
            let targets = referenced(&code_only(src), m)
                .iter()
                .filter_map(|p| resolve(p))
                .filter(|t| t != m && !m.starts_with(t.as_slice()))
                .collect();
            (m.clone(), targets)
        })
        .collect()
}

/// Every import that points up the layers, as `from -> to`.
fn upward(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let mut bad = Vec::new();
    for (from, tos) in g {
        for to in tos {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    bad.push(format!("{} -> {}", from.join("/"), to.join("/")));
                }
            }
        }
    }
    bad
}

/// One import cycle, if there is any.
fn cycle(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit<'a>(
        n: &'a Vec<String>,
        g: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<&'a Vec<String>, u8>,
        stack: &mut Vec<&'a Vec<String>>,
    ) -> Option<Vec<String>> {
        state.insert(n, 1);
        stack.push(n);
        for m in g.get(n).into_iter().flatten() {
            match state.get(m) {
                Some(1) => {
                    let from = stack.iter().position(|x| *x == m).unwrap_or(0);
                    return Some(stack[from..].iter().map(|x| x.join("/")).chain([m.join("/")]).collect());
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n, 2);
        None
    }
    let mut state = BTreeMap::new();
    g.keys().find_map(|n| if state.contains_key(n) { None } else { visit(n, g, &mut state, &mut Vec::new()) })
}

fn read_tree(root: &Path) -> BTreeMap<Vec<String>, (String, bool)> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap();
                if rel.starts_with("bin") || rel == Path::new("lib.rs") {
                    continue;
                }
                let (m, is_mod) = module_of(rel);
                files.insert(m, (std::fs::read_to_string(&p).unwrap(), is_mod));
            }
        }
    }
    files
}

#[test]
fn imports_only_point_down_the_layers_and_never_in_a_circle() {
    let files = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(files.len() > 50, "found only {} modules", files.len());
    for m in files.keys() {
        assert!(layer(m).is_some(), "{} belongs to no layer: add it to LAYERS", m.join("/"));
    }
    let g = graph(&files);
    let up = upward(&g);
    assert!(up.is_empty(), "imports pointing up the layers:\n{}", up.join("\n"));
    assert_eq!(cycle(&g), None, "an import cycle");
}

#[test]
fn napi_types_stay_in_the_binding() {
    let files = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    for (m, (src, _)) in &files {
        if m.first().map(String::as_str) != Some("binding") {
            assert!(!code_only(src).contains("napi"), "{} uses napi", m.join("/"));
        }
    }
}

/// The checker itself finds what it must: an upward import, a cycle through `super::`, and
/// ignores comments, strings and test modules.
#[test]
fn the_checker_finds_upward_imports_and_cycles() {
    let tree = |list: &[(&str, &str)]| -> BTreeMap<Vec<String>, (String, bool)> {
        list.iter()
            .map(|(path, src)| {
                let (m, is_mod) = module_of(Path::new(path));
                (m, (src.to_string(), is_mod))
            })
            .collect()
    };
    let ok = tree(&[
        ("vocab/event.rs", "// crate::runtime::X\nconst S: &str = \"crate::runtime::Y\";"),
        ("runtime/mod.rs", "use crate::vocab::event::E;"),
        ("harness/mod.rs", "#[cfg(test)]\nmod tests { use crate::runtime::Z; }"),
    ]);
    let g = graph(&ok);
    assert!(upward(&g).is_empty() && cycle(&g).is_none(), "{g:?}");
    let up = tree(&[("vocab/event.rs", "fn f() { crate::runtime::dispatch::go() }"), ("runtime/dispatch.rs", "")]);
    assert_eq!(upward(&graph(&up)), ["vocab/event -> runtime/dispatch"]);
    let circle = tree(&[
        ("harness/claude/groups.rs", "use super::handlers::parse;"),
        ("harness/claude/handlers.rs", "use crate::harness::claude::{groups::GroupRules, fields};"),
        ("harness/claude/fields.rs", ""),
    ]);
    let c = cycle(&graph(&circle)).expect("a cycle");
    assert!(
        c.contains(&"harness/claude/groups".to_owned()) && c.contains(&"harness/claude/handlers".to_owned()),
        "{c:?}"
    );
}

/// Every function of `src/` (tests aside) fits in one screen: at most 60 lines from `fn` to its
/// closing brace.
#[test]
fn no_function_is_over_sixty_lines() {
    let files = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut long = Vec::new();
    for (m, (src, _)) in &files {
        let code = code_only(src);
        let b = code.as_bytes();
        let mut from = 0;
        while let Some(pos) = code[from..].find("fn ") {
            let at = from + pos;
            from = at + 3;
            if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
                continue;
            }
            // The body starts at the first `{` outside parentheses; a `;` first means no body.
            let (mut k, mut depth) = (at, 0i32);
            while k < b.len() && !(depth == 0 && (b[k] == b'{' || b[k] == b';')) {
                depth += i32::from(b[k] == b'(' || b[k] == b'[') - i32::from(b[k] == b')' || b[k] == b']');
                k += 1;
            }
            if k >= b.len() || b[k] == b';' {
                continue;
            }
            let (mut e, mut d) = (k, 0);
            while e < b.len() {
                d += i32::from(b[e] == b'{') - i32::from(b[e] == b'}');
                if d == 0 {
                    break;
                }
                e += 1;
            }
            let lines = code[at..e].matches('\n').count() + 1;
            if lines > 60 {
                let name: String = code[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                long.push(format!("{}::{name} ({lines} lines)", m.join("/")));
            }
        }
    }
    assert!(long.is_empty(), "functions over 60 lines:\n{}", long.join("\n"));
}

/// The words of an identifier (`claude_name` → claude, name; `HostHarness` → host, harness).
fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in ident.split('_').filter(|p| !p.is_empty()) {
        let mut w = String::new();
        let cs: Vec<char> = part.chars().collect();
        for (i, c) in cs.iter().enumerate() {
            let boundary = c.is_uppercase()
                && i > 0
                && (cs[i - 1].is_lowercase() || cs.get(i + 1).is_some_and(|n| n.is_lowercase()));
            if boundary && !w.is_empty() {
                out.push(std::mem::take(&mut w));
            }
            w.extend(c.to_lowercase());
        }
        if !w.is_empty() {
            out.push(w);
        }
    }
    out
}

/// Every harness's folder, read from the registration table's rows
/// (`Variant "name" "Title" folder::Type,` in `src/vocab/harnesses.rs`).
fn harness_folders(src: &Path) -> Vec<String> {
    let table = std::fs::read_to_string(src.join("vocab/harnesses.rs")).unwrap();
    let mut folders: Vec<String> = table
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.ends_with(',') && l.matches('"').count() == 4)
        .filter_map(|l| l.rsplit('"').next()?.trim().split_once("::").map(|(f, _)| f.to_owned()))
        .collect();
    folders.sort();
    folders
}

/// The harnesses by their folders' names (hookrt's own `native` and the `.agents` files are
/// not counted: their names are ordinary words).
fn harness_names(src: &Path) -> Vec<String> {
    harness_folders(src).into_iter().filter(|n| !matches!(n.as_str(), "native" | "agents")).collect()
}

/// Where code names a harness outside its folder: `"file: harness"` pairs, each once. The
/// registration table and the converter (which writes every harness's files) may.
fn harness_names_outside(src: &Path) -> BTreeSet<String> {
    let names = harness_names(src);
    let mut found = BTreeSet::new();
    for (m, (text, _)) in read_tree(src) {
        if m.first().map(String::as_str) == Some("convert") || m == ["vocab", "harnesses"] {
            continue;
        }
        let code = code_only(&text);
        for ident in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            for w in words(ident) {
                if names.contains(&w) && !(m.len() >= 2 && m[0] == "harness" && m[1] == w) {
                    found.insert(format!("{}: {w}", m.join("/")));
                }
            }
        }
    }
    found
}

/// A harness is named only in its folder, the registration table and the converter: the
/// layers ask the harness (its descriptor or a part) instead of naming it.
#[test]
fn harness_names_stay_in_their_folders() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(harness_names(&src).len() >= 15, "{:?}", harness_names(&src));
    let found = harness_names_outside(&src);
    assert!(found.is_empty(), "code names a harness outside its folder (ask the harness instead):\n{found:#?}");
}

/// A harness folder takes what it shares with others from `harness/family/` or the layers
/// below, never from another harness's folder.
#[test]
fn no_harness_folder_imports_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let folders = harness_folders(&src);
    assert!(folders.len() >= 17, "{folders:?}");
    assert!(folders.iter().all(|f| src.join("harness").join(f).join("mod.rs").is_file()), "{folders:?}");
    let folder = |m: &[String]| (m.len() >= 2 && m[0] == "harness" && folders.contains(&m[1])).then(|| m[1].clone());
    let mut crossing = Vec::new();
    for (m, deps) in graph(&read_tree(&src)) {
        let Some(from) = folder(&m) else { continue };
        for d in deps {
            if folder(&d).is_some_and(|to| to != from) {
                crossing.push(format!("{} -> {}", m.join("/"), d.join("/")));
            }
        }
    }
    assert!(crossing.is_empty(), "harness folders importing each other:\n{}", crossing.join("\n"));
}

/// The word splitting the check relies on.
#[test]
fn identifiers_split_into_words() {
    assert_eq!(words("claude_name"), ["claude", "name"]);
    assert_eq!(words("HostHarness"), ["host", "harness"]);
    assert_eq!(words("KEYED_ENV"), ["keyed", "env"]);
    assert_eq!(words("HERMES_HOME"), ["hermes", "home"]);
    assert_eq!(words("parseJSONText"), ["parse", "json", "text"]);
}
