//! One running worker process: the requests waiting for answers, the stdin writer, and the
//! supervisor task that owns the process tree and ends it (on exit, a timeout, idleness,
//! reload or close), failing whatever is still in flight.

use crate::handler::process::{self, tree::ProcessTree, ProcSpec, Program, KILL_GRACE};
use crate::handler::worker::wire;
use crate::handler::worker::{HostLoop, WorkerKey};
use crate::handler::{Failure, RunCtx};
use crate::vocab::Raw;
use crate::vocab::WorkerSettings;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin};
use tokio::sync::oneshot;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Longest answer line kept; longer ones are logged and dropped.
const LINE_CAP: usize = 4 * 1024 * 1024;
/// Worker stderr kept for answers that name none.
const STDERR_CAP: usize = 64 * 1024;

type Reply = oneshot::Sender<Result<Raw, Failure>>;

/// Process groups of every live worker in this process, for [`kill_all_now`].
fn groups() -> &'static Mutex<HashSet<i32>> {
    static G: OnceLock<Mutex<HashSet<i32>>> = OnceLock::new();
    G.get_or_init(Default::default)
}

/// SIGKILLs every worker process group at once. The JS wrapper calls it when Node exits,
/// when no async code (and so no supervisor) runs any more.
pub(crate) fn kill_all_now() {
    let gs: Vec<i32> = crate::handler::worker::lock(groups()).drain().collect();
    for g in gs {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(g), nix::sys::signal::Signal::SIGKILL);
    }
}

/// A running worker.
pub(crate) struct Live {
    hook_id: String,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    /// Requests waiting for answers; `Err(why)` once the worker has ended.
    pending: Mutex<Result<HashMap<u64, Reply>, Failure>>,
    next_id: AtomicU64,
    /// Kill now (a timeout): the supervisor ends the tree; in-flight requests get `why`.
    kill: CancellationToken,
    /// Stop gracefully (reload, `stop_all`): stdin closed, grace, tree kill.
    stop: CancellationToken,
    why: Mutex<Option<String>>,
    last_used: Mutex<Instant>,
    stderr: Mutex<String>,
    answered: AtomicBool,
}

