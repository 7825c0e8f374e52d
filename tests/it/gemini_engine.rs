//! Gemini CLI's own hook-engine rules (google-gemini/gemini-cli `packages/core/src/hooks/`),
//! ported: each case names its upstream test (or code) and asserts what Gemini CLI 0.61.0 does
//! through hookrt's Gemini dialect — which hooks of a Gemini `settings.json` run for one event.

use crate::common::*;
use serde_json::{json, Value};

/// A hook that says its name when it runs.
fn hook(cmd: &str) -> Value {
    json!({"type": "command", "command": format!("true {cmd}")})
}

fn named(name: &str, cmd: &str) -> Value {
    json!({"type": "command", "name": name, "command": format!("true {cmd}")})
}

/// The commands that ran, in order, for one dispatch against these Gemini `hooks`.
async fn ran(hooks: Value, user: Option<Value>, event: &str, payload: Value) -> Vec<String> {
    let p = Project::new();
    p.write("proj/.gemini/settings.json", &json!({ "hooks": hooks }).to_string());
    if let Some(u) = user {
        p.write("home/.gemini/settings.json", &json!({ "hooks": u }).to_string());
    }
    let r = to_json(&dispatch(&p.runtime(), event, payload).await);
    let runs = r["runs"].as_array().cloned().unwrap_or_default();
    runs.iter()
        .map(|run| run["hook"]["command"].as_str().unwrap_or("?").trim_start_matches("true ").to_owned())
        .collect()
}

/// The same, the other way a user meets it: Gemini CLI running `hookrt hook gemini` as its hook
/// (the real executable, Gemini's stdin, the project trusted as Gemini trusts it). Each hook
/// appends its name to a log; Gemini runs a plan's hooks in parallel, so the names are sorted.
fn ran_inside(hooks: Value, user: Option<Value>, event: &str, payload: Value) -> Vec<String> {
    let p = Project::new();
    let log = p.path("ran.log");
    let logged = |v: Value| logging(v, &log);
    p.write("proj/.gemini/settings.json", &json!({ "hooks": logged(hooks) }).to_string());
    if let Some(u) = user {
        p.write("home/.gemini/settings.json", &json!({ "hooks": logged(u) }).to_string());
    }
    let out = inside(&p, "gemini", event, payload, &[("GEMINI_CLI_TRUST_WORKSPACE", "true".into())], &[]);
    assert_eq!(out.code, 0, "hookrt hook gemini: {}", out.stderr);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let mut names: Vec<String> = text.lines().map(str::to_owned).collect();
    names.sort();
    names
}

