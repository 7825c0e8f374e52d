//! The list of harnesses, and what needs all of them at once: resolving a dispatched event
//! name, discovery order, and recognising an explicitly named file.

use crate::config::{Candidate, HomeVars, Roots};
use crate::harness::{Discovery, Harness, NameClaim};
use crate::vocab::{CanonicalEvent, Dialect, DispatchEvent, Scope, ToolResult};
use std::path::Path;

/// Builds [`HARNESSES`] from the registration table's rows.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident $name:literal $title:literal $folder:ident :: $ty:ident $($inside:ident)?,)*) => {
        /// Every harness's descriptor, in registry order (the order of [`Dialect::ALL`]).
        pub(crate) static HARNESSES: [&dyn Harness; Dialect::COUNT] = [$(&crate::harness::$folder::$ty),*];
    };
}

crate::vocab::harnesses::harness_table!(registry);

/// Every harness's folder variable read from `env` (`$CODEX_HOME`, `$HERMES_HOME`, ...).
pub(crate) fn read_homes(env: &dyn Fn(&str) -> Option<String>) -> HomeVars {
    HomeVars::read(HARNESSES.iter().filter_map(|h| h.home_dir()), env)
}

/// The dialect a file read as `d` really is: another harness's when its root has that
/// harness's shape ([`Harness::takes_over`]), else `d`.
pub(crate) fn by_shape(d: Dialect, root: &serde_json::Map<String, serde_json::Value>) -> Dialect {
    HARNESSES.iter().find(|h| h.takes_over(d, root)).map_or(d, |h| h.dialect())
}

/// The harness of a dialect.
pub(crate) fn of(d: Dialect) -> &'static dyn Harness {
    let h = HARNESSES[d as usize];
    debug_assert_eq!(h.dialect(), d, "the registry is in Dialect::ALL order");
    h
}

/// Resolves any name a host may dispatch: canonical, or any harness's spelling. A spelling
/// means the same in every harness that has it (a registry test checks).
///
/// Every dispatch looks its name up (twice when the host asks first whether a hook matches),
/// so the names are one hash lookup, built on first use.
pub(crate) fn resolve_dispatch_name(name: &str) -> Option<DispatchEvent> {
    static NAMES: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, DispatchEvent>> = std::sync::OnceLock::new();
    NAMES.get_or_init(dispatch_names).get(name).copied()
}

/// The canonical names, then each harness's spellings (the first harness with a spelling gives
/// its meaning, which is the same in all of them).
fn dispatch_names() -> rustc_hash::FxHashMap<&'static str, DispatchEvent> {
    let mut m = rustc_hash::FxHashMap::default();
    for e in CanonicalEvent::ALL {
        m.insert(e.as_str(), DispatchEvent { canonical: e, result: ToolResult::Either, class: None });
    }
    for e in HARNESSES.iter().flat_map(|h| h.events()) {
        m.entry(e.name).or_insert_with(|| e.dispatch());
    }
    m
}

/// Resolves a `hookEventName` from a hook's answer: any dialect's spelling counts.
pub(crate) fn resolve_any_name(name: &str) -> Option<CanonicalEvent> {
    resolve_dispatch_name(name).map(|d| d.canonical)
}

/// Every name a host may dispatch, each once: the canonical names, then each harness's.
pub fn all_dispatch_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = CanonicalEvent::ALL.iter().map(|e| e.as_str()).collect();
    for h in HARNESSES {
        for e in h.events() {
            if !v.contains(&e.name) {
                v.push(e.name);
            }
        }
    }
    v
}

/// The event names a dialect's files use.
pub fn event_names(d: Dialect) -> Vec<&'static str> {
    of(d).events().iter().map(|e| e.name).collect()
}

fn scope_rank(s: Scope) -> u8 {
    match s {
        Scope::Global => 0,
        Scope::Project => 1,
        _ => 2,
    }
}

/// The discovery list, in reading order: the family's global, project and local files (each
/// phase in registry order, which reads `.agents` before the native project file), then every
/// other harness's own rows.
pub(crate) fn discovery(roots: Roots) -> Vec<Candidate> {
    let mut family: Vec<(u8, Candidate)> = Vec::new();
    let mut own = Vec::new();
    for h in HARNESSES {
        match h.discovery() {
            Discovery::Family => family.extend(h.files(roots).into_iter().map(|c| (scope_rank(c.scope), c))),
            Discovery::Own => own.extend(h.files(roots)),
        }
    }
    family.sort_by_key(|(rank, _)| *rank);
    family.into_iter().map(|(_, c)| c).chain(own).collect()
}

