//! Running a hook process: its own process group, stdin written without blocking, output
//! captured up to a cap while always draining, and a timeout or abort that kills the whole
//! tree (SIGTERM, a short grace, SIGKILL) and reaps it (docs/security.md). The tree itself lives in
//! [`tree`]; Linux's process-table reads in `procfs`.

#[cfg(target_os = "linux")]
mod procfs;
pub(crate) mod tree;

use super::Failure;
use crate::vocab::{Raw, Shell};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tree::ProcessTree;

/// Out of file descriptors (per process or system-wide).
const EMFILE: i32 = nix::errno::Errno::EMFILE as i32;
const ENFILE: i32 = nix::errno::Errno::ENFILE as i32;

/// Time between SIGTERM and SIGKILL for a hook's process group.
pub(crate) const KILL_GRACE: Duration = Duration::from_millis(100);
/// After the hook's main process exits, how long descendants may keep its pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// What to run.
#[derive(Debug, Clone)]
pub(crate) enum Program {
    /// `<shell> -c <command>`.
    Shell(Shell, String),
    /// A program and its arguments, without a shell.
    Exec(String, Vec<String>),
}

/// A fully resolved process run.
#[derive(Debug, Clone)]
pub(crate) struct ProcSpec {
    pub program: Program,
    pub cwd: PathBuf,
    /// Added to (or replacing) the host environment.
    pub env: Vec<(String, String)>,
    /// Host variables removed from the hook's environment.
    pub env_remove: Vec<String>,
    pub stdin: Vec<u8>,
    pub timeout: Duration,
    /// The timeout as written in messages (`0.4`).
    pub timeout_label: String,
    /// Bytes kept per output stream.
    pub output_cap: usize,
    /// Reap descendants adopted through `PR_SET_CHILD_SUBREAPER` (Linux).
    pub reap_orphans: bool,
    /// The environment the process starts from instead of this process's.
    pub base_env: Option<crate::handler::BaseEnv>,
}

/// Reads a stream to its end, keeping at most `cap` bytes; never stops draining early, so a
/// hook printing gigabytes never blocks on a full pipe.
async fn read_capped<R: AsyncRead + Unpin>(mut r: R, cap: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                if room >= n {
                    kept.extend_from_slice(&buf[..n]);
                } else {
                    kept.extend_from_slice(&buf[..room]);
                    truncated = true;
                }
            }
        }
    }
    (kept, truncated)
}

/// Why a spec's program did not start.
pub(crate) fn start_error(e: std::io::Error, spec: &ProcSpec) -> Failure {
    if !spec.cwd.is_dir() {
        return Failure::MissingCwd(spec.cwd.clone());
    }
    let what = match &spec.program {
        Program::Shell(sh, _) => sh.program().to_owned(),
        Program::Exec(p, _) => p.clone(),
    };
    Failure::start(what, e)
}

