//! Qwen Code's own hook-engine rules (QwenLM/qwen-code `packages/core/src/hooks/`, read in the
//! 0.24.4 bundle the kit installs): how one hook's exit code and output are read, each case
//! naming its upstream code.

use hookrt::{decode, CanonicalEvent, Decision, Dialect, Raw};
use serde_json::json;

fn run(code: i32, stdout: &str, stderr: &str) -> hookrt::RunOutcome {
    let raw = Raw { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), truncated: false };
    decode(raw, CanonicalEvent::ToolBefore, Dialect::Qwen)
}

/// `hookRunner.ts` `executeCommandHook`: on exit 2 the text to parse is stderr alone; a JSON
/// object there is the hook's output, read like stdout's on exit 0.
#[test]
fn exit_two_with_a_json_object_on_stderr_is_the_answer() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "json on stderr"}});
    let o = run(2, "", &deny.to_string());
    assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("json on stderr")));
    // a JSON string holding the object is parsed twice
    let o = run(2, "", &serde_json::to_string(&deny.to_string()).unwrap());
    assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("json on stderr")));
}

/// The same object without a decision decides nothing: Qwen's aggregator reads the output, not
/// the exit code (recorded in the kit's S14: the tool runs).
#[test]
fn exit_two_with_a_json_note_on_stderr_blocks_nothing() {
    let o = run(2, "", r#"{"systemMessage":"note"}"#);
    assert_ne!(o.decision, Some(Decision::Deny));
    assert_eq!(o.messages, ["note"]);
}

/// `convertPlainTextToHookOutput` with exit 2: plain stderr is a deny with that text.
#[test]
fn exit_two_with_plain_stderr_denies_with_it() {
    let o = run(2, "ignored stdout", "  no way \n");
    assert_eq!((o.decision, o.reason.as_deref()), (Some(Decision::Deny), Some("no way")));
}

/// `textToParse` empty on exit 2: no output, so nothing is decided (recorded in the kit's S12).
#[test]
fn exit_two_with_an_empty_stderr_decides_nothing() {
    let o = run(2, "{\"decision\":\"deny\"}", "");
    assert_eq!(o.decision, None);
}
