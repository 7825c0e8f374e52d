//! Execution history: the line a dispatch writes, rotation, a queue that fills up without
//! delaying dispatch, and a history file that cannot be opened.

use crate::common::*;
use hookrt::HistoryOptions;
use hookrt::Runtime;
use hookrt::RuntimeOptions;
use serde_json::{json, Value};

fn with_history(p: &Project, path: std::path::PathBuf, max_bytes: Option<u64>) -> Runtime {
    let opts = RuntimeOptions {
        history: Some(HistoryOptions { path, max_bytes, payloads: false, host: None }),
        ..p.options()
    };
    Runtime::with_env(&opts, &|_| None).unwrap()
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap_or_default().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[tokio::test]
async fn a_dispatch_writes_the_documented_line() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"command": "head -c 5000 /dev/zero | tr '\\0' o; echo not this >&2; exit 2"},
        {"command": "sleep 5", "timeout": 0.2},
        {"command": "echo fine"}
    ]}], "Stop": [{"hooks": [{"command": "true"}]}]}));
    let path = p.path("history.jsonl");
    let rt = with_history(&p, path.clone(), None);
    dispatch(&rt, "PreToolUse", json!({"tool_name": "Bash", "session_id": "sess-1", "tool_input": {"command": "x"}}))
        .await;
    dispatch(&rt, "PreToolUse", json!({"tool_name": "Read"})).await; // runs nothing: no line
    rt.flush_history();
    let l = lines(&path);
    assert_eq!(l.len(), 1, "{l:?}");
    let r = &l[0];
    assert!(r["ts"].as_str().unwrap().ends_with('Z'));
    assert_eq!(r["session_id"], "sess-1");
    assert_eq!((r["event"].as_str(), r["canonical"].as_str()), (Some("PreToolUse"), Some("tool:before")));
    assert_eq!((r["decision"].as_str(), r["reason"].as_str()), (Some("deny"), Some("not this")));
    assert!(r["durationMs"].as_f64().unwrap() >= 150.0);
    assert!(r.get("payload").is_none(), "payloads are off by default");
    let runs = r["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    let file = p.path("proj/.claude/settings.json").display().to_string();
    for (x, id) in runs.iter().zip(0..) {
        assert_eq!(x["id"], format!("claude:settings.json:PreToolUse:0:{id}"));
        assert_eq!(
            (x["dialect"].as_str(), x["kind"].as_str(), x["matcher"].as_str()),
            (Some("claude"), Some("shell"), Some("Bash"))
        );
        assert_eq!(x["file"], file);
        assert!(x["startMs"].is_f64() && x["durationMs"].is_f64());
        assert!(x["timedOut"].is_boolean());
    }
    assert_eq!((runs[0]["decision"].as_str(), runs[0]["exitCode"].as_i64()), (Some("deny"), Some(2)));
    assert_eq!(runs[0]["stdout"].as_str().unwrap().len(), 2048, "stdout is cut to 2 KB");
    assert_eq!(runs[0]["stderr"], "not this");
    assert_eq!((runs[1]["timedOut"].as_bool(), runs[1]["exitCode"].is_null()), (Some(true), true));
    assert_eq!(runs[1]["error"], "timed out after 0.2s");
    assert!(runs[1]["durationMs"].as_f64().unwrap() >= 150.0);
    assert_eq!((runs[2]["decision"].as_str(), runs[2]["stdout"].as_str()), (Some("none"), Some("fine")));
    assert!(runs[2].get("error").is_none());
}

#[tokio::test]
async fn the_file_rotates_at_max_bytes() {
    let p = Project::new();
    p.claude(json!({"Stop": [{"hooks": [{"command": "head -c 300 /dev/zero | tr '\\0' s"}]}]}));
    let path = p.path("h.jsonl");
    let rt = with_history(&p, path.clone(), Some(1500));
    for i in 0..8 {
        dispatch(&rt, "Stop", json!({"session_id": format!("s{i}")})).await;
    }
    rt.flush_history();
    let (now, old) = (lines(&path), lines(&hookrt::rotated_history(&path)));
    assert!(!old.is_empty() && !now.is_empty(), "{} + {}", old.len(), now.len());
    assert!(std::fs::metadata(&path).unwrap().len() <= 1500);
    // Only the last rotation is kept; what is kept is in order and whole.
    let sessions: Vec<String> = old.iter().chain(&now).map(|l| l["session_id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(sessions.last().map(String::as_str), Some("s7"));
    let (records, skipped) = hookrt::read_history(&path);
    assert_eq!((records.len(), skipped), (sessions.len(), 0));
}

#[tokio::test]
async fn a_full_queue_drops_and_counts_lines_instead_of_delaying_dispatches() {
    let p = Project::new();
    p.claude(json!({"Stop": [{"hooks": [{"command": "head -c 3000 /dev/zero | tr '\\0' q"}]}]}));
    // A disk that stops taking data: a FIFO whose reader never reads.
    let fifo = p.path("slow.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut holder = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec 3<{}; exec sleep 600", fifo.display()))
        .spawn()
        .unwrap();
    let rt = std::sync::Arc::new(with_history(&p, fifo.clone(), None));
    // Far more lines than the pipe (64 KiB) and the queue (1024) hold: every dispatch returns.
    for batch in 0..30 {
        let futs = (0..50).map(|i| {
            let rt = rt.clone();
            async move { dispatch(&rt, "Stop", json!({"session_id": format!("{batch}-{i}")})).await }
        });
        for r in futures::future::join_all(futs).await {
            assert_eq!(r.runs.len(), 1);
        }
    }
    // Now read it all: the writer catches up and says how many lines it dropped.
    let reader = std::process::Command::new("cat").arg(&fifo).stdout(std::process::Stdio::piped()).spawn().unwrap();
    dispatch(&rt, "Stop", json!({"session_id": "last"})).await;
    rt.flush_history();
    drop(rt); // the writer closes the FIFO: cat sees its end
    let out = reader.wait_with_output().unwrap();
    holder.kill().unwrap();
    holder.wait().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let dropped: u64 = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("dropped").and_then(Value::as_u64))
        .sum();
    let written = text.lines().filter(|l| l.contains("\"runs\"")).count() as u64;
    assert!(dropped > 0, "lines were dropped and counted");
    assert_eq!(written + dropped, 1501, "every dispatch is either written or counted");
}

#[tokio::test]
async fn a_history_path_that_cannot_be_opened_is_one_warning() {
    let p = Project::new();
    p.claude(json!({"Stop": [{"hooks": [{"command": "echo ran"}]}]}));
    for bad in [p.path("no/such/dir/h.jsonl"), p.path("proj")] {
        let rt = with_history(&p, bad.clone(), None);
        let loaded = rt.loaded();
        let d: Vec<_> = loaded.diagnostics.iter().filter(|d| d.message.contains("no history is written")).collect();
        assert_eq!(d.len(), 1, "{:?}", rt.loaded().diagnostics);
        let shown = bad.display().to_string();
        assert_eq!(d[0].file.as_deref(), Some(shown.as_str()));
        let r = to_json(&dispatch(&rt, "Stop", json!({})).await);
        assert_eq!(r["runs"][0]["outcome"]["stdout"], "ran");
        assert_eq!(rt.reload().iter().filter(|d| d.message.contains("no history")).count(), 1);
    }
}
