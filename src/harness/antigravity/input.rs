//! The stdin an Antigravity hook reads, as integrators recorded it from `agy` 1.0.x: camelCase
//! `conversationId`, `stepIdx`, `toolCall: {name, args}`, `transcriptPath`, `workspacePaths`,
//! `artifactDirectoryPath`; `error` after a tool; `userPrompt` before an invocation.

use crate::harness::stdin::Stdin;
use crate::harness::PayloadCtx;
use crate::vocab::{CanonicalEvent as E, Dialect};
use serde_json::{json, Map, Value};

pub(crate) fn input(ctx: &PayloadCtx) -> Map<String, Value> {
    let mut m = Stdin::new(ctx);
    m.copy_or("conversationId", &["conversationId", "session_id", "sessionId"], json!(""));
    let tool = matches!(ctx.canonical, E::ToolBefore | E::ToolAfter);
    if tool {
        m.copy_or("stepIdx", &["stepIdx"], json!(0));
        let name = m.take(&["tool_name"]).and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        let name = crate::harness::tools::spelling(Dialect::Antigravity, &name).map(str::to_owned).unwrap_or(name);
        let args = m.take(&["tool_input"]).unwrap_or_else(|| json!({}));
        m.put("toolCall", json!({ "name": name, "args": args }));
    }
    m.copy_or("transcriptPath", &["transcriptPath", "transcript_path"], json!(""));
    m.copy_or("workspacePaths", &["workspacePaths"], json!([ctx.cwd]));
    m.copy("artifactDirectoryPath", &["artifactDirectoryPath"]);
    match ctx.canonical {
        E::ToolAfter => {
            m.copy("error", &["error", "tool_error"]);
        }
        E::PromptSubmit => {
            m.copy_or("userPrompt", &["userPrompt", "prompt"], json!(""));
        }
        _ => {}
    }
    m.finish()
}
