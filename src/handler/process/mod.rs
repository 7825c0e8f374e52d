//! Running a hook process: its own process group, stdin written without blocking, output
//! captured up to a cap while always draining, and a timeout or abort that kills the whole
//! tree (SIGTERM, a short grace, SIGKILL) and reaps it (SPEC §10).

use super::Failure;
use crate::decode::Raw;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Time between SIGTERM and SIGKILL for a hook's process group.
const KILL_GRACE: Duration = Duration::from_millis(100);
/// After the hook's main process exits, how long descendants may keep its pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// What to run.
#[derive(Debug, Clone)]
pub enum Program {
    /// `/bin/sh -c <command>`.
    Shell(String),
    /// A program and its arguments, without a shell.
    Exec(String, Vec<String>),
}

/// A fully resolved process run.
#[derive(Debug, Clone)]
pub struct ProcSpec {
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
    /// Reap descendants adopted through `PR_SET_CHILD_SUBREAPER`.
    pub reap_orphans: bool,
}

/// Kills the group if a run is dropped half-way (its future cancelled by the caller).
struct GroupGuard {
    pgid: Option<Pid>,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(p) = self.pgid {
            let _ = killpg(p, Signal::SIGKILL);
        }
    }
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

fn start_error(e: &std::io::Error, spec: &ProcSpec) -> String {
    if !spec.cwd.is_dir() {
        return format!("cannot start hook: working directory {} does not exist", spec.cwd.display());
    }
    let what = match &spec.program {
        Program::Shell(_) => "/bin/sh".to_owned(),
        Program::Exec(p, _) => p.clone(),
    };
    let msg = e.to_string();
    let msg = msg.split(" (os error").next().unwrap_or(&msg).to_owned();
    format!("cannot start hook: {what}: {msg}")
}