/// The hooks with `true <name>` commands turned into ones that append `<name>` to `log`.
fn logging(mut v: Value, log: &std::path::Path) -> Value {
    match &mut v {
        Value::Object(m) => {
            if let Some(Value::String(c)) = m.get_mut("command") {
                if let Some(name) = c.strip_prefix("true ") {
                    *c = format!("echo {name} >> '{}'", log.display());
                }
            }
            for x in m.values_mut() {
                *x = logging(x.take(), log);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| *x = logging(x.take(), log)),
        _ => {}
    }
    v
}

struct Case {
    upstream: &'static str,
    hooks: fn() -> Value,
    user: Option<fn() -> Value>,
    event: &'static str,
    payload: fn() -> Value,
    ran: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        upstream: "hookPlanner.test.ts: should create plan for hooks without matchers",
        hooks: || json!({"BeforeTool": [{"hooks": [hook("hook1")]}]}),
        user: Some(|| json!({"BeforeTool": [{"hooks": [hook("test-hook")]}]})),
        event: "BeforeTool",
        payload: || json!({"tool_name": "AnyTool"}),
        ran: &["hook1", "test-hook"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should filter hooks by tool name matcher",
        hooks: || json!({"BeforeTool": [{"matcher": "EditTool", "hooks": [hook("edit")]}, {"hooks": [hook("general")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "EditTool"}),
        ran: &["edit", "general"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should filter hooks by regex matcher (WriteTool)",
        hooks: || json!({"BeforeTool": [{"matcher": "Edit|Write", "hooks": [hook("edit")]}, {"matcher": "ReadTool", "hooks": [hook("read")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "WriteTool"}),
        ran: &["edit"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should filter hooks by regex matcher (OtherTool)",
        hooks: || json!({"BeforeTool": [{"matcher": "Edit|Write", "hooks": [hook("edit")]}, {"matcher": "ReadTool", "hooks": [hook("read")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "OtherTool"}),
        ran: &[],
    },
    Case {
        upstream: "hookPlanner.test.ts: should handle wildcard matcher / empty string matcher",
        hooks: || json!({"BeforeTool": [{"matcher": "*", "hooks": [hook("star")]}, {"matcher": "", "hooks": [hook("empty")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "AnyTool"}),
        ran: &["star", "empty"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should handle invalid regex matcher gracefully (exact name)",
        hooks: || json!({"BeforeTool": [{"matcher": "[invalid-regex", "hooks": [hook("invalid")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "[invalid-regex"}),
        ran: &["invalid"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should handle invalid regex matcher gracefully (other name)",
        hooks: || json!({"BeforeTool": [{"matcher": "[invalid-regex", "hooks": [hook("invalid")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "other-tool"}),
        ran: &[],
    },
    Case {
        upstream: "hookPlanner.test.ts: should deduplicate identical hooks",
        hooks: || json!({"BeforeTool": [{"hooks": [hook("same"), hook("test-hook")]}]}),
        user: Some(|| json!({"BeforeTool": [{"hooks": [hook("same"), hook("test-hook")]}]})),
        event: "BeforeTool",
        payload: || json!({"tool_name": "AnyTool"}),
        ran: &["same", "test-hook"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should deduplicate identical hooks (two groups of one file, other matchers)",
        hooks: || json!({"BeforeTool": [{"matcher": "Any.*", "hooks": [hook("same")]}, {"matcher": "AnyTool", "hooks": [hook("same")]}]}),
        user: None,
        event: "BeforeTool",
        payload: || json!({"tool_name": "AnyTool"}),
        ran: &["same"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should deduplicate based on both name and command",
        hooks: || {
            json!({"BeforeTool": [{"hooks": [
                named("hook1", "same"), named("hook2", "same"), named("hook1", "different"), hook("no-name")
            ]}]})
        },
        user: Some(|| json!({"BeforeTool": [{"hooks": [named("hook1", "same"), hook("no-name")]}]})),
        event: "BeforeTool",
        payload: || json!({"tool_name": "AnyTool"}),
        ran: &["same", "same", "different", "no-name"],
    },
    Case {
        upstream: "hookPlanner.test.ts: should match trigger for session events (startup)",
        hooks: || json!({"SessionStart": [{"matcher": "startup", "hooks": [hook("startup")]}, {"matcher": "resume", "hooks": [hook("resume")]}]}),
        user: None,
        event: "SessionStart",
        payload: || json!({"source": "startup"}),
        ran: &["startup"],
    },
    Case {
        upstream: "hookPlanner.ts matchesTrigger: a trigger matches exactly, not as a regex",
        hooks: || json!({"SessionStart": [{"matcher": "start", "hooks": [hook("start")]}]}),
        user: None,
        event: "SessionStart",
        payload: || json!({"source": "startup"}),
        ran: &[],
    },
    Case {
        upstream: "hookPlanner.ts matchesContext + hookEventHandler.ts fireBeforeAgentEvent (no context): the matcher is ignored",
        hooks: || json!({"BeforeAgent": [{"matcher": "nothing-like-this", "hooks": [hook("agent")]}]}),
        user: None,
        event: "BeforeAgent",
        payload: || json!({"prompt": "hi"}),
        ran: &["agent"],
    },
    Case {
        upstream: "hookEventHandler.ts fireBeforeModelEvent (no context): the matcher is ignored",
        hooks: || json!({"BeforeModel": [{"matcher": "gemini-9", "hooks": [hook("model")]}]}),
        user: None,
        event: "BeforeModel",
        payload: || json!({"llm_request": {"model": "x"}}),
        ran: &["model"],
    },
    Case {
        upstream: "hookPlanner.ts matchesTrigger: a PreCompress trigger matches exactly, not as a regex",
        hooks: || json!({"PreCompress": [{"matcher": "man.*", "hooks": [hook("regex")]}, {"hooks": [hook("any")]}]}),
        user: None,
        event: "PreCompress",
        payload: || json!({"trigger": "manual"}),
        ran: &["any"],
    },
    Case {
        upstream: "hookEventHandler.ts firePreCompressEvent: the plan's context is {trigger}, so a group's matcher selects the trigger",
        hooks: || {
            json!({"PreCompress": [
                {"matcher": "manual", "hooks": [hook("manual")]},
                {"matcher": "auto", "hooks": [hook("auto")]},
                {"matcher": "*", "hooks": [hook("any")]}
            ]})
        },
        user: None,
        event: "PreCompress",
        payload: || json!({"trigger": "manual"}),
        ran: &["manual", "any"],
    },
    Case {
        upstream: "hookEventHandler.ts firePreCompressEvent: an auto compaction runs the auto group",
        hooks: || json!({"PreCompress": [{"matcher": "manual", "hooks": [hook("manual")]}, {"matcher": "auto", "hooks": [hook("auto")]}]}),
        user: None,
        event: "PreCompress",
        payload: || json!({"trigger": "auto"}),
        ran: &["auto"],
    },
];

#[tokio::test]
async fn gemini_planner_cases() {
    let mut failed = Vec::new();
    for c in CASES {
        let mut got = ran((c.hooks)(), c.user.map(|u| u()), c.event, (c.payload)()).await;
        let mut want: Vec<String> = c.ran.iter().map(|s| s.to_string()).collect();
        // Across files the order is the settings merge's, not the planner's: compare the sets.
        if c.user.is_some() {
            got.sort();
            want.sort();
        }
        if got != want {
            failed.push(format!("{}: ran {got:?}, Gemini runs {:?}", c.upstream, c.ran));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn gemini_planner_cases_inside_gemini() {
    let mut failed = Vec::new();
    for c in CASES {
        let got = ran_inside((c.hooks)(), c.user.map(|u| u()), c.event, (c.payload)());
        let mut want: Vec<String> = c.ran.iter().map(|s| s.to_string()).collect();
        want.sort();
        if got != want {
            failed.push(format!("{}: hookrt hook gemini ran {got:?}, Gemini runs {want:?}", c.upstream));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[tokio::test]
async fn an_ignored_matcher_is_reported() {
    let p = Project::new();
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeAgent": [{"matcher": "x", "hooks": [hook("agent")]}]}}).to_string(),
    );
    let rt = p.runtime();
    let d: Vec<String> = rt.loaded().diagnostics.iter().map(|d| d.message.clone()).collect();
    assert!(d.iter().any(|m| m.contains("matcher has no effect on BeforeAgent")), "{d:?}");
}

/// `hookAggregator.ts` `mergeWithOrDecision`: every reason is kept, joined by a newline
/// (recorded in the kit's S19: the model saw both, one per line).
#[tokio::test]
async fn several_reasons_are_joined_by_a_newline() {
    let p = Project::new();
    let deny = |why: &str| json!({"type": "command", "command": format!("echo '{{\"decision\":\"deny\",\"reason\":\"{why}\"}}'")});
    p.write(
        "proj/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [deny("first"), deny("second")]}]}}).to_string(),
    );
    let r = to_json(&dispatch(&p.runtime(), "BeforeTool", json!({"tool_name": "run_shell_command"})).await);
    assert_eq!(r["outcome"]["reason"], "first\nsecond", "{r}");
}

/// The outcome of one Gemini `BeforeModel`/`AfterModel`/`BeforeTool` dispatch of these answers.
async fn merged(event: &str, answers: &[&str]) -> Value {
    let p = Project::new();
    let hooks: Vec<Value> =
        answers.iter().map(|a| json!({"type": "command", "command": format!("echo '{a}'")})).collect();
    p.write("proj/.gemini/settings.json", &json!({"hooks": {event: [{"hooks": hooks}]}}).to_string());
    to_json(&dispatch(&p.runtime(), event, json!({"tool_name": "run_shell_command", "llm_request": {}})).await)
        ["outcome"]
        .clone()
}

/// `hookAggregator.ts` `mergeWithFieldReplacement` (BeforeModel, AfterModel): each field of a
/// later answer replaces the earlier one's — a later allow undoes a deny, the last reason and
/// message are the ones said — while BeforeTool's `mergeWithOrDecision` keeps every deny.
#[tokio::test]
async fn model_answers_merge_by_field_replacement() {
    let deny = |why: &str| format!(r#"{{"decision":"deny","reason":"{why}"}}"#);
    for event in ["BeforeModel", "AfterModel"] {
        let o = merged(event, &[&deny("first"), &deny("second")]).await;
        assert_eq!((o["decision"].as_str(), o["reason"].as_str()), (Some("deny"), Some("second")), "{event}: {o}");
        let o = merged(event, &[&deny("first"), r#"{"decision":"allow"}"#]).await;
        assert_ne!(o["decision"], "deny", "{event}: a later allow replaces the deny: {o}");
        let o = merged(event, &[r#"{"decision":"allow"}"#, &deny("late")]).await;
        assert_eq!(o["decision"], "deny", "{event}: {o}");
        let o = merged(event, &[&deny("kept"), "{}"]).await;
        assert_eq!((o["decision"].as_str(), o["reason"].as_str()), (Some("deny"), Some("kept")), "{event}: {o}");
        let said = |m: &str| format!(r#"{{"systemMessage":"{m}"}}"#);
        let o = merged(event, &[&said("one"), &said("two")]).await;
        assert_eq!(o["messages"], json!(["two"]), "{event}: {o}");
    }
    let o = merged("BeforeTool", &[&deny("first"), r#"{"decision":"allow"}"#]).await;
    assert_eq!(o["decision"], "deny", "BeforeTool keeps the deny: {o}");
}

/// The same merges inside Gemini CLI: `hookrt hook gemini` runs the hooks, and its own answer,
/// read as Gemini reads one hook's, says what the merge says.
fn merged_inside(event: &str, answers: &[&str]) -> hookrt::RunOutcome {
    let p = Project::new();
    let hooks: Vec<Value> =
        answers.iter().map(|a| json!({"type": "command", "command": format!("echo '{a}'")})).collect();
    p.write("proj/.gemini/settings.json", &json!({"hooks": {event: [{"hooks": hooks}]}}).to_string());
    let stdin = json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "llm_request": {}});
    let out = inside(&p, "gemini", event, stdin, &[("GEMINI_CLI_TRUST_WORKSPACE", "true".into())], &[]);
    let canonical = match event {
        "BeforeModel" => hookrt::CanonicalEvent::ModelBefore,
        "AfterModel" => hookrt::CanonicalEvent::ModelAfter,
        _ => hookrt::CanonicalEvent::ToolBefore,
    };
    let raw = hookrt::Raw { exit_code: Some(out.code), stdout: out.stdout, stderr: out.stderr, truncated: false };
    hookrt::decode(raw, canonical, hookrt::Dialect::Gemini)
}

#[test]
fn reasons_and_model_merges_inside_gemini() {
    use hookrt::Decision::Deny;
    let deny = |why: &str| format!(r#"{{"decision":"deny","reason":"{why}"}}"#);
    let o = merged_inside("BeforeTool", &[&deny("first"), &deny("second")]);
    assert_eq!((o.decision, o.reason.as_deref()), (Some(Deny), Some("first\nsecond")));
    for event in ["BeforeModel", "AfterModel"] {
        let o = merged_inside(event, &[&deny("first"), &deny("second")]);
        assert_eq!((o.decision, o.reason.as_deref()), (Some(Deny), Some("second")), "{event}");
        let o = merged_inside(event, &[&deny("first"), r#"{"decision":"allow"}"#]);
        assert_ne!(o.decision, Some(Deny), "{event}: a later allow replaces the deny");
    }
    let o = merged_inside("BeforeTool", &[&deny("first"), r#"{"decision":"allow"}"#]);
    assert_eq!(o.decision, Some(Deny), "BeforeTool keeps the deny");
}
