//! Replays the committed corpora of the cargo-fuzz targets (`fuzz/corpus/<target>/`) through the
//! same entry points on stable Rust, so every input the fuzzer kept stays a test; the crashes
//! it found are named tests below (`cargo fuzz cmin` keeps inputs by coverage, not by history).

use hookrt::fuzzing::TARGETS;
use std::path::Path;

/// Every committed input: the corpora are minimized by coverage (`cargo fuzz cmin` with
/// `-use_counters=0`, docs/testing.md), small enough to replay whole in every run.
#[test]
fn every_committed_corpus_input_replays_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (name, target) in TARGETS {
        let dir = root.join(name);
        let mut n = 0;
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let data = std::fs::read(&path).unwrap();
            let result = std::panic::catch_unwind(|| target(&data));
            assert!(result.is_ok(), "{name}: {} panics", path.display());
            n += 1;
        }
        assert!(n > 0, "{name} has no corpus");
    }
}

/// The fuzzers' findings as named inputs, so they stay tests whatever `cargo fuzz cmin` keeps
/// in the corpora.
mod findings {
    use hookrt::CanonicalEvent;
    use hookrt::Dialect;
    use hookrt::{decode, Decision, Raw};
    use hookrt::{IfCall as Call, IfRule as Rule};
    use std::path::Path;

    /// `protocol`: the listen fast path answered lines the full decoder refuses, so the two
    /// paths disagreed. Such lines now take the full path, which refuses them.
    #[test]
    fn listen_fast_path_leaves_lines_the_full_decoder_refuses() {
        for line in [
            r#"{"op":"dispatch","event":"Stop","payload":{"note":"\uD800"}}"#,
            r#"{"op":"dispatch","event":"Stop","payload":{"n":2e22222}}"#,
            r#"{"op":"ping","extra":[1E+99999]}"#,
        ] {
            assert!(hookrt::parse_line(line.as_bytes()).request.is_err(), "{line}");
            assert_eq!(hookrt::quick_answer(line, |_, _| false), None, "{line}");
            hookrt::fuzzing::protocol(line.as_bytes());
        }
        // An ordinary escape and an in-range exponent are still fine for both paths.
        let line = r#"{"op":"dispatch","event":"Stop","payload":{"note":"\u00e9","n":1e3}}"#;
        assert!(hookrt::parse_line(line.as_bytes()).request.is_ok());
    }

    /// `decoder`: a Copilot `permissionRequest` hook exiting 2 without a message denied with no
    /// reason at all.
    #[test]
    fn copilot_permission_request_exit_2_denies_with_a_reason() {
        let raw = Raw { exit_code: Some(2), stdout: String::new(), stderr: String::new(), truncated: false };
        let o = decode(raw, CanonicalEvent::PermissionRequest, Dialect::Copilot);
        assert_eq!(o.decision, Some(Decision::Deny));
        assert_eq!(o.reason.as_deref(), Some("blocked by hook"));
    }

    /// `config`: a Hermes `config.yaml` of `-` is a list; serde fills a struct from a list, so
    /// the schema's type took it while the loader refuses any root but a mapping. File types
    /// now read structs from objects only.
    #[test]
    fn a_list_is_never_read_as_a_file_type() {
        for (path, d, text) in [
            ("/h/.hermes/config.yaml", Dialect::Hermes, "-"),
            ("/p/.windsurf/hooks.json", Dialect::Windsurf, r#"{"hooks": {"pre_run_command": [["./g.sh"]]}}"#),
            ("/p/.claude/settings.json", Dialect::Claude, r#"{"hooks": {"Stop": [["", [{"command": "x"}]]]}}"#),
        ] {
            let (_, diags) = hookrt::parse_text(Path::new(path), Some(d), text);
            assert!(diags.iter().any(|x| x.severity == hookrt::Severity::Error), "{path}: {diags:?}");
            let root: serde_json::Value = if path.ends_with(".yaml") {
                serde_saphyr::from_str(text).unwrap()
            } else {
                serde_json::from_str(text).unwrap()
            };
            assert!(hookrt::check_schema(d, &root).is_some(), "{path}");
        }
        hookrt::fuzzing::config(b"c-");
    }

    /// `permission_rule`: brush-parser 0.4 panics on a redirection whose file descriptor number
    /// does not fit; such a command is never handed to it.
    #[test]
    fn a_huge_redirection_fd_never_reaches_the_shell_parser() {
        let panics = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = panics.clone();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |_| {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }));
        let rule = Rule::parse("Bash(rm *)").unwrap();
        let mut input = serde_json::Map::new();
        input.insert("command".into(), "rm x; echo 111111111111<x".into());
        let call =
            Call { tool_name: "Bash", tool_input: Some(&input), project_dir: Path::new("/p"), home: Path::new("/h") };
        let _ = rule.matches(&call);
        std::panic::set_hook(previous);
        assert_eq!(panics.load(std::sync::atomic::Ordering::SeqCst), 0, "the shell parser panicked");
    }
}
