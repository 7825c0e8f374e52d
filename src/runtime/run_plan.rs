//! Running the planned hooks of one dispatch: concurrently, in file order, or as a chain
//! that feeds each hook the input the previous one returned; until done, the host's abort or
//! `close()`.

use crate::config::Hook;
use crate::runtime::execute::execute;
use crate::runtime::request::{DispatchCtx, DispatchError, ProgressSink, Run};
use crate::runtime::Runtime;
use crate::vocab::{Concurrency, Decision, Order, RunOutcome};
use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::Value;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Runs one hook of the plan (given the input a chain's previous hook returned).
type One<'a> = dyn Fn(Arc<Hook>, Option<Value>) -> BoxFuture<'a, Option<Run>> + Sync + 'a;

impl Runtime {
    /// Runs the planned hooks, until done, the host's abort or `close()`.
    pub(super) async fn run_plan(
        &self,
        plan: &[Arc<Hook>],
        ctx: &DispatchCtx,
        cancel: &CancellationToken,
        progress: Option<&ProgressSink>,
        session: &str,
    ) -> Result<Vec<Run>, DispatchError> {
        let merged = self.close_token.child_token();
        let opts = &self.opts;
        let one = |hook: Arc<Hook>, tool_input: Option<Value>| -> BoxFuture<'_, Option<Run>> {
            let started = hook.family.is_async.then(|| self.start_async(hook.clone(), ctx, session));
            let rctx = ctx.parts_with(opts, &hook, tool_input.as_ref()).ctx(&opts.handlers, &self.shared, &merged);
            async move {
                match started {
                    Some(run) => Some(run),
                    None => execute(&opts.policy, hook, rctx, ctx.canonical, progress).await,
                }
            }
            .boxed()
        };
        let runs = self.run_all(plan, ctx, &one);
        tokio::pin!(runs);
        let results = tokio::select! {
            r = &mut runs => r,
            _ = cancel.cancelled() => {
                merged.cancel();
                runs.await
            }
        };
        if merged.is_cancelled() {
            return Err(if self.is_closed() && !cancel.is_cancelled() {
                DispatchError::Closed
            } else {
                DispatchError::Aborted
            });
        }
        Ok(results.into_iter().flatten().collect())
    }

    /// Every hook of the plan, each in its slot: the parallel ones together, beside the ones
    /// that run in file order and the chain.
    async fn run_all(&self, plan: &[Arc<Hook>], ctx: &DispatchCtx, one: &One<'_>) -> Vec<Option<Run>> {
        let mut slots: Vec<Option<Run>> = (0..plan.len()).map(|_| None).collect();
        if self.opts.policy.concurrency == Concurrency::Serial {
            for (i, h) in plan.iter().enumerate() {
                slots[i] = one(h.clone(), None).await;
            }
            return slots;
        }
        let of = |order: Order| plan.iter().enumerate().filter(move |(_, h)| h.harness.order == order);
        let parallel =
            futures::future::join_all(of(Order::Parallel).map(|(i, h)| one(h.clone(), None).map(move |r| (i, r))));
        let in_order = in_file_order(of(Order::Sequential).collect(), one, false);
        let until_deny = in_file_order(of(Order::UntilDeny).collect(), one, true);
        let chain = run_chain(of(Order::Chain).collect(), ctx, one);
        let (a, b, c, d) = futures::join!(parallel, in_order, until_deny, chain);
        for (i, r) in a.into_iter().chain(b).chain(c).chain(d) {
            slots[i] = r;
        }
        slots
    }

    /// Starts an async hook in the background; its result waits for the session's next
    /// dispatch. `close()` kills it like any other hook.
    fn start_async(&self, hook: Arc<Hook>, ctx: &DispatchCtx, session: &str) -> Run {
        let parts = ctx.parts(&self.opts, &hook);
        let (opts, shared) = (self.opts.clone(), self.shared.clone());
        let cancel = self.close_token.child_token();
        let background = self.background.clone();
        let (event, session, h) = (ctx.canonical, session.to_owned(), hook.clone());
        tokio::spawn(async move {
            let rctx = parts.ctx(&opts.handlers, &shared, &cancel);
            if let Some(run) = execute(&opts.policy, h, rctx, event, None).await {
                background.finished(session, run);
            }
        });
        let outcome = RunOutcome { pending: true, ..Default::default() };
        Run { hook, outcome, duration_ms: 0, error: None, timed_out: false, is_async: true, started: None, ended: None }
    }
}

/// Hooks one after the other in file order; with `until_deny`, the first deny ends the rest.
async fn in_file_order(hooks: Vec<(usize, &Arc<Hook>)>, one: &One<'_>, until_deny: bool) -> Vec<(usize, Option<Run>)> {
    let mut out = Vec::with_capacity(hooks.len());
    for (i, h) in hooks {
        let run = one(h.clone(), None).await;
        let denied = run.as_ref().is_some_and(|r| r.outcome.decision == Some(Decision::Deny));
        out.push((i, run));
        if until_deny && denied {
            break;
        }
    }
    out
}

/// A chain (Gemini `sequential`, `hookRunner.ts` `executeHooksSequential`): each hook gets the
/// `tool_input` the previous successful one returned (as its harness applies an update); a
/// failed run passes nothing on, and a deny does not end the chain: every hook runs.
async fn run_chain(hooks: Vec<(usize, &Arc<Hook>)>, ctx: &DispatchCtx, one: &One<'_>) -> Vec<(usize, Option<Run>)> {
    let mut current = ctx.payload.get("tool_input").cloned();
    let mut out = Vec::with_capacity(hooks.len());
    for (i, h) in hooks {
        let mut run = one(h.clone(), current.clone()).await;
        if let Some(r) = run.as_mut() {
            let succeeded = r.error.is_none() && matches!(r.outcome.exit_code, None | Some(Some(0)));
            if let Some(u) = r.outcome.update_input.take().filter(|_| succeeded) {
                let merged = crate::harness::of(h.dialect).update_input(current.as_ref(), u);
                r.outcome.update_input = Some(merged.clone());
                current = Some(merged);
            }
        }
        out.push((i, run));
    }
    out
}
