//! Host rounds: a dispatch whose every hook is one of the host's callbacks is handed back to
//! the host to run itself. The host calls its functions, keeps their timeouts and aborts
//! their signals, and gives the answers back; hookrt reads and folds them as it reads any
//! callback's answer. Such a dispatch crosses into the host twice (its calls out, its answers
//! in) and needs no task, promise, channel or timer of hookrt's: a callback hook costs about
//! what calling the function costs. A host that asked for progress reports makes them itself,
//! from the start report each call carries. Any other dispatch runs its hooks itself
//! (`run_plan.rs`).

use crate::config::{HandlerSpec, Hook};
use crate::handler::callback::{self, Answer};
use crate::runtime::dispatch::{Begun, Planned};
use crate::runtime::execute::Progress;
use crate::runtime::request::{wait_of, DispatchError, DispatchRequest, DispatchResult};
use crate::runtime::Runtime;
use crate::vocab::{Concurrency, Order};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// A dispatch after its synchronous first part, for a host that can run its own callbacks.
pub enum Started {
    /// No hook runs: the result is final.
    Done(DispatchResult),
    /// Only the host's callbacks run: the host calls them, then [`Runtime::finish_round`].
    Round(HostRound),
    /// Other hooks run: [`Runtime::run_planned`] runs them all.
    Planned(Planned),
}

/// The host's part of a dispatch: its functions to call, each with the input it gets and its
/// timeout, in plan order.
pub struct HostRound {
    planned: Planned,
    pub calls: Vec<RoundCall>,
    started: Instant,
}

/// One function to call.
pub struct RoundCall {
    /// The function, as the host registered it.
    pub id: u64,
    /// The Claude-shaped stdin a command hook of the same event would read.
    pub input_json: String,
    /// When the host gives up on it: its signal aborts and the run is a timeout.
    pub timeout: Duration,
    timeout_secs: f64,
    /// When the host asked for progress reports: the one the host makes as it calls the
    /// function (`phase: "start"`, JSON); it reports the end itself, with the time taken.
    pub progress: Option<String>,
}

impl Runtime {
    /// Plans a dispatch; when every planned hook is a callback of the host's that runs beside
    /// the others, the host runs them itself ([`Started::Round`]). Call it inside a tokio
    /// runtime, as [`Runtime::dispatch`] runs: outbound webhooks start their own tasks.
    pub fn start(&self, req: DispatchRequest, cancel: &CancellationToken) -> Result<Started, DispatchError> {
        let planned = match self.begin(req, cancel)? {
            Begun::Done(result) => return Ok(Started::Done(result)),
            Begun::Planned(p) => p,
        };
        if !self.host_runs(&planned) {
            return Ok(Started::Planned(planned));
        }
        let reports = planned.reports_progress();
        let calls = planned
            .plan
            .iter()
            .filter_map(|hook| {
                let HandlerSpec::Callback { id, .. } = hook.handler else { return None };
                let (input_json, timeout_secs) = planned.ctx.callback_call(&self.opts, hook);
                // (A `Progress` is strings and a number: it is always written.)
                let progress =
                    reports.then(|| Progress::of("start", hook, 0)).and_then(|p| serde_json::to_string(&p).ok());
                Some(RoundCall { id, input_json, timeout: wait_of(timeout_secs), timeout_secs, progress })
            })
            .collect();
        Ok(Started::Round(HostRound { planned, calls, started: Instant::now() }))
    }

    /// Whether the host runs this dispatch's hooks: callbacks only, none `async`, and all at
    /// once (the runtime's `concurrency` allows it, or there is one).
    fn host_runs(&self, p: &Planned) -> bool {
        self.shared.callbacks.is_some()
            && !p.plan.is_empty()
            && (p.plan.len() == 1 || self.opts.policy.concurrency != Concurrency::Serial)
            && p.plan.iter().all(|h: &Arc<Hook>| {
                matches!(h.handler, HandlerSpec::Callback { .. })
                    && !h.family.is_async
                    && h.harness.order == Order::Parallel
            })
    }

    /// Folds a host round from the answers the host collected, one per call in order (a
    /// missing answer is a throw). Fails when the runtime closed meanwhile.
    pub fn finish_round(
        &self,
        round: HostRound,
        answers: impl IntoIterator<Item = Answer>,
    ) -> Result<DispatchResult, DispatchError> {
        if self.is_closed() {
            return Err(DispatchError::Closed);
        }
        let HostRound { planned, calls, started } = round;
        let mut answers = answers.into_iter();
        let runs = planned
            .plan
            .iter()
            .zip(&calls)
            .filter_map(|(hook, call)| {
                let HandlerSpec::Callback { name, .. } = &hook.handler else { return None };
                let answer = answers.next().unwrap_or_else(|| Answer::Threw("the host gave no answer".into()));
                let label = || crate::vocab::text::secs_label(call.timeout_secs);
                let result = callback::read(name, answer, &label);
                crate::runtime::execute::conclude(
                    &self.opts.policy,
                    hook.clone(),
                    result,
                    planned.ctx.canonical,
                    started,
                )
            })
            .collect();
        Ok(self.finish(planned, runs))
    }
}