/// Runs a process to completion, timeout or abort.
pub async fn run(spec: &ProcSpec, cancel: &CancellationToken) -> Result<Raw, Failure> {
    if cancel.is_cancelled() {
        return Err(Failure::Aborted);
    }
    let mut cmd = match &spec.program {
        Program::Shell(c) => {
            let mut cmd = tokio::process::Command::new("/bin/sh");
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
    for k in &spec.env_remove {
        cmd.env_remove(k);
    }
    for (k, v) in &spec.env {
        cmd.env(k, v);
    }
    // Every process of this run inherits a marker, so descendants that leave the process
    // group (setsid daemons) can still be found and killed.
    let marker = reaper::next_marker();
    cmd.env(reaper::MARKER_VAR, &marker);
    if spec.reap_orphans {
        reaper::become_subreaper();
    }
    // Out of file descriptors (a burst under a low `ulimit -n`): wait for some to free up
    // rather than fail at once, until the hook's deadline.
    let give_up = Instant::now() + spec.timeout;
    let mut child = loop {
        match cmd.spawn() {
            Ok(c) => break c,
            Err(e)
                if matches!(e.raw_os_error(), Some(libc::EMFILE) | Some(libc::ENFILE))
                    && Instant::now() + Duration::from_millis(20) < give_up
                    && !cancel.is_cancelled() =>
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => return Err(Failure::Infra(start_error(&e, spec))),
        }
    };
    let pid = child.id().map(|p| Pid::from_raw(p as i32));
    let mut guard = GroupGuard { pgid: pid };

    let writer = child.stdin.take().map(|mut w| {
        let data = spec.stdin.clone();
        tokio::spawn(async move {
            let _ = w.write_all(&data).await;
            let _ = w.shutdown().await;
        })
    });
    let cap = spec.output_cap;
    let out_task = child.stdout.take().map(|r| tokio::spawn(read_capped(r, cap)));
    let err_task = child.stderr.take().map(|r| tokio::spawn(read_capped(r, cap)));

    let deadline = Instant::now() + spec.timeout;
    enum End {
        Exited(std::io::Result<std::process::ExitStatus>),
        TimedOut,
        Aborted,
    }
    let end = tokio::select! {
        biased;
        _ = cancel.cancelled() => End::Aborted,
        s = child.wait() => End::Exited(s),
        _ = tokio::time::sleep_until(deadline) => End::TimedOut,
    };

    let abort_io = |w: &Option<tokio::task::JoinHandle<()>>| {
        if let Some(w) = w {
            w.abort();
        }
    };
    match end {
        End::Exited(status) => {
            abort_io(&writer);
            let status = status.map_err(|e| Failure::Infra(format!("cannot wait for hook: {e}")))?;
            // Descendants may still hold the pipes: give them a moment, then end the group.
            let drain_until = std::cmp::min(deadline, Instant::now() + DRAIN_GRACE);
            let (mut out, mut err) = (out_task, err_task);
            let (o, e) = collect(&mut out, &mut err, drain_until).await;
            let (o, e) = match (o, e) {
                (Some(o), Some(e)) => (o, e),
                (o, e) => {
                    if let Some(p) = pid {
                        terminate_group(p, None, spec.reap_orphans).await;
                    }
                    kill_escaped(&marker, spec.reap_orphans).await;
                    let (o2, e2) = collect(&mut out, &mut err, Instant::now() + Duration::from_millis(50)).await;
                    abort_reader(&out);
                    abort_reader(&err);
                    (o.or(o2).unwrap_or_default(), e.or(e2).unwrap_or_default())
                }
            };
            guard.pgid = None;
            Ok(Raw {
                exit_code: status.code(),
                stdout: String::from_utf8_lossy(&o.0).into_owned(),
                stderr: String::from_utf8_lossy(&e.0).into_owned(),
                truncated: o.1 || e.1,
            })
        }
        End::TimedOut | End::Aborted => {
            abort_io(&writer);
            if let Some(p) = pid {
                terminate_group(p, Some(&mut child), spec.reap_orphans).await;
            } else {
                let _ = child.wait().await;
            }
            kill_escaped(&marker, spec.reap_orphans).await;
            guard.pgid = None;
            abort_reader(&out_task);
            abort_reader(&err_task);
            Err(if matches!(end, End::Aborted) {
                Failure::Aborted
            } else {
                Failure::Infra(format!("timed out after {}s", spec.timeout_label))
            })
        }
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

/// Kills the run's descendants that left its process group, and reaps the adopted ones.
async fn kill_escaped(marker: &str, reap: bool) {
    let mut pids = reaper::kill_marked(marker);
    if !reap {
        return;
    }
    for _ in 0..50 {
        reaper::reap_pids(&mut pids);
        if pids.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// SIGTERM to the group, a short grace, SIGKILL, then reap the main process (and, when we are
/// the subreaper, every adopted member of the group).
async fn terminate_group(pgid: Pid, child: Option<&mut tokio::process::Child>, reap_orphans: bool) {
    let _ = killpg(pgid, Signal::SIGTERM);
    let mut child = child;
    let until = Instant::now() + KILL_GRACE;
    loop {
        if let Some(c) = child.as_deref_mut() {
            let _ = c.try_wait();
        }
        if reap_orphans {
            reaper::reap_group(pgid);
        }
        if !reaper::group_has_live_members(pgid) || Instant::now() >= until {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let _ = killpg(pgid, Signal::SIGKILL);
    if let Some(c) = child {
        let _ = c.wait().await;
    }
    if reap_orphans {
        for _ in 0..20 {
            if !reaper::reap_group(pgid) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// Process-table helpers: who is in a group, and reaping adopted zombies by pid (never
/// `waitpid(-1)`, which would steal the exit status of children tokio or libuv wait for).
pub mod reaper {
    use nix::sys::wait::{waitpid, WaitPidFlag};
    use nix::unistd::Pid;
    use std::sync::Once;

    /// Makes this process adopt orphaned descendants, so killed hook trees can be reaped
    /// even where PID 1 does not reap (containers).
    pub fn become_subreaper() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes plain integer arguments.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            }
        });
    }

    /// Environment variable marking every process of one hook run.
    pub const MARKER_VAR: &str = "HOOKRT_RUN";

    /// A marker unique to this process and run.
    pub fn next_marker() -> String {
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        format!("{}-{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }

    /// SIGKILLs every process whose environment carries this run's marker (descendants that
    /// escaped the process group with setsid); returns their pids.
    pub fn kill_marked(marker: &str) -> Vec<i32> {
        let needle = format!("{MARKER_VAR}={marker}\0");
        let me = std::process::id() as i32;
        let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
        let mut killed = Vec::new();
        for ent in dir.flatten() {
            let Some(pid) = ent.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
            if pid == me {
                continue;
            }
            let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
            if env.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                let _ = nix::sys::signal::kill(Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
                killed.push(pid);
            }
        }
        killed
    }

    /// One pass over killed pids: reaps the ones this process adopted and that are zombies;
    /// keeps the ones still to wait for.
    pub fn reap_pids(pids: &mut Vec<i32>) {
        let me = std::process::id() as i32;
        pids.retain(|&pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().and_then(|s| {
                let close = s.rfind(')')?;
                let mut f = s[close + 1..].split_whitespace();
                let state = f.next()?.to_owned();
                let ppid: i32 = f.next()?.parse().ok()?;
                Some((state, ppid))
            });
            match stat {
                None => false,
                Some((state, ppid)) if ppid == me && state == "Z" => {
                    let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
                    false
                }
                Some((_, ppid)) => ppid == me,
            }
        });
    }

    /// (pid, ppid, state) of every process in the group.
    pub fn members(pgid: Pid) -> Vec<(i32, i32, char)> {
        let mut v = Vec::new();
        let Ok(dir) = std::fs::read_dir("/proc") else { return v };
        for ent in dir.flatten() {
            let name = ent.file_name();
            let Some(pid) = name.to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
            // pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
            let Some(close) = stat.rfind(')') else { continue };
            let mut f = stat[close + 1..].split_whitespace();
            let state = f.next().and_then(|s| s.chars().next()).unwrap_or('?');
            let ppid = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            let pgrp: i32 = f.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            if pgrp == pgid.as_raw() {
                v.push((pid, ppid, state));
            }
        }
        v
    }

    /// Whether any member of the group is still running (zombies do not count).
    pub fn group_has_live_members(pgid: Pid) -> bool {
        if nix::sys::signal::killpg(pgid, None).is_err() {
            return false;
        }
        members(pgid).iter().any(|&(_, _, s)| s != 'Z' && s != 'X')
    }

    /// Reaps zombie members adopted by this process; returns whether members remain.
    pub fn reap_group(pgid: Pid) -> bool {
        let me = std::process::id() as i32;
        let ms = members(pgid);
        for &(pid, ppid, state) in &ms {
            if ppid == me && state == 'Z' && pid != pgid.as_raw() {
                let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
            }
        }
        ms.iter().any(|&(pid, _, _)| pid != pgid.as_raw())
    }
}