impl Live {
    /// Spawns the worker and its supervisor.
    pub(crate) fn start(
        hook_id: &str,
        key: &WorkerKey,
        program: Program,
        settings: WorkerSettings,
        ctx: &RunCtx<'_>,
        closed: &tokio_util::sync::CancellationToken,
        on_crash: impl FnOnce(bool) + Send + 'static,
    ) -> Result<Arc<Live>, Failure> {
        let spec = ProcSpec {
            program,
            cwd: key.cwd.clone(),
            env: key.env.clone(),
            env_remove: ctx.policy.removed_env.clone(),
            stdin: Vec::new(),
            timeout: ctx.timeout,
            timeout_label: ctx.timeout_label(),
            output_cap: ctx.policy.output_cap,
            reap_orphans: ctx.policy.reap_orphans,
            base_env: key.base.clone(),
        };
        let (mut cmd, marker) = process::command(&spec);
        let mut child = cmd.spawn().map_err(|e| process::start_error(e, &spec))?;
        let tree = ProcessTree::new(child.id(), marker, spec.reap_orphans);
        if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
            crate::handler::worker::lock(groups()).insert(pid);
        }
        tracing::debug!(hook = %hook_id, pid = child.id(), "worker started");
        let live = Arc::new(Live {
            hook_id: hook_id.to_owned(),
            stdin: tokio::sync::Mutex::new(child.stdin.take()),
            pending: Mutex::new(Ok(HashMap::new())),
            next_id: AtomicU64::new(1),
            kill: CancellationToken::new(),
            stop: CancellationToken::new(),
            why: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
            stderr: Mutex::default(),
            answered: AtomicBool::new(false),
        });
        let out = child.stdout.take();
        let err = child.stderr.take();
        let idle = Duration::try_from_secs_f64(settings.idle_timeout).unwrap_or(Duration::MAX);
        tokio::spawn(supervise(live.clone(), child, tree, idle, closed.clone(), on_crash));
        if let Some(out) = out {
            read_on(ctx.shared.answer_loop.as_ref(), live.clone(), out);
        }
        if let Some(err) = err {
            tokio::spawn(read_stderr(live.clone(), err));
        }
        Ok(live)
    }

    /// Whether the worker is being (or has been) stopped; a new request starts a fresh one.
    pub(crate) fn is_ending(&self) -> bool {
        self.kill.is_cancelled() || self.stop.is_cancelled()
    }

    /// Writes one request; returns its id and where its answer will arrive.
    pub(crate) async fn send(
        &self,
        event: &str,
        payload_json: &str,
    ) -> Result<(u64, oneshot::Receiver<Result<Raw, Failure>>), Failure> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        match &mut *crate::handler::worker::lock(&self.pending) {
            Ok(m) => {
                m.insert(id, tx);
            }
            Err(why) => return Err(why.clone()),
        }
        *crate::handler::worker::lock(&self.last_used) = Instant::now();
        let line = wire::request_line(id, event, payload_json);
        let mut stdin = self.stdin.lock().await;
        let written = match stdin.as_mut() {
            Some(w) => w.write_all(&line).await.and(w.flush().await),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        drop(stdin);
        if let Err(e) = written {
            // Usually the worker has just exited: its supervisor answers this request with the
            // exit status (and counts the crash) once it has reaped it.
            tracing::debug!(hook = %self.hook_id, "cannot write a request to the worker: {e}");
        }
        Ok((id, rx))
    }

    /// Drops a request whose caller gave up; its late answer is ignored.
    pub(crate) fn forget(&self, id: u64) {
        if let Ok(m) = &mut *crate::handler::worker::lock(&self.pending) {
            m.remove(&id);
        }
    }

    /// Kills the worker's tree now; requests still in flight fail with `why`.
    pub(crate) fn kill(&self, why: &str) {
        crate::handler::worker::lock(&self.why).get_or_insert_with(|| why.to_owned());
        self.kill.cancel();
    }

    /// Closes stdin, waits the kill grace, then kills the tree.
    pub(crate) fn stop_gracefully(&self, why: &str) {
        crate::handler::worker::lock(&self.why).get_or_insert_with(|| why.to_owned());
        self.stop.cancel();
    }

    /// The worker has ended: what is in flight fails with `why`, and so does any later send.
    fn fail_all(&self, why: &str) {
        let failure = Failure::Worker(why.to_owned());
        let pending = std::mem::replace(&mut *crate::handler::worker::lock(&self.pending), Err(failure.clone()));
        for tx in pending.into_iter().flat_map(HashMap::into_values) {
            let _ = tx.send(Err(failure.clone()));
        }
    }

    fn idle_deadline(&self, idle: Duration) -> Option<Instant> {
        if crate::handler::worker::lock(&self.pending).as_ref().map_or(true, |m| !m.is_empty()) {
            return None;
        }
        crate::handler::worker::lock(&self.last_used).checked_add(idle)
    }
}

/// Owns the process until it ends, for whatever reason, then fails what is in flight.
async fn supervise(
    live: Arc<Live>,
    mut child: Child,
    mut tree: ProcessTree,
    idle: Duration,
    closed: CancellationToken,
    on_crash: impl FnOnce(bool),
) {
    let pid = child.id().and_then(|p| i32::try_from(p).ok());
    let end = wait_for_end(&live, &mut child, idle, &closed).await;
    let why = match end {
        End::Exited(status) => {
            // Descendants may still run: end the group before reporting.
            tree.terminate(Some(&mut child), KILL_GRACE).await;
            tree.kill_escaped().await;
            let why = match status.and_then(|s| s.code().map(|c| format!("code {c}")).or_else(|| signal_of(s))) {
                Some(how) => format!("worker exited ({how})"),
                None => "worker exited".to_owned(),
            };
            tracing::warn!(hook = %live.hook_id, "{why}");
            let answered = live.answered.load(Ordering::Relaxed);
            live.kill.cancel();
            on_crash(answered);
            why
        }
        End::Kill => {
            tree.terminate(Some(&mut child), KILL_GRACE).await;
            tree.kill_escaped().await;
            crate::handler::worker::lock(&live.why).clone().unwrap_or_else(|| "worker restarted".into())
        }
        End::Graceful => {
            live.stop.cancel();
            drop(live.stdin.lock().await.take());
            let exited = tokio::time::timeout(KILL_GRACE, child.wait()).await.is_ok();
            tree.terminate(Some(&mut child), if exited { Duration::ZERO } else { KILL_GRACE }).await;
            tree.kill_escaped().await;
            tracing::debug!(hook = %live.hook_id, "worker stopped");
            crate::handler::worker::lock(&live.why).clone().unwrap_or_else(|| "worker stopped".into())
        }
    };
    if let Some(p) = pid {
        crate::handler::worker::lock(groups()).remove(&p);
    }
    live.fail_all(&why);
}

