//! Cline's stdin (docs/harnesses/cline.md "Stdin"): `clineVersion`, `timestamp`, `taskId`,
//! `sessionContext`, `workspaceRoots`, `workspaceInfo`, `userId`, `agent_id`, `parent_agent_id`,
//! `hookName` (Cline's internal name, `tool_call`), then the event's own part (`preToolUse:
//! {toolName, parameters}` beside `tool_call: {id, name, input}`). A host that already speaks
//! Cline's payload has it passed on as sent; a Claude-shaped one is translated.

use crate::harness::stdin::tool_output_text;
use crate::harness::PayloadCtx;
use crate::vocab::{CanonicalEvent as E, Dialect};
use serde_json::{json, Map, Value};

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let host = ctx.host;
    if host.contains_key("taskId") || host.contains_key("hookName") {
        let mut m = host.clone();
        // (the runtime's `stop_hook_active`, which Cline has no field for)
        m.remove("stop_hook_active");
        m.insert("hookName".into(), s(super::hook_name(ctx.spelling)));
        return m;
    }
    let mut m = base(ctx);
    m.insert("hookName".into(), s(super::hook_name(ctx.spelling)));
    event_part(ctx, &mut m);
    m
}

fn base(ctx: &PayloadCtx) -> Map<String, Value> {
    let host = ctx.host;
    let session = crate::harness::session_of(host);
    let var = |k: &str| std::env::var(k).ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let hint = std::path::Path::new(ctx.cwd).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut m = Map::new();
    m.insert("clineVersion".into(), s(&var("CLINE_VERSION").unwrap_or_default()));
    m.insert("timestamp".into(), s(ctx.ts.iso()));
    m.insert("taskId".into(), s(session));
    m.insert("sessionContext".into(), json!({ "rootSessionId": session }));
    m.insert("workspaceRoots".into(), json!([ctx.cwd]));
    m.insert("workspaceInfo".into(), json!({ "rootPath": ctx.cwd, "hint": hint }));
    let user = var("CLINE_USER_ID").or_else(|| var("USER")).unwrap_or_else(|| "unknown".into());
    m.insert("userId".into(), s(&user));
    m.insert("agent_id".into(), host.get("agent_id").cloned().unwrap_or_else(|| s("")));
    m.insert("parent_agent_id".into(), host.get("parent_agent_id").cloned().unwrap_or(Value::Null));
    m
}

/// Cline's `parameters`: every input field as a string (JSON for the others).
fn parameters(input: Option<&Value>) -> Value {
    let mut p = Map::new();
    for (k, v) in input.and_then(Value::as_object).into_iter().flatten() {
        p.insert(k.clone(), s(&v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string())));
    }
    Value::Object(p)
}

fn event_part(ctx: &PayloadCtx, m: &mut Map<String, Value>) {
    let host = ctx.host;
    let get = |k: &str| host.get(k).cloned();
    let iteration = get("iteration").unwrap_or_else(|| json!(1));
    let meta = json!({ "taskMetadata": {} });
    match (ctx.spelling, ctx.canonical) {
        ("TaskResume", _) => {
            m.insert("taskResume".into(), json!({ "taskMetadata": {}, "previousState": {} }));
        }
        (_, E::SessionStart) => {
            m.insert("taskStart".into(), meta);
        }
        (_, E::PromptSubmit) => {
            m.insert(
                "userPromptSubmit".into(),
                json!({ "prompt": get("prompt").unwrap_or_else(|| s("")), "attachments": [] }),
            );
        }
        (_, E::ToolBefore | E::ToolAfter) => tool_part(ctx, m),
        (_, E::TurnStop) => {
            m.insert("iteration".into(), iteration);
            let text = get("last_assistant_message").unwrap_or_else(|| s(""));
            m.insert("turn".into(), json!({ "outputText": text, "status": "completed" }));
            m.insert("taskComplete".into(), meta);
        }
        (_, E::TurnInterrupt) => {
            m.insert("reason".into(), get("reason").unwrap_or_else(|| s("aborted")));
            m.insert("taskCancel".into(), meta);
        }
        (_, E::TurnFail) => {
            m.insert("iteration".into(), iteration);
            let message = get("error").unwrap_or_else(|| s(""));
            m.insert("error".into(), json!({ "name": "Error", "message": message }));
        }
        _ => {
            // (Cline drops a reason it does not have)
            if let Some(r) = get("reason") {
                m.insert("reason".into(), r);
            }
        }
    }
}

/// PreToolUse's `tool_call` and `preToolUse`, PostToolUse's `tool_result` and `postToolUse`.
fn tool_part(ctx: &PayloadCtx, m: &mut Map<String, Value>) {
    let host = ctx.host;
    let get = |k: &str| host.get(k).cloned();
    let tool = host.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let tool = crate::harness::tools::spelling(Dialect::Cline, tool).unwrap_or(tool);
    let input = get("tool_input").unwrap_or_else(|| json!({}));
    let id = get("tool_use_id").unwrap_or_else(|| s(""));
    m.insert("iteration".into(), get("iteration").unwrap_or_else(|| json!(1)));
    match ctx.canonical {
        E::ToolBefore => {
            m.insert("tool_call".into(), json!({ "id": id, "name": tool, "input": input }));
            m.insert("preToolUse".into(), json!({ "toolName": tool, "parameters": parameters(Some(&input)) }));
        }
        _ => {
            // Claude's `{stdout, …}` becomes its text; a tool's own output (Cline's `run_commands`
            // answers a list) is passed on as it is.
            let output = match get("tool_response") {
                Some(r) if r.get("stdout").is_some() => s(&tool_output_text(&r)),
                Some(r) => r,
                None => s(""),
            };
            let result = output.as_str().map(str::to_owned).unwrap_or_else(|| output.to_string());
            let ms = get("duration_ms").unwrap_or_else(|| json!(0));
            m.insert(
                "tool_result".into(),
                json!({ "id": id, "name": tool, "input": input, "output": output, "durationMs": ms,
                            "startedAt": ctx.ts.iso(), "endedAt": ctx.ts.iso() }),
            );
            m.insert(
                "postToolUse".into(),
                json!({ "toolName": tool, "parameters": parameters(Some(&input)), "result": result,
                            "success": true, "executionTimeMs": ms }),
            );
        }
    }
}
