//! `hookrt convert`: units, event and tool names, warnings for what a target cannot say, and
//! round trips Claude → X → Claude keeping every hook X can express.

use hookrt::{convert_file, Format};
use serde_json::{json, Value};
use std::path::PathBuf;

fn write(dir: &tempfile::TempDir, rel: &str, text: &str) -> PathBuf {
    let p = dir.path().join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn fmt(s: &str) -> Format {
    Format::parse(s).unwrap()
}

/// `(event, matcher, command, timeout seconds)` of every hook in a Claude file.
fn claude_hooks(text: &str) -> Vec<(String, Option<String>, String, Option<f64>)> {
    let v: Value = serde_json::from_str(text).unwrap();
    let mut out = Vec::new();
    for (event, groups) in v["hooks"].as_object().unwrap() {
        for g in groups.as_array().unwrap() {
            for h in g["hooks"].as_array().unwrap() {
                out.push((
                    event.clone(),
                    g.get("matcher").and_then(Value::as_str).map(str::to_owned),
                    h["command"].as_str().unwrap().to_owned(),
                    h.get("timeout").and_then(Value::as_f64),
                ));
            }
        }
    }
    out.sort_by(|a, b| a.2.cmp(&b.2));
    out
}

const CLAUDE: &str = r#"{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard-shell.sh", "timeout": 5}]},
    {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "guard-write.sh", "timeout": 2.5}]}
  ],
  "PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "after-read.sh", "timeout": 7}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "prompt.sh", "timeout": 3}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "stop.sh", "timeout": 9}]}],
  "WorktreeCreate": [{"hooks": [{"type": "command", "command": "worktree.sh", "timeout": 4}]}]
}}"#;

#[test]
fn claude_seconds_become_gemini_milliseconds_and_tool_names_are_renamed() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "in/settings.json", CLAUDE);
    let c = convert_file(&src, fmt("claude"), fmt("gemini"));
    let v: Value = serde_json::from_str(&c.text).unwrap();
    let before = &v["hooks"]["BeforeTool"];
    assert_eq!(before[0]["matcher"], "run_shell_command");
    assert_eq!(before[0]["hooks"][0]["timeout"], 5000);
    assert_eq!(before[1]["matcher"], "write_file|replace");
    assert_eq!(before[1]["hooks"][0]["timeout"], 2500);
    assert_eq!(v["hooks"]["AfterTool"][0]["matcher"], "read_file");
    assert_eq!(v["hooks"]["BeforeAgent"][0]["hooks"][0]["command"], "prompt.sh");
    assert_eq!(v["hooks"]["AfterAgent"][0]["hooks"][0]["command"], "stop.sh");
    assert_eq!((c.read, c.converted), (6, 5));
    assert!(c.warnings.iter().any(|w| w.contains("gemini has no worktree:create event")), "{:?}", c.warnings);
}