/// How a worker's life ends.
enum End {
    /// It exited by itself.
    Exited(Option<std::process::ExitStatus>),
    /// Killed at once (a timeout).
    Kill,
    /// Stopped gracefully (reload, `stop_all`, close, idleness).
    Graceful,
}

/// Waits until the worker exits, is told to end, or has been idle long enough.
async fn wait_for_end(live: &Live, child: &mut Child, idle: Duration, closed: &CancellationToken) -> End {
    loop {
        let idle_at = live.idle_deadline(idle);
        let end = tokio::select! {
            biased;
            s = child.wait() => Some(End::Exited(s.ok())),
            _ = live.kill.cancelled() => Some(End::Kill),
            _ = live.stop.cancelled() => Some(End::Graceful),
            _ = closed.cancelled() => Some(End::Graceful),
            // Re-checked every second while busy; ends the worker once idle long enough.
            _ = tokio::time::sleep_until(idle_at.unwrap_or_else(|| Instant::now() + Duration::from_secs(1))) => {
                live.idle_deadline(idle).filter(|t| *t <= Instant::now()).map(|_| End::Graceful)
            }
        };
        if let Some(e) = end {
            return e;
        }
    }
}

fn signal_of(s: std::process::ExitStatus) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    s.signal().map(|n| match nix::sys::signal::Signal::try_from(n) {
        Ok(sig) => format!("signal {}", sig.as_str()),
        Err(_) => format!("signal {n}"),
    })
}

/// Reads the worker's answers on the host's loop when there is one, else on tokio.
fn read_on(host: Option<&HostLoop>, live: Arc<Live>, out: tokio::process::ChildStdout) {
    let Some(HostLoop(host)) = host else {
        tokio::spawn(read_answers(live, out));
        return;
    };
    match out.into_owned_fd() {
        Ok(fd) => host.spawn(Box::pin(read_answers(live, host.pipe(fd)))),
        Err(e) => {
            tracing::warn!(hook = %live.hook_id, "cannot read the worker's answers: {e}");
            live.kill("worker's output cannot be read");
        }
    }
}

/// Routes answer lines to their requests; logs everything else.
async fn read_answers(live: Arc<Live>, out: impl tokio::io::AsyncRead + Unpin) {
    let mut lines = wire::Lines::new(out, LINE_CAP);
    while let Some(line) = lines.next().await {
        let wire::Line::Text(buf) = line else {
            tracing::warn!(hook = %live.hook_id, "worker wrote a line over {LINE_CAP} bytes; ignored");
            continue;
        };
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match wire::parse_answer(&buf) {
            Ok(a) => {
                let Some(tx) = crate::handler::worker::lock(&live.pending).as_mut().ok().and_then(|m| m.remove(&a.id))
                else {
                    tracing::info!(hook = %live.hook_id, id = a.id, "worker answered an unknown or abandoned request");
                    continue;
                };
                live.answered.store(true, Ordering::Relaxed);
                *crate::handler::worker::lock(&live.last_used) = Instant::now();
                let raw = a.into_raw(|| std::mem::take(&mut *crate::handler::worker::lock(&live.stderr)));
                let _ = tx.send(Ok(raw));
            }
            Err(wire::BadLine::NotJson) => {
                tracing::warn!(hook = %live.hook_id, "worker wrote a line that is not JSON: {}", String::from_utf8_lossy(&buf[..buf.len().min(200)]));
            }
            Err(wire::BadLine::NotAnAnswer(e)) => {
                tracing::warn!(hook = %live.hook_id, "worker wrote a line that is not an answer: {e}");
            }
        }
    }
}

/// Logs the worker's stderr and keeps its tail for answers that name no stderr.
async fn read_stderr(live: Arc<Live>, err: tokio::process::ChildStderr) {
    let mut lines = wire::Lines::new(err, STDERR_CAP);
    while let Some(line) = lines.next().await {
        let wire::Line::Text(buf) = line else { continue };
        let line = String::from_utf8_lossy(&buf);
        tracing::info!(hook = %live.hook_id, "worker stderr: {line}");
        let mut kept = crate::handler::worker::lock(&live.stderr);
        if kept.len() + line.len() < STDERR_CAP {
            if !kept.is_empty() {
                kept.push('\n');
            }
            kept.push_str(&line);
        }
    }
}
