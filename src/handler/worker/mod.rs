//! Persistent hook workers: a hook process started once that answers request after request
//! over JSON lines, so a matched hook costs a pipe round trip instead of a process spawn.
//!
//! Protocol (README "Persistent workers"): hookrt writes `{"id", "event", "payload"}` per
//! line on the worker's stdin; the worker answers `{"id", "exitCode", "stdout", "stderr"}` per
//! line on stdout, in any order, several in flight. An answer is decoded exactly like a
//! command hook's run with that exit code and output.
//!
//! One worker process per distinct hook (command, cwd, environment) per runtime ([`Pool`]);
//! each has a supervisor task ([`live`]) owning the process tree, which restarts nothing by
//! itself: the next request starts a fresh worker, with crash backoff and a cap.

mod answer_loop;
mod live;
pub(crate) mod wire;

use super::process::Program;
use super::{Failure, RunCtx};
use crate::vocab::{Raw, WorkerSettings};
use indexmap::{Equivalent, IndexMap};
use live::Live;
use rustc_hash::FxBuildHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

#[cfg(feature = "napi")]
pub(crate) use answer_loop::AnswerLoop;
pub(crate) use answer_loop::HostLoop;
pub(crate) use live::kill_all_now;

/// Restarts after crashes allowed within [`CRASH_WINDOW`]; past that the worker is broken
/// until the next reload.
const MAX_RESTARTS: usize = 5;
const CRASH_WINDOW: Duration = Duration::from_secs(60);
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// What makes two worker hooks the same process.
#[derive(Debug, Clone)]
pub(crate) struct WorkerKey {
    pub command: String,
    pub args: Option<Vec<String>>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub shell: crate::vocab::Shell,
    /// The environment the worker starts from when not this process's (`hookrt serve`: the
    /// session's), per-dispatch variables left out.
    pub base: Option<super::BaseEnv>,
}

/// Variables that change from dispatch to dispatch: a worker outlives them.
const PER_DISPATCH: &[&str] = &[
    "CLAUDE_ENV_FILE",
    "CLAUDE_CODE_SESSION_ID",
    "GEMINI_SESSION_ID",
    "GEMINI_PLANS_DIR",
    "GEMINI_CWD",
    "HERMES_SESSION_ID",
];

/// Marks a worker's environment (and every key's): a script can tell it runs as a worker.
const WORKER_VAR: (&str, &str) = ("HOOKRT_WORKER", "1");

/// A worker key as one run has it, borrowed: a request to a running worker finds its slot by
/// this, without copying the hook's command and environment into a [`WorkerKey`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyRef<'a> {
    command: &'a str,
    args: Option<&'a [String]>,
    cwd: &'a Path,
    /// The run's environment, per-dispatch variables still in.
    run_env: &'a [(String, String)],
    /// The hook's own `env`.
    hook_env: &'a [(String, String)],
    shell: crate::vocab::Shell,
    /// The environment the run starts from, when not this process's.
    base: Option<&'a [(String, String)]>,
}

impl<'a> KeyRef<'a> {
    /// The key of a hook run: its program, the run's cwd and the hook's environment (without
    /// per-dispatch variables such as `CLAUDE_ENV_FILE`).
    pub(crate) fn of(
        command: &'a str,
        args: Option<&'a [String]>,
        env: &'a [(String, String)],
        ctx: &'a RunCtx<'_>,
    ) -> Self {
        let base = ctx.base_env.as_deref();
        KeyRef { command, args, cwd: &ctx.cwd, run_env: &ctx.env, hook_env: env, shell: ctx.shell, base }
    }

    fn parts(&self) -> (&'a str, Option<&'a [String]>, &'a Path, crate::vocab::Shell) {
        (self.command, self.args, self.cwd, self.shell)
    }

    /// The worker's environment, in order: the run's lasting variables, the hook's, the marker.
    fn env(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let lasting = self.run_env.iter().filter(|(k, _)| !PER_DISPATCH.contains(&k.as_str()));
        lasting.chain(self.hook_env).map(|(k, v)| (k.as_str(), v.as_str())).chain(std::iter::once(WORKER_VAR))
    }

