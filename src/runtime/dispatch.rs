//! One dispatch, from the host's request to its result: plan the hooks (the host's callbacks,
//! then the files'), admit them (`if` rules, `once`), run them (`run_plan.rs`), settle each run
//! and let each harness aggregate its own, fold across harnesses, record the history line.

use crate::config::Hook;
use crate::contract::fold;
use crate::load::Loaded;
use crate::runtime::options::Resolved;
use crate::runtime::request::{DispatchCtx, DispatchError, DispatchRequest, DispatchResult, Run};
use crate::runtime::{lock, Runtime, MAX_ONCE};
use crate::vocab::{DispatchEvent, RunOutcome};
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

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
            return Ok(empty);
        }
        let mut ctx = DispatchCtx::new(&self.opts, ev.canonical, payload, cwd);
        ctx.base_env = env;
        ctx.loop_count = self.stop_guard.count(&ticket);
        ctx.session = session_facts;
        let plan = self.admit(plan, &ctx, &session);
        let mut runs = self.run_plan(&plan, &ctx, cancel, progress.as_ref(), &session).await?;
        settle(&mut runs, &ctx, self.opts.policy.fidelity);
        let rewake = delivered.iter().find_map(|d| d.rewake.clone());
        runs.extend(delivered.into_iter().map(|d| d.run));
        let mut outcome = fold(runs.iter().map(|r| &r.outcome), ev.canonical, separator(&runs, &self.opts));
        outcome.rewake = rewake;
        if let Some(f) = &ctx.env_files {
            outcome.env = f.take_exports();
        }
        self.stop_guard.settle(&ticket, Some(&mut outcome));
        tracing::debug!(
            target: "hookrt::dispatch",
            event = %event,
            canonical = ev.canonical.as_str(),
            runs = runs.len(),
            decision = ?outcome.decision,
            duration_ms = started.elapsed().as_millis() as u64,
            "dispatch finished"
        );
        self.record(&loaded, (&event, ev.canonical), (&outcome, &runs), started, &ctx.payload);
        Ok(DispatchResult { canonical: ev.canonical, outcome, runs })
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
        let mut own: Vec<&mut RunOutcome> =
            runs.iter_mut().filter(|r| r.hook.dialect == d).map(|r| &mut r.outcome).collect();
        crate::harness::of(d).aggregate(ctx.canonical, &mut own);
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