/// Recognises the dialect of an explicitly named file from where it lives and what it holds
/// (not from the base name alone: any `hooks.json` may be native, codex or claude).
pub(crate) fn recognise(path: &Path, root: Option<&serde_json::Value>) -> Dialect {
    use Dialect::*;
    let obj = root.and_then(|r| r.as_object());
    if obj.is_some_and(|o| o.get("events").is_some_and(|e| e.is_object())) {
        return Native;
    }
    // Where the file lives: every harness's own folder or file name first, then the rules
    // that take names other harnesses' files share.
    let mut by_path: Vec<&dyn Harness> = HARNESSES.to_vec();
    by_path.sort_by_key(|h| h.path_fallback()); // stable: `None` first, in the table's order
    if let Some(h) = by_path.into_iter().find(|h| h.owns_path(path)) {
        return h.dialect();
    }
    let Some(hooks) = obj.and_then(|o| o.get("hooks")).and_then(|h| h.as_object()) else { return Dialect::CANONICAL };
    let keys: Vec<&str> = hooks.keys().map(String::as_str).collect();
    // Content: each harness's own event names, then names of a harness's shape.
    let mut claims: Vec<(NameClaim, Dialect)> =
        HARNESSES.iter().filter_map(|h| h.owns_event_names(&keys).map(|c| (c, h.dialect()))).collect();
    claims.sort_by_key(|(c, _)| *c);
    claims.first().map_or(Dialect::CANONICAL, |(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A harness whose rules changed between releases documents each change on its page, from
    /// the descriptor's data.
    #[test]
    fn each_harness_page_has_its_changed_in_table() {
        for h in HARNESSES {
            let Some(r) = h.descriptor().releases else { continue };
            let page = format!("{}/docs/harnesses/{}.md", env!("CARGO_MANIFEST_DIR"), h.dialect().as_str());
            let text = std::fs::read_to_string(&page).unwrap_or_default();
            let table = r.table();
            assert!(text.contains("## Changed in"), "{page} has no \"## Changed in\" section");
            assert!(text.contains(&table), "{page}'s \"Changed in\" table is not:\n{table}");
        }
    }

    #[test]
    fn a_spelling_means_the_same_in_every_harness_and_in_dispatch() {
        for h in HARNESSES {
            assert_eq!(of(h.dialect()).dialect(), h.dialect());
            for e in h.events() {
                let r = resolve_dispatch_name(e.name).unwrap_or_else(|| panic!("{} does not resolve", e.name));
                assert_eq!(r.canonical, e.canonical, "{} in {:?}", e.name, h.dialect());
                if e.class.is_some() {
                    assert_eq!(r.class, e.class, "{}", e.name);
                }
            }
        }
        let names = all_dispatch_names();
        let unique: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(names.contains(&"PermissionRequest") && names.contains(&"Interrupt"));
        assert_eq!(resolve_any_name("Bogus"), None);
        assert_eq!(resolve_any_name("pretooluse"), None);
    }

    #[test]
    fn after_tool_refinement() {
        let s = resolve_dispatch_name("PostToolUse").unwrap();
        let f = resolve_dispatch_name("PostToolUseFailure").unwrap();
        let e = resolve_dispatch_name("tool.execute.after").unwrap();
        assert_eq!((s.result, f.result, e.result), (ToolResult::Success, ToolResult::Failure, ToolResult::Either));
    }

    #[test]
    fn order_is_global_then_project_then_local() {
        let l = discovery(Roots {
            home: Path::new("/h"),
            cwd: Path::new("/p"),
            system: Path::new("/etc"),
            homes: &HomeVars::default(),
        });
        assert_eq!(l.first().unwrap().path, Path::new("/h/.claude/settings.json"));
        let local = l.iter().position(|c| c.path == Path::new("/p/.claude/settings.local.json")).unwrap();
        assert!(l[..local].iter().all(|c| c.dialect != Some(Dialect::Gemini)));
        assert_eq!(l[local].scope, Scope::Local);
    }

    #[test]
    fn a_file_of_another_harness_s_shape_is_that_harness_s() {
        let named = json!({"guard": {"PreToolUse": [{"command": "x"}]}});
        let lists = json!({"PreToolUse": [{"command": "x"}]});
        let (named, lists) = (named.as_object().unwrap(), lists.as_object().unwrap());
        assert_eq!(by_shape(Dialect::Agents, named), Dialect::Antigravity);
        assert_eq!(by_shape(Dialect::Agents, lists), Dialect::Agents);
        // Only a file found where `.agents` files live is taken over.
        assert_eq!(by_shape(Dialect::Claude, named), Dialect::Claude);
    }

    #[test]
    fn recognition_looks_at_content_and_location() {
        let native = json!({"version":1,"events":{}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&native)), Dialect::Native);
        assert_eq!(recognise(Path::new("/x/.codex/hooks.json"), Some(&json!({"hooks":{}}))), Dialect::Codex);
        assert_eq!(
            recognise(Path::new("/x/hooks.json"), Some(&json!({"hooks":{"tool.execute.before":[]}}))),
            Dialect::Opencode
        );
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&json!({"hooks":{"PreToolUse":[]}}))), Dialect::Claude);
        assert_eq!(recognise(Path::new("/x/.claude/settings.local.json"), None), Dialect::Claude);
        assert_eq!(recognise(Path::new("/x/.gemini/settings.json"), None), Dialect::Gemini);
        assert_eq!(recognise(Path::new("/x/.github/hooks/a.json"), None), Dialect::Copilot);
        assert_eq!(recognise(Path::new("/x/.windsurf/hooks.json"), None), Dialect::Windsurf);
        let cursor = json!({"version": 1, "hooks": {"beforeShellExecution": []}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&cursor)), Dialect::Cursor);
        let gemini = json!({"hooks": {"BeforeTool": []}});
        assert_eq!(recognise(Path::new("/x/hooks.json"), Some(&gemini)), Dialect::Gemini);
    }
}

