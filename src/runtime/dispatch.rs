//! One dispatch, from the host's request to its result: plan the hooks (the host's callbacks,
//! then the files'), admit them (`if` rules, `once`), run them (`run_plan.rs`), settle each run
//! and let each harness aggregate its own, fold across harnesses, record the history line.

use crate::config::Hook;
use crate::contract::fold;
use crate::load::Loaded;
use crate::runtime::background::Finished;
use crate::runtime::options::Resolved;
use crate::runtime::request::{DispatchCtx, DispatchError, DispatchRequest, DispatchResult, ProgressSink, Run};
use crate::runtime::stop_guard::StopTicket;
use crate::runtime::{lock, Runtime, MAX_ONCE};
use crate::vocab::{CanonicalEvent, DispatchEvent, RunOutcome};
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// A dispatch after its synchronous first part ([`Runtime::begin`]).
pub(crate) enum Begun {
    /// No hook runs: the result is final.
    Done(DispatchResult),
    /// Hooks are planned and admitted; they run next.
    Planned(Planned),
}

/// A dispatch planned and admitted, its hooks not run yet: what its last part needs.
pub struct Planned {
    event: String,
    canonical: CanonicalEvent,
    started: std::time::Instant,
    ticket: StopTicket,
    loaded: Arc<Loaded>,
    session: String,
    delivered: Vec<Finished>,
    pub(crate) ctx: DispatchCtx,
    /// The hooks that run, the host's callbacks first.
    pub(crate) plan: Vec<Arc<Hook>>,
    progress: Option<ProgressSink>,
}

impl Planned {
    /// Whether the host asked to be told when each hook starts and ends.
    pub(crate) fn reports_progress(&self) -> bool {
        self.progress.is_some()
    }
}

impl Runtime {
    /// The hooks to run: the host's callbacks first (its own), then the files', in their order.
    fn plan(
        &self,
        loaded: &Loaded,
        ev: DispatchEvent,
        payload: &Map<String, Value>,
        subject: Option<&str>,
    ) -> Vec<Arc<Hook>> {
        match self.host_hooks.table() {
            Some(host) => {
                let mut plan = host.plan(ev, subject, payload);
                plan.extend(loaded.table.plan(ev, subject, payload));
                plan
            }
            None => loaded.table.plan(ev, subject, payload),
        }
    }

    /// Whether a dispatch of this event writes a history line for hooks left out for trust.
    pub(super) fn records_skips(&self, ev: DispatchEvent) -> bool {
        self.history.is_some() && self.loaded().skipped_for(ev.canonical).next().is_some()
    }

    /// Runs every matching hook and folds their answers: plan, run, fold, settle.
    pub async fn dispatch(
        &self,
        req: DispatchRequest,
        cancel: &CancellationToken,
    ) -> Result<DispatchResult, DispatchError> {
        match self.begin(req, cancel)? {
            Begun::Done(result) => Ok(result),
            Begun::Planned(planned) => self.run_planned(planned, cancel).await,
        }
    }

    /// The first, synchronous part of a dispatch: the event resolved, the session's facts
    /// observed, the hooks planned and admitted. A dispatch no hook joins is done here.
    pub(crate) fn begin(&self, req: DispatchRequest, cancel: &CancellationToken) -> Result<Begun, DispatchError> {
        if self.is_closed() {
            return Err(DispatchError::Closed);
        }
        let ev = Self::resolve_event(&req.event)?;
        if cancel.is_cancelled() {
            return Err(DispatchError::Aborted);
        }
        let started = std::time::Instant::now();
        let DispatchRequest { event, mut payload, subject, cwd, progress, env } = req;
        let ticket = self.stop_guard.prepare(ev.canonical, &mut payload);
        let loaded = self.loaded();
        let targets = loaded.table.outbound_for(ev.canonical);
        let host_cwd = || cwd.clone().unwrap_or_else(|| crate::vocab::text::path_text(&self.opts.policy.cwd));
        self.outbound.notify(targets, ev.canonical, &payload, host_cwd, &self.shared);
        let session = crate::harness::session_of(&payload).to_owned();
        let continuing = self.stop_guard.was_blocked(&session);
        let session_facts = self.sessions.observe(ev.canonical, &payload, continuing);
        let delivered = self.background.take(&session);
        let plan = self.plan(&loaded, ev, &payload, subject.as_deref().or_else(|| ev.canonical.subject_of(&payload)));
        if plan.is_empty() && delivered.is_empty() {
            self.stop_guard.settle(&ticket, None);
            let empty = DispatchResult::empty(ev.canonical);
            // A dispatch whose hooks were all left out for trust is still a line of history.
            if loaded.skipped_for(ev.canonical).next().is_some() {
                self.record(&loaded, (&event, ev.canonical), (&empty.outcome, &[]), started, &payload);
            }
            return Ok(Begun::Done(empty));
        }
        let mut ctx = DispatchCtx::new(&self.opts, ev.canonical, payload, cwd);
        ctx.base_env = env;
        ctx.loop_count = self.stop_guard.count(&ticket);
        ctx.session = session_facts;
        let plan = self.admit(plan, &ctx, &session);
        Ok(Begun::Planned(Planned {
            event,
            canonical: ev.canonical,
            started,
            ticket,
            loaded,
            session,
            delivered,
            ctx,
            plan,
            progress,
        }))
    }

