//! Callback hooks through the Rust API, with a caller standing in for the JS wrapper: the
//! Claude rules they are read and folded by, and what the caller is told when a call is given up.

use crate::common::*;
use hookrt::{CallbackCall, CallbackCaller, CallbackHooks, CallbackHost, GiveUp, Host, Runtime};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// Answers each function id with a fixed JSON text, or never (`None`); records every call and
/// every give-up.
#[derive(Default)]
struct Fake {
    answers: Vec<(u64, Option<Result<String, String>>)>,
    calls: Mutex<Vec<(u64, Value)>>,
    given_up: Mutex<Vec<GiveUp>>,
}

impl CallbackCaller for Fake {
    fn call(&self, c: CallbackCall) -> futures::future::BoxFuture<'static, Result<String, String>> {
        self.calls.lock().unwrap().push((c.id, serde_json::from_str(&c.input_json).unwrap()));
        let answer = self.answers.iter().find(|(id, _)| *id == c.id).and_then(|(_, a)| a.clone());
        Box::pin(async move {
            match answer {
                Some(a) => a,
                None => std::future::pending().await,
            }
        })
    }

    fn abort(&self, _call: u64, why: GiveUp) {
        self.given_up.lock().unwrap().push(why);
    }
}

fn runtime(p: &Project, fake: Arc<Fake>, spec: Value) -> Runtime {
    let host = Host { callbacks: Some(CallbackHost(fake)), ..Default::default() };
    let rt = Runtime::with_host(&p.options(), &|_| None, host).unwrap();
    let spec: CallbackHooks = serde_json::from_value(spec).unwrap();
    rt.add_callback_hooks(&spec).unwrap();
    rt
}

#[tokio::test]
async fn callbacks_run_first_with_claude_stdin_and_claude_first_block_rule() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "echo file >&2; exit 2"}]}]}));
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "callback"}});
    let fake = Arc::new(Fake { answers: vec![(7, Some(Ok(deny.to_string())))], ..Default::default() });
    let rt =
        runtime(&p, fake.clone(), json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"id": 7, "name": "guard"}]}]}));
    let r = rt
        .dispatch(
            req("PreToolUse", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    let r = to_json(&r);
    assert_eq!(r["outcome"]["decision"], "deny");
    // Claude Code shows the first block's reason on PreToolUse, in order: the callback's.
    assert_eq!(r["outcome"]["reason"], "callback");
    assert_eq!(r["runs"][0]["hook"]["kind"], "callback");
    assert_eq!(r["runs"][1]["hook"]["kind"], "shell");
    let calls = fake.calls.lock().unwrap();
    assert_eq!(calls[0].1["hook_event_name"], "PreToolUse");
    assert_eq!(calls[0].1["tool_input"]["command"], "ls");
}

#[tokio::test]
async fn a_call_given_up_at_its_timeout_or_abort_is_told_which() {
    let p = Project::new();
    let fake = Arc::new(Fake::default());
    let rt = runtime(&p, fake.clone(), json!({"Stop": [{"hooks": [{"id": 1, "name": "hangs"}], "timeout": 0.1}]}));
    let r = rt.dispatch(req("Stop", json!({})), &CancellationToken::new()).await.unwrap();
    assert!(r.runs[0].timed_out);
    let cancel = CancellationToken::new();
    let c = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        c.cancel();
    });
    assert!(rt.dispatch(req("Stop", json!({})), &cancel).await.is_err());
    assert_eq!(*fake.given_up.lock().unwrap(), vec![GiveUp::Timeout, GiveUp::Abort]);
}

#[tokio::test]
async fn a_throw_is_a_failure_and_removal_takes_the_hooks_out() {
    let p = Project::new();
    let fake = Arc::new(Fake { answers: vec![(3, Some(Err("kaboom".into())))], ..Default::default() });
    let host = Host { callbacks: Some(CallbackHost(fake)), ..Default::default() };
    let rt = Runtime::with_host(&p.options(), &|_| None, host).unwrap();
    let spec: CallbackHooks =
        serde_json::from_value(json!({"Stop": [{"hooks": [{"id": 3, "name": "boom"}]}]})).unwrap();
    let handle = rt.add_callback_hooks(&spec).unwrap();
    assert!(rt.any_match("Stop", None).unwrap());
    let r = rt.dispatch(req("Stop", json!({})), &CancellationToken::new()).await.unwrap();
    assert_eq!(to_json(&r)["runs"][0]["error"], "callback boom failed: kaboom");
    assert!(rt.remove_callback_hooks(handle));
    assert!(!rt.any_match("Stop", None).unwrap());
    assert!(!rt.remove_callback_hooks(handle));
}