    /// The lasting part of the environment the run starts from.
    fn base(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let lasting = self.base.into_iter().flatten().filter(|(k, _)| !PER_DISPATCH.contains(&k.as_str()));
        lasting.map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub(crate) fn to_owned(self) -> WorkerKey {
        WorkerKey {
            command: self.command.to_owned(),
            args: self.args.map(<[String]>::to_vec),
            cwd: self.cwd.to_path_buf(),
            env: self.env().map(|(k, v)| (k.to_owned(), v.to_owned())).collect(),
            shell: self.shell,
            base: self.base.map(|_| self.base().map(|(k, v)| (k.to_owned(), v.to_owned())).collect()),
        }
    }
}

/// The one hash of a key's parts, owned or borrowed (they must agree for the lookup by
/// [`KeyRef`] to find a [`WorkerKey`]).
fn hash_key<'e, H: Hasher>(
    (command, args, cwd, shell): (&str, Option<&[String]>, &Path, crate::vocab::Shell),
    env: impl Iterator<Item = (&'e str, &'e str)>,
    base: Option<impl Iterator<Item = (&'e str, &'e str)>>,
    h: &mut H,
) {
    command.hash(h);
    args.hash(h);
    cwd.hash(h);
    shell.hash(h);
    let mut n = 0usize;
    for (k, v) in env {
        k.hash(h);
        v.hash(h);
        n += 1;
    }
    h.write_usize(n);
    if let Some(base) = base {
        for (k, v) in base {
            k.hash(h);
            v.hash(h);
        }
    }
}

impl WorkerKey {
    fn parts(&self) -> (&str, Option<&[String]>, &Path, crate::vocab::Shell) {
        (&self.command, self.args.as_deref(), &self.cwd, self.shell)
    }

    fn env(&self) -> impl Iterator<Item = (&str, &str)> {
        self.env.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    fn base(&self) -> Option<impl Iterator<Item = (&str, &str)>> {
        self.base.as_deref().map(|b| b.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    fn program(&self) -> Program {
        match &self.args {
            Some(a) => Program::Exec(self.command.clone(), a.clone()),
            None => Program::Shell(self.shell, self.command.clone()),
        }
    }
}

impl Hash for WorkerKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_key(self.parts(), self.env(), self.base(), h);
    }
}

impl PartialEq for WorkerKey {
    fn eq(&self, o: &Self) -> bool {
        self.parts() == o.parts() && self.env == o.env && self.base == o.base
    }
}

impl Eq for WorkerKey {}

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_key(self.parts(), self.env(), self.base.map(|_| self.base()), h);
    }
}

impl Equivalent<WorkerKey> for KeyRef<'_> {
    fn equivalent(&self, k: &WorkerKey) -> bool {
        let base = match (self.base, k.base()) {
            (None, None) => true,
            (Some(_), Some(owned)) => self.base().eq(owned),
            _ => false,
        };
        self.parts() == k.parts() && self.env().eq(k.env()) && base
    }
}

/// Every worker of one runtime.
#[derive(Default)]
pub(crate) struct Pool {
    /// Looked up on every request by a borrowed [`KeyRef`], Fx-hashed: a key of a dozen
    /// strings from the user's own config (no untrusted keys to defend against).
    slots: Mutex<IndexMap<WorkerKey, Arc<Slot>, FxBuildHasher>>,
    /// Cancelled by the runtime's `close()`: every worker stops, none starts.
    closed: CancellationToken,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("worker::Pool")
    }
}