#[cfg(test)]
mod stdin_tests {
    use super::of;
    use crate::harness::PayloadCtx;
    use crate::vocab::text::Stamp;
    use crate::vocab::{CanonicalEvent, Dialect};
    use serde_json::{json, Map, Value};

    fn input(d: Dialect, spelling: &str, host: Value) -> Map<String, Value> {
        let host = host.as_object().cloned().unwrap_or_default();
        let session = Default::default();
        let ctx = PayloadCtx {
            host: &host,
            canonical: CanonicalEvent::ToolBefore,
            spelling,
            cwd: "/w",
            model: Some("m1"),
            turn_id: None,
            ts: &Stamp::fixed("T", 1),
            loop_count: 0,
            session: &session,
        };
        of(d).input(&ctx)
    }

    /// A stdin written straight to text is the map's text, field for field and in order, for
    /// every harness that writes one: host keys under aliases, nulls, nested values, keys the
    /// base fields also write, keys a harness drops.
    #[test]
    fn stdin_text_is_the_map_written() {
        let hosts = [
            json!({}),
            json!({"sessionId":"s2","transcript_path":null,"tool_name":"Bash","tool_input":{"command":"ls","z":[1,{"a":null}]},"cwd":"/p","model":"x","turn_id":"t","extra":"é\n\"q\""}),
            json!({"session_id":"s","hook_event_name":"tool:before","permission_mode":"plan","prompt_id":"p1","tool_use_id":"toolu_1","n":1.5}),
        ];
        let events = [
            (CanonicalEvent::ToolBefore, "PreToolUse"),
            (CanonicalEvent::SessionStart, "SessionStart"),
            (CanonicalEvent::MessageDisplay, "MessageDisplay"),
        ];
        let mut written = 0;
        for d in Dialect::ALL.iter().copied() {
            for host in &hosts {
                for (canonical, spelling) in events {
                    let host = host.as_object().cloned().unwrap_or_default();
                    let session = crate::harness::SessionFacts { prompt_id: Some("p0".into()), ..Default::default() };
                    let ctx = PayloadCtx {
                        host: &host,
                        canonical,
                        spelling,
                        cwd: "/w",
                        model: Some("m1"),
                        turn_id: Some("t1"),
                        ts: &Stamp::fixed("T", 1),
                        loop_count: 0,
                        session: &session,
                    };
                    if let Some(text) = of(d).input_text(&ctx) {
                        assert_eq!(
                            text,
                            serde_json::to_string(&of(d).input(&ctx)).unwrap(),
                            "{d:?} {spelling} {host:?}"
                        );
                        written += 1;
                    }
                }
            }
        }
        assert!(written >= 9, "Claude Code's stdin is written straight to text");
    }

    #[test]
    fn claude_fills_base_fields_and_replaces_event_name() {
        let m = input(
            Dialect::Claude,
            "PreToolUse",
            json!({"session_id":"s","tool_name":"Bash","hook_event_name":"tool:before"}),
        );
        assert_eq!((&m["session_id"], &m["transcript_path"], &m["cwd"]), (&json!("s"), &json!(""), &json!("/w")));
        assert_eq!((&m["permission_mode"], &m["hook_event_name"]), (&json!("default"), &json!("PreToolUse")));
        assert!(!m.contains_key("model") && of(Dialect::Claude).stdin_newline());
    }

    #[test]
    fn codex_gets_null_transcript_model_and_no_newline() {
        let m = input(Dialect::Codex, "PreToolUse", json!({}));
        assert_eq!((&m["transcript_path"], &m["model"]), (&Value::Null, &json!("m1")));
        assert!(!of(Dialect::Codex).stdin_newline());
    }

    #[test]
    fn native_envelope_and_hermes_shape() {
        let m = input(Dialect::Native, "tool:before", json!({"tool_name":"Bash"}));
        assert_eq!((&m["event"], &m["ts"], &m["tool_name"]), (&json!("tool:before"), &json!("T"), &json!("Bash")));
        assert!(!m.contains_key("permission_mode"));
        let m = input(Dialect::Hermes, "pre_tool_call", json!({"tool_name":"Bash","tool_input":{"c":1},"other":2}));
        assert_eq!(
            (&m["hook_event_name"], &m["tool_name"], &m["cwd"]),
            (&json!("pre_tool_call"), &json!("terminal"), &json!("/w"))
        );
        assert_eq!(m["extra"], json!({"other": 2, "telemetry_schema_version": "hermes.observer.v1"}));
    }
}
