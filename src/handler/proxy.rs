//! The `agent` / `subagent` handler: a subagent runner command receives the rendered prompt
//! on stdin (payload + `prompt`) and in `HOOK_PROMPT`; otherwise it runs like a shell hook.

use crate::handler::process::{self, Program};
use crate::handler::{render_prompt, shell, Failure, RunCtx};
use crate::vocab::Raw;

pub(crate) async fn run(
    prompt: &str,
    command: Option<&str>,
    env: &[(String, String)],
    ctx: &RunCtx<'_>,
) -> Result<Raw, Failure> {
    let Some(command) = command.or(ctx.policy.proxy_command.as_deref()) else {
        return Err(crate::handler::failure::Unconfigured::Runner.into());
    };
    let rendered = render_prompt(prompt, &ctx.input_json);
    let mut input: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&ctx.input_json).unwrap_or_default();
    input.insert("prompt".into(), serde_json::Value::String(rendered.clone()));
    let mut stdin = serde_json::to_vec(&input).unwrap_or_default();
    stdin.push(b'\n');
    let mut env = env.to_vec();
    env.push(("HOOK_PROMPT".into(), rendered));
    let _permit = crate::handler::slot(ctx).await?;
    process::run(
        &shell::spec(Program::Shell(crate::vocab::Shell::Sh, command.to_owned()), &env, stdin, ctx),
        ctx.cancel,
    )
    .await
}