/// One distinct worker: its queue and its current process, if any.
struct Slot {
    hook_id: String,
    key: WorkerKey,
    settings: WorkerSettings,
    in_flight: tokio::sync::Semaphore,
    state: Mutex<State>,
    /// Serializes starts, so concurrent first requests share one process.
    starting: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct State {
    live: Option<Arc<Live>>,
    /// Unrequested exits within the last minute.
    crashes: VecDeque<Instant>,
    backoff: Duration,
    /// Restarted too often: requests fail until the next reload.
    broken: bool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Pool {
    /// A pool whose workers all stop when `closed` fires.
    pub(crate) fn new(closed: CancellationToken) -> Self {
        Pool { slots: Mutex::default(), closed }
    }

    /// The worker for `key`, created on first use. The key is copied only then: a request to
    /// a running worker only hashes and compares it.
    fn slot(&self, hook_id: &str, key: KeyRef<'_>, settings: WorkerSettings) -> Arc<Slot> {
        let mut slots = lock(&self.slots);
        if let Some(s) = slots.get(&key) {
            return s.clone();
        }
        let key = key.to_owned();
        let slot = Arc::new(Slot {
            hook_id: hook_id.to_owned(),
            key: key.clone(),
            settings,
            in_flight: tokio::sync::Semaphore::new(settings.max_in_flight.max(1)),
            state: Mutex::default(),
            starting: tokio::sync::Mutex::new(()),
        });
        slots.insert(key, slot.clone());
        slot
    }

    /// Sends one request and waits for its answer, the timeout or the host's abort.
    pub(crate) async fn request(
        &self,
        hook: &crate::config::Hook,
        key: KeyRef<'_>,
        settings: WorkerSettings,
        ctx: &RunCtx<'_>,
    ) -> Result<Raw, Failure> {
        let slot = self.slot(&hook.id, key, settings);
        let deadline = Instant::now() + ctx.timeout;
        let _permit = tokio::select! {
            biased;
            _ = ctx.cancel.cancelled() => return Err(Failure::Aborted),
            _ = tokio::time::sleep_until(deadline) => return Err(timed_out(ctx)),
            p = slot.in_flight.acquire() => p.map_err(|_| Failure::Aborted)?,
        };
        let live = slot.live(ctx, &self.closed).await?;
        let (id, answer) = live.send(&hook.event, &ctx.input_json).await?;
        tokio::select! {
            biased;
            _ = ctx.cancel.cancelled() => {
                live.forget(id);
                Err(Failure::Aborted)
            }
            a = answer => match a {
                Ok(Ok(raw)) => Ok(raw),
                Ok(Err(why)) => Err(why),
                Err(_) => Err(Failure::Worker("worker exited".into())),
            },
            _ = tokio::time::sleep_until(deadline) => {
                live.forget(id);
                live.kill("worker restarted");
                Err(timed_out(ctx))
            }
        }
    }

    /// Starts a `warm` worker now (at load) rather than on its first match.
    pub(crate) async fn warm(
        &self,
        hook: &crate::config::Hook,
        key: KeyRef<'_>,
        settings: WorkerSettings,
        ctx: &RunCtx<'_>,
    ) {
        let slot = self.slot(&hook.id, key, settings);
        match slot.live(ctx, &self.closed).await {
            Ok(_) | Err(Failure::Aborted) => {}
            Err(e) => tracing::warn!(hook = %hook.id, "cannot start worker: {e}"),
        }
    }

    /// After a reload: stops the workers whose hook changed or disappeared and forgives the
    /// crash history of the others.
    pub(crate) fn retain(&self, keep: impl Fn(&WorkerKey) -> bool) {
        let mut slots = lock(&self.slots);
        slots.retain(|key, slot| {
            let mut st = lock(&slot.state);
            if keep(key) {
                st.broken = false;
                st.crashes.clear();
                st.backoff = Duration::ZERO;
                return true;
            }
            if let Some(l) = st.live.take() {
                l.stop_gracefully("worker stopped: its hook was removed by a reload");
            }
            false
        });
    }

    /// Live worker processes (tests and `doctor`).
    pub(crate) fn live_count(&self) -> usize {
        lock(&self.slots).values().filter(|s| lock(&s.state).live.as_ref().is_some_and(|l| !l.is_ending())).count()
    }

    /// Stops every worker (stdin closed, the kill grace, then the tree kill).
    pub(crate) fn stop_all(&self) {
        for slot in lock(&self.slots).values() {
            if let Some(l) = lock(&slot.state).live.take() {
                l.stop_gracefully("worker stopped");
            }
        }
    }
}

fn timed_out(ctx: &RunCtx<'_>) -> Failure {
    Failure::Timeout { label: ctx.timeout_label() }
}

impl Slot {
    fn current(&self) -> Option<Arc<Live>> {
        lock(&self.state).live.clone().filter(|l| !l.is_ending())
    }

    /// The running worker, or a fresh one (after the crash backoff), or why there is none.
    async fn live(self: &Arc<Self>, ctx: &RunCtx<'_>, closed: &CancellationToken) -> Result<Arc<Live>, Failure> {
        if let Some(l) = self.current() {
            return Ok(l);
        }
        let _starting = tokio::select! {
            biased;
            _ = ctx.cancel.cancelled() => return Err(Failure::Aborted),
            g = self.starting.lock() => g,
        };
        if let Some(l) = self.current() {
            return Ok(l);
        }
        if closed.is_cancelled() {
            return Err(Failure::Aborted);
        }
        let wait_until = {
            let mut st = lock(&self.state);
            let now = Instant::now();
            while st.crashes.front().is_some_and(|t| now.duration_since(*t) >= CRASH_WINDOW) {
                st.crashes.pop_front();
            }
            if st.crashes.len() > MAX_RESTARTS {
                st.broken = true;
            }
            if st.broken {
                return Err(Failure::Worker(format!("worker {} keeps crashing", self.hook_id)));
            }
            st.crashes.back().map(|t| *t + st.backoff)
        };
        if let Some(t) = wait_until {
            tokio::select! {
                biased;
                _ = ctx.cancel.cancelled() => return Err(Failure::Aborted),
                _ = tokio::time::sleep_until(t) => {}
            }
        }
        let weak = Arc::downgrade(self);
        let on_crash = move |answered: bool| {
            if let Some(slot) = weak.upgrade() {
                slot.crashed(answered);
            }
        };
        let live = Live::start(&self.hook_id, &self.key, self.key.program(), self.settings, ctx, closed, on_crash)?;
        lock(&self.state).live = Some(live.clone());
        Ok(live)
    }

    /// The worker exited without being asked: count it, grow the backoff (reset when the
    /// worker had answered something, i.e. it was healthy for a while).
    fn crashed(&self, answered: bool) {
        let mut st = lock(&self.state);
        st.live = None;
        st.crashes.push_back(Instant::now());
        st.backoff = if answered || st.backoff.is_zero() { FIRST_BACKOFF } else { (st.backoff * 2).min(MAX_BACKOFF) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash(v: &impl Hash) -> u64 {
        FxBuildHasher.hash_one(v)
    }

    fn kv(k: &str, v: &str) -> (String, String) {
        (k.to_owned(), v.to_owned())
    }

    #[test]
    fn a_borrowed_key_finds_its_owned_key_and_no_other() {
        let run_env = [kv("CLAUDE_PROJECT_DIR", "/p"), kv("CLAUDE_CODE_SESSION_ID", "s1")];
        let hook_env = [kv("A", "1")];
        let args = ["x.js".to_owned()];
        let key = |run_env, hook_env, args, cwd| KeyRef {
            command: "node",
            args,
            cwd: Path::new(cwd),
            run_env,
            hook_env,
            shell: crate::vocab::Shell::Sh,
            base: None,
        };
        let k = key(&run_env[..], &hook_env[..], Some(&args[..]), "/p");
        let owned = k.to_owned();
        let names: Vec<&str> = owned.env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["CLAUDE_PROJECT_DIR", "A", "HOOKRT_WORKER"], "per-dispatch variables left out");
        assert!(k.equivalent(&owned));
        assert_eq!(hash(&k), hash(&owned));
        // Another session: the same worker.
        let other_session = [kv("CLAUDE_PROJECT_DIR", "/p"), kv("CLAUDE_CODE_SESSION_ID", "s2")];
        let k2 = key(&other_session[..], &hook_env[..], Some(&args[..]), "/p");
        assert!(k2.equivalent(&owned) && hash(&k2) == hash(&owned));
        // Anything else that differs: another worker.
        let other_env = [kv("A", "2")];
        for differs in [
            key(&run_env[..], &other_env[..], Some(&args[..]), "/p"),
            key(&run_env[..], &hook_env[..], None, "/p"),
            key(&run_env[..], &hook_env[..], Some(&args[..]), "/q"),
            key(&run_env[..1], &[], Some(&args[..]), "/p"),
        ] {
            assert!(!differs.equivalent(&owned), "{differs:?}");
        }
        let mut slots: IndexMap<WorkerKey, u8, FxBuildHasher> = IndexMap::default();
        slots.insert(owned, 1);
        assert_eq!(slots.get(&k2), Some(&1));
        assert_eq!(slots.get(&key(&run_env[..], &other_env[..], Some(&args[..]), "/p")), None);
    }

    /// Under `hookrt serve` a worker starts from the calling session's environment: sessions
    /// whose environments differ get their own worker, per-dispatch variables aside.
    #[test]
    fn a_session_environment_is_part_of_a_workers_key() {
        let run_env = [kv("CLAUDE_PROJECT_DIR", "/p")];
        let strict = [kv("HOOK_SAFETY_LEVEL", "strict"), kv("CLAUDE_ENV_FILE", "/t/1")];
        let strict_later = [kv("HOOK_SAFETY_LEVEL", "strict"), kv("CLAUDE_ENV_FILE", "/t/2")];
        let lax = [kv("HOOK_SAFETY_LEVEL", "lax"), kv("CLAUDE_ENV_FILE", "/t/1")];
        let key = |base| KeyRef {
            command: "node w.js",
            args: None,
            cwd: Path::new("/p"),
            run_env: &run_env[..],
            hook_env: &[],
            shell: crate::vocab::Shell::Sh,
            base,
        };
        let owned = key(Some(&strict[..])).to_owned();
        assert_eq!(owned.base.as_deref(), Some(&strict[..1]), "per-dispatch variables left out");
        let later = key(Some(&strict_later[..]));
        assert!(later.equivalent(&owned) && hash(&later) == hash(&owned));
        for differs in [key(Some(&lax[..])), key(None)] {
            assert!(!differs.equivalent(&owned), "{differs:?}");
        }
        assert!(!key(Some(&strict[..])).to_owned().eq(&key(None).to_owned()));
    }
}
