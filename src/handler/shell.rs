//! The `command` handler: the harness's shell (`/bin/sh -c` or `bash -c`) or the exec form,
//! payload on stdin.

use crate::handler::process::{self, ProcSpec, Program};
use crate::handler::{Failure, RunCtx};
use crate::vocab::Raw;

/// Builds the process spec shared by shell and proxy hooks.
pub(crate) fn spec(program: Program, env: &[(String, String)], stdin: Vec<u8>, ctx: &RunCtx<'_>) -> ProcSpec {
    let mut all_env: Vec<(String, String)> = ctx.env.clone();
    all_env.extend_from_slice(env);
    let mut env_remove = ctx.policy.removed_env.clone();
    env_remove.extend(ctx.env_remove.iter().cloned());
    ProcSpec {
        program,
        cwd: ctx.cwd.clone(),
        env: all_env,
        env_remove,
        stdin,
        timeout: ctx.timeout,
        timeout_label: ctx.timeout_label(),
        output_cap: ctx.policy.output_cap,
        reap_orphans: ctx.policy.reap_orphans,
        base_env: ctx.base_env.clone(),
    }
}

pub(crate) async fn run(
    command: &str,
    args: Option<&[String]>,
    env: &[(String, String)],
    ctx: &RunCtx<'_>,
) -> Result<Raw, Failure> {
    let program = match args {
        Some(a) => Program::Exec(command.to_owned(), a.to_vec()),
        None => Program::Shell(ctx.shell, ctx.command.clone().unwrap_or_else(|| command.to_owned())),
    };
    let _permit = crate::handler::slot(ctx).await?;
    process::run(&spec(program, env, ctx.stdin.clone(), ctx), ctx.cancel).await
}
