//! Callback hooks through the Rust API, with a caller standing in for the JS wrapper: the
//! Claude rules they are read and folded by, and what the caller is told when a call is given up.

use crate::common::*;
use hookrt::{
    CallbackAnswer, CallbackCall, CallbackCaller, CallbackHooks, CallbackHost, Concurrency, DispatchError,
    DispatchRequest, GiveUp, Host, Runtime, RuntimeOptions, Started,
};
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
async fn callbacks_run_first_with_claude_stdin_and_claude_last_answer_rule() {
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
    // Claude Code shows the reason of the deny that answered last on PreToolUse: the file
    // hook's process answers after the callback, listed first.
    assert_eq!(r["outcome"]["reason"], "file");
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

/// A host round with the answers the fake would give, for comparing with a dispatch that
/// runs the same callbacks itself.
fn round_of(rt: &Runtime, event: &str, payload: Value) -> hookrt::HostRound {
    match rt.start(req(event, payload), &CancellationToken::new()).unwrap() {
        Started::Round(r) => r,
        Started::Done(_) => panic!("nothing planned"),
        Started::Planned(_) => panic!("planned to run natively"),
    }
}

#[tokio::test]
async fn callbacks_alone_are_a_host_round_read_and_folded_like_the_runs_they_replace() {
    let p = Project::new();
    let block = json!({"decision": "block", "reason": "not yet"}).to_string();
    let fake = Arc::new(Fake {
        answers: vec![(1, Some(Ok(block.clone()))), (2, None), (3, Some(Err("kaboom".into())))],
        ..Default::default()
    });
    let spec = json!({"Stop": [
        {"hooks": [{"id": 1, "name": "judge"}]},
        {"hooks": [{"id": 2, "name": "hangs"}], "timeout": 0.25},
        {"hooks": [{"id": 3, "name": "boom"}]},
    ]});
    let rt = runtime(&p, fake.clone(), spec);
    let native = rt.dispatch(req("Stop", json!({"session_id": "s1"})), &CancellationToken::new()).await.unwrap();

    // Another session: the first one's block makes its next Stop a continuing one.
    let round = round_of(&rt, "Stop", json!({"session_id": "s2"}));
    let ids: Vec<u64> = round.calls.iter().map(|c| c.id).collect();
    assert_eq!(ids, [1, 2, 3], "the host's functions, in plan order");
    assert_eq!(round.calls[1].timeout, std::time::Duration::from_millis(250));
    let mut inputs: Vec<Value> = round.calls.iter().map(|c| serde_json::from_str(&c.input_json).unwrap()).collect();
    assert_eq!(inputs[0]["session_id"], "s2");
    inputs[0]["session_id"] = json!("s1");
    // The same stdin the runtime hands a callback it calls itself.
    assert_eq!(inputs[0], fake.calls.lock().unwrap()[0].1);
    assert_eq!(inputs[0]["hook_event_name"], "Stop");
    let answers = [CallbackAnswer::Json(block), CallbackAnswer::TimedOut, CallbackAnswer::Threw("kaboom".into())];
    let hosted = rt.finish_round(round, answers).unwrap();

    let (native, hosted) = (to_json(&native), to_json(&hosted));
    assert_eq!(hosted["outcome"], native["outcome"]);
    assert_eq!(hosted["outcome"]["decision"], "deny");
    for (h, n) in hosted["runs"].as_array().unwrap().iter().zip(native["runs"].as_array().unwrap()) {
        assert_eq!(
            (&h["hook"], &h["outcome"], &h["error"], &h["timedOut"]),
            (&n["hook"], &n["outcome"], &n["error"], &n["timedOut"])
        );
    }
    assert_eq!(hosted["runs"][1]["error"], "callback hangs timed out after 0.25s");
    assert_eq!(hosted["runs"][1]["timedOut"], true);
}

#[tokio::test]
async fn a_file_hook_or_serial_concurrency_keeps_the_run_native_and_a_closed_runtime_finishes_nothing() {
    let p = Project::new();
    p.claude(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "exit 0"}]}]}));
    let fake =
        Arc::new(Fake { answers: vec![(1, Some(Ok("{}".into()))), (2, Some(Ok("{}".into())))], ..Default::default() });
    let spec = json!({"PreToolUse": [{"hooks": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}]});
    let rt = runtime(&p, fake.clone(), spec.clone());
    let beside_a_file = rt.start(req("PreToolUse", json!({"tool_name": "Bash"})), &CancellationToken::new()).unwrap();
    let Started::Planned(planned) = beside_a_file else { panic!("a file hook joins: the runtime runs them all") };
    let r = rt.run_planned(planned, &CancellationToken::new()).await.unwrap();
    assert_eq!(r.runs.len(), 3);
    assert!(matches!(
        rt.start(req("PreToolUse", json!({"tool_name": "Read"})), &CancellationToken::new()).unwrap(),
        Started::Round(_)
    ));
    let nothing = rt.start(req("Stop", json!({})), &CancellationToken::new()).unwrap();
    assert!(matches!(nothing, Started::Done(r) if r.runs.is_empty()));

    let serial = RuntimeOptions { concurrency: Concurrency::Serial, ..p.options() };
    let host = Host { callbacks: Some(CallbackHost(fake)), ..Default::default() };
    let rt = Runtime::with_host(&serial, &|_| None, host).unwrap();
    rt.add_callback_hooks(&serde_json::from_value(spec).unwrap()).unwrap();
    let two = rt.start(req("PreToolUse", json!({"tool_name": "Read"})), &CancellationToken::new()).unwrap();
    assert!(matches!(two, Started::Planned(_)), "one after the other is the runtime's to keep");

    let rt = runtime(&p, Arc::new(Fake::default()), json!({"Stop": [{"hooks": [{"id": 1, "name": "a"}]}]}));
    let round = round_of(&rt, "Stop", json!({}));
    rt.close();
    assert_eq!(rt.finish_round(round, [CallbackAnswer::Json("{}".into())]).err(), Some(DispatchError::Closed));
}

/// A host that asked for progress reports still runs its callbacks itself: each call carries
/// the start report the runtime would have made, and the runtime reports nothing itself.
#[tokio::test]
async fn a_host_round_carries_each_calls_start_report_when_progress_is_asked_for() {
    let p = Project::new();
    let fake = Arc::new(Fake::default());
    let rt = runtime(&p, fake, json!({"PreToolUse": [{"matcher": "Read", "hooks": [{"id": 4, "name": "guard"}]}]}));
    let reported = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let reported = reported.clone();
        hookrt::ProgressSink(Arc::new(move |p: hookrt::Progress| reported.lock().unwrap().push(p.phase)))
    };
    let request = DispatchRequest { progress: Some(sink), ..req("PreToolUse", json!({"tool_name": "Read"})) };
    let Started::Round(round) = rt.start(request, &CancellationToken::new()).unwrap() else {
        panic!("progress reports keep a round the host's")
    };
    let start: Value = serde_json::from_str(round.calls[0].progress.as_deref().unwrap()).unwrap();
    assert_eq!(
        start,
        json!({"phase": "start", "hookId": "callback:guard:PreToolUse:1.0.0", "dialect": "claude", "matcher": "Read", "elapsedMs": 0})
    );
    rt.finish_round(round, [CallbackAnswer::Json("{}".into())]).unwrap();
    assert!(reported.lock().unwrap().is_empty(), "the host reports a round's progress itself");
    let quiet = round_of(&rt, "PreToolUse", json!({"tool_name": "Read"}));
    assert_eq!(quiet.calls[0].progress, None);
}