#[test]
fn round_trips_keep_every_hook_the_middle_format_can_express() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "in/settings.json", CLAUDE);
    let original = claude_hooks(CLAUDE);
    // What each format cannot express (commands lost on the way).
    let cases: &[(&str, &str, &[&str])] = &[
        ("gemini", "settings.json", &["worktree.sh"]),
        ("cursor", "hooks.json", &["worktree.sh"]),
        ("copilot", "hooks.json", &["worktree.sh"]),
        ("windsurf", "hooks.json", &["worktree.sh", "stop.sh"]),
        ("codex", "hooks.json", &["worktree.sh"]),
        ("codex-toml", "config.toml", &["worktree.sh"]),
        ("opencode", "opencode.json", &["worktree.sh"]),
        ("native", "hooks.json", &[]),
    ];
    for (to, name, lost) in cases {
        let there = convert_file(&src, fmt("claude"), fmt(to));
        assert!(there.converted > 0, "{to}: {:?}", there.warnings);
        let mid = write(&dir, &format!("{to}/{name}"), &there.text);
        let back = convert_file(&mid, fmt(to), fmt("claude"));
        let got = claude_hooks(&back.text);
        let mut want: Vec<_> = original.iter().filter(|h| !lost.contains(&h.2.as_str())).cloned().collect();
        if *to == "windsurf" {
            // Windsurf hooks every file write at once: the matcher widens (with a warning).
            want.iter_mut()
                .filter(|h| h.2 == "guard-write.sh")
                .for_each(|h| h.1 = Some("Write|Edit|MultiEdit|NotebookEdit".into()));
            assert!(there.warnings.iter().any(|w| w.contains("widened")), "{:?}", there.warnings);
        }
        let strip_timeout = |v: &[(String, Option<String>, String, Option<f64>)], keep: bool| -> Vec<_> {
            v.iter().map(|(e, m, c, t)| (e.clone(), m.clone(), c.clone(), if keep { *t } else { None })).collect()
        };
        // Windsurf has no timeouts; everything else keeps them exactly.
        let keep_t = *to != "windsurf";
        assert_eq!(
            strip_timeout(&got, keep_t),
            strip_timeout(&want, keep_t),
            "{to}:\n{}\n{:?}",
            there.text,
            back.warnings
        );
    }
}

#[test]
fn cursor_and_windsurf_class_events_become_matchers_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        &dir,
        ".cursor/hooks.json",
        &json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": "shell.sh", "timeout": 4, "failClosed": true}],
            "afterFileEdit": [{"command": "fmt.sh"}],
            "preToolUse": [{"matcher": "Grep", "command": "grep.sh"}]
        }})
        .to_string(),
    );
    let c = convert_file(&src, fmt("cursor"), fmt("claude"));
    let v: Value = serde_json::from_str(&c.text).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"][0]["matcher"], "Bash");
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["failClosed"], true);
    assert_eq!(v["hooks"]["PostToolUse"][0]["matcher"], "Write|Edit|MultiEdit|NotebookEdit");
    let w = convert_file(&src, fmt("cursor"), fmt("windsurf"));
    let v: Value = serde_json::from_str(&w.text).unwrap();
    assert_eq!(v["hooks"]["pre_run_command"][0]["command"], "shell.sh");
    assert_eq!(v["hooks"]["post_write_code"][0]["command"], "fmt.sh");
    assert!(v["hooks"].get("pre_read_code").is_none());
    assert!(w.warnings.iter().any(|x| x.contains("Windsurf hooks only shell")), "{:?}", w.warnings);
    assert!(w.warnings.iter().any(|x| x.contains("failClosed cannot be expressed")), "{:?}", w.warnings);
}

#[test]
fn the_command_prints_warnings_and_fails_when_nothing_converts() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "in/settings.json", r#"{"hooks": {"WorktreeCreate": [{"hooks": [{"command": "w.sh"}]}]}}"#);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let run = |args: &[&str]| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let argv = args.iter().map(|s| s.to_string()).collect();
        let code = rt.block_on(hookrt::cli::run(
            argv,
            tokio_util::sync::CancellationToken::new(),
            hookrt::cli::Io { out: &mut out, err: &mut err },
        ));
        (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
    };
    let (code, out, err) = run(&["convert", "--from", "claude", "--to", "cursor", src.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("cursor has no worktree:create event") && err.contains("nothing could be converted"), "{err}");
    let src = write(&dir, "in2/settings.json", CLAUDE);
    let (code, out, err) = run(&["convert", "--from", "claude", "--to", "copilot", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["hooks"]["preToolUse"][0]["matcher"], "bash");
    assert_eq!(v["hooks"]["preToolUse"][0]["bash"], "guard-shell.sh");
    assert_eq!(v["hooks"]["preToolUse"][0]["timeoutSec"], 5);
    assert!(err.contains("warning:"), "{err}");
    let (code, _, err) = run(&["convert", "--from", "klaude", "--to", "cursor", "x"]);
    assert_eq!(code, 1);
    assert!(err.contains("--from and --to take one of"), "{err}");
}