    /// Runs a planned dispatch's hooks, until done, the host's abort or `close()`, and folds.
    pub async fn run_planned(
        &self,
        planned: Planned,
        cancel: &CancellationToken,
    ) -> Result<DispatchResult, DispatchError> {
        let p = &planned;
        let runs = self.run_plan(&p.plan, &p.ctx, cancel, p.progress.as_ref(), &p.session).await?;
        Ok(self.finish(planned, runs))
    }

    /// The last, synchronous part of a dispatch: each run settled its harness's way, the
    /// background runs delivered, the fold, the stop guard, the history line.
    pub(crate) fn finish(&self, planned: Planned, mut runs: Vec<Run>) -> DispatchResult {
        let Planned { event, canonical, started, ticket, loaded, delivered, ctx, .. } = planned;
        settle(&mut runs, &ctx, self.opts.policy.fidelity);
        let rewake = delivered.iter().find_map(|d| d.rewake.clone());
        runs.extend(delivered.into_iter().map(|d| d.run));
        let mut outcome = fold(runs.iter().map(|r| &r.outcome), canonical, separator(&runs, &self.opts));
        outcome.rewake = rewake;
        if let Some(f) = &ctx.env_files {
            outcome.env = f.take_exports();
        }
        self.stop_guard.settle(&ticket, Some(&mut outcome));
        tracing::debug!(
            target: "hookrt::dispatch",
            event = %event,
            canonical = canonical.as_str(),
            runs = runs.len(),
            decision = ?outcome.decision,
            duration_ms = started.elapsed().as_millis() as u64,
            "dispatch finished"
        );
        self.record(&loaded, (&event, canonical), (&outcome, &runs), started, &ctx.payload);
        DispatchResult { canonical, outcome, runs }
    }

    /// The dispatch's history line, with the hooks of its event left out for trust.
    fn record(
        &self,
        loaded: &Loaded,
        (event, canonical): (&str, crate::vocab::CanonicalEvent),
        (outcome, runs): (&crate::contract::Outcome, &[Run]),
        started: std::time::Instant,
        payload: &Map<String, Value>,
    ) {
        let Some(h) = &self.history else { return };
        let skipped: Vec<_> = loaded.skipped_for(canonical).cloned().collect();
        h.record((event, canonical), outcome, (runs, skipped), started, payload);
    }

    /// The planned hooks that really run: their `if` rule admits the call and a `once` hook
    /// has not run for this session yet.
    fn admit(&self, plan: Vec<Arc<Hook>>, ctx: &DispatchCtx, session: &str) -> Vec<Arc<Hook>> {
        let home = &self.opts.load.home;
        plan.into_iter()
            .filter(|h| ctx.if_admits(h, home))
            .filter(|h| {
                if !h.family.once {
                    return true;
                }
                let mut seen = lock(&self.once_seen);
                if seen.len() >= MAX_ONCE {
                    seen.clear();
                }
                seen.insert((h.id.clone(), session.to_owned()))
            })
            .collect()
    }
}

/// The first step of the fold: each run settled as its harness settles it (input updates
/// applied its way, Cursor's `loop_limit`), then each harness's [`Aggregator`] makes that
/// harness's decision from its own runs — except under the `listen` contract, whose fold takes
/// every run as it is. The second step, across harnesses, is `contract::fold`.
///
/// [`Aggregator`]: crate::harness::parts::Aggregator
fn settle(runs: &mut [Run], ctx: &DispatchCtx, fidelity: crate::vocab::Fidelity) {
    let mut dialects: Vec<crate::vocab::Dialect> = Vec::new();
    for r in runs.iter_mut() {
        let h = crate::harness::of(r.hook.dialect);
        if let Some(u) = r.outcome.update_input.take() {
            r.outcome.update_input = Some(h.update_input(ctx.payload.get("tool_input"), u));
        }
        h.settle(&r.hook, &mut r.outcome, ctx.loop_count);
        if !dialects.contains(&r.hook.dialect) {
            dialects.push(r.hook.dialect);
        }
    }
    if fidelity == crate::vocab::Fidelity::Contract {
        return;
    }
    for d in dialects {
        let h = crate::harness::of(d);
        let mut own: Vec<&mut Run> = runs.iter_mut().filter(|r| r.hook.dialect == d).collect();
        if h.answer_order(ctx.canonical) {
            own.sort_by_key(|r| r.ended);
        }
        // (Collected in place: a reference to a run and to its outcome are the same size.)
        let mut own: Vec<&mut RunOutcome> = own.into_iter().map(|r| &mut r.outcome).collect();
        h.aggregate(ctx.canonical, &mut own);
    }
}

/// How the reasons of these runs are joined: their harness's way when they are all of harnesses
/// that agree on it, else — and always under the `listen` contract — a blank line.
fn separator(runs: &[Run], opts: &Resolved) -> &'static str {
    if opts.policy.fidelity == crate::vocab::Fidelity::Contract {
        return "\n\n";
    }
    let mut seps = runs.iter().map(|r| crate::harness::of(r.hook.dialect).reason_separator());
    match seps.next() {
        Some(first) if seps.all(|s| s == first) => first,
        _ => "\n\n",
    }
}