/// The command for a spec: its own process group, piped stdio, the spec's cwd and
/// environment, and a fresh per-run marker (returned) in the environment.
pub(crate) fn command(spec: &ProcSpec) -> (tokio::process::Command, String) {
    let mut cmd = match &spec.program {
        Program::Shell(sh, c) => {
            let mut cmd = tokio::process::Command::new(sh.program());
            cmd.arg("-c").arg(c);
            cmd
        }
        Program::Exec(p, args) => {
            let mut cmd = tokio::process::Command::new(p);
            cmd.args(args);
            cmd
        }
    };
    cmd.process_group(0)
        .current_dir(&spec.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(base) = &spec.base_env {
        cmd.env_clear();
        cmd.envs(base.iter().map(|(k, v)| (k, v)));
    }
    // `hookrt serve`'s HTTP token is for the harness, never for a hook.
    cmd.env_remove(crate::vocab::SERVE_TOKEN_VAR);
    for k in &spec.env_remove {
        cmd.env_remove(k);
    }
    for (k, v) in &spec.env {
        cmd.env(k, v);
    }
    // Every process of this run inherits a marker, so descendants that leave the process
    // group (setsid daemons) can still be found and killed.
    let marker = tree::next_marker();
    cmd.env(tree::MARKER_VAR, &marker);
    if spec.reap_orphans {
        tree::become_subreaper();
    }
    (cmd, marker)
}

/// Runs a process to completion, timeout or abort, on tokio's own threads: spawning holds
/// its thread until the child has exec'd, which must not stall a host's JS thread when the
/// dispatch is polled there (the Node addon).
pub(crate) async fn run(spec: &ProcSpec, cancel: &CancellationToken) -> Result<Raw, Failure> {
    if cancel.is_cancelled() {
        return Err(Failure::Aborted);
    }
    let (spec, cancel) = (spec.clone(), cancel.clone());
    // Aborted when the caller stops waiting, which kills the process as dropping it in place would.
    let task = tokio_util::task::AbortOnDropHandle::new(tokio::spawn(async move { run_here(&spec, &cancel).await }));
    match task.await {
        Ok(r) => r,
        Err(e) => Err(Failure::Wait(std::sync::Arc::new(std::io::Error::other(e.to_string())))),
    }
}

async fn run_here(spec: &ProcSpec, cancel: &CancellationToken) -> Result<Raw, Failure> {
    let (mut cmd, marker) = command(spec);
    let mut child = spawn(&mut cmd, spec, cancel).await?;
    let mut run = Running {
        tree: ProcessTree::new(child.id(), marker, spec.reap_orphans),
        writer: child.stdin.take().map(|mut w| {
            let data = spec.stdin.clone();
            tokio::spawn(async move {
                let _ = w.write_all(&data).await;
                let _ = w.shutdown().await;
            })
        }),
        out: child.stdout.take().map(|r| tokio::spawn(read_capped(r, spec.output_cap))),
        err: child.stderr.take().map(|r| tokio::spawn(read_capped(r, spec.output_cap))),
    };
    let deadline = Instant::now() + spec.timeout;
    let aborted = tokio::select! {
        biased;
        _ = cancel.cancelled() => true,
        s = child.wait() => return run.exited(s, deadline).await,
        _ = tokio::time::sleep_until(deadline) => false,
    };
    run.abort_io();
    run.tree.terminate(Some(&mut child), KILL_GRACE).await;
    run.tree.kill_escaped().await;
    abort_reader(&run.out);
    abort_reader(&run.err);
    Err(if aborted { Failure::Aborted } else { Failure::Timeout { label: spec.timeout_label.clone() } })
}

/// Spawns the command; out of file descriptors (a burst under a low `ulimit -n`), waits for
/// some to free up rather than fail at once, until the hook's deadline.
async fn spawn(
    cmd: &mut tokio::process::Command,
    spec: &ProcSpec,
    cancel: &CancellationToken,
) -> Result<tokio::process::Child, Failure> {
    let give_up = Instant::now() + spec.timeout;
    loop {
        match cmd.spawn() {
            Ok(c) => return Ok(c),
            Err(e)
                if matches!(e.raw_os_error(), Some(EMFILE) | Some(ENFILE))
                    && Instant::now() + Duration::from_millis(20) < give_up
                    && !cancel.is_cancelled() =>
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => return Err(start_error(e, spec)),
        }
    }
}

/// A started process: its tree, the stdin writer and the two output readers.
struct Running {
    tree: ProcessTree,
    writer: Option<tokio::task::JoinHandle<()>>,
    out: Reader,
    err: Reader,
}

impl Running {
    fn abort_io(&self) {
        if let Some(w) = &self.writer {
            w.abort();
        }
    }

    /// The main process exited: collect the output, giving descendants that still hold the
    /// pipes a moment before the group is ended.
    async fn exited(
        mut self,
        status: std::io::Result<std::process::ExitStatus>,
        deadline: Instant,
    ) -> Result<Raw, Failure> {
        self.abort_io();
        let status = status.map_err(|e| Failure::Wait(std::sync::Arc::new(e)))?;
        let drain_until = std::cmp::min(deadline, Instant::now() + DRAIN_GRACE);
        let (o, e) = match collect(&mut self.out, &mut self.err, drain_until).await {
            (Some(o), Some(e)) => (o, e),
            (o, e) => {
                self.tree.terminate(None, KILL_GRACE).await;
                self.tree.kill_escaped().await;
                let (o2, e2) = collect(&mut self.out, &mut self.err, Instant::now() + Duration::from_millis(50)).await;
                abort_reader(&self.out);
                abort_reader(&self.err);
                (o.or(o2).unwrap_or_default(), e.or(e2).unwrap_or_default())
            }
        };
        self.tree.settle();
        Ok(Raw {
            exit_code: status.code(),
            stdout: String::from_utf8_lossy(&o.0).into_owned(),
            stderr: String::from_utf8_lossy(&e.0).into_owned(),
            truncated: o.1 || e.1,
        })
    }
}

type Reader = Option<tokio::task::JoinHandle<(Vec<u8>, bool)>>;

fn abort_reader(r: &Reader) {
    if let Some(h) = r {
        h.abort();
    }
}

/// Waits for both readers until `until`; returns the finished ones.
async fn collect(
    out: &mut Reader,
    err: &mut Reader,
    until: Instant,
) -> (Option<(Vec<u8>, bool)>, Option<(Vec<u8>, bool)>) {
    async fn one(r: &mut Reader, until: Instant) -> Option<(Vec<u8>, bool)> {
        match r {
            None => Some((Vec::new(), false)),
            Some(h) => match tokio::time::timeout_at(until, h).await {
                Ok(Ok(v)) => {
                    *r = None;
                    Some(v)
                }
                Ok(Err(_)) => {
                    *r = None;
                    Some((Vec::new(), false))
                }
                Err(_) => None,
            },
        }
    }
    tokio::join!(one(out, until), one(err, until))
}
