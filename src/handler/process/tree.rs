//! One hook run's process tree: its process group, plus the descendants that left the group
//! (`setsid` daemons), found by the per-run environment marker. Owning the tree in one value
//! means a run that is cancelled half-way (its future dropped) still kills the group.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::time::Duration;
use tokio::time::Instant;

/// Environment variable marking every process of one hook run.
pub(crate) const MARKER_VAR: &str = "HOOKRT_RUN";

/// A marker unique to this process and run.
pub(crate) fn next_marker() -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!("{}-{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// Makes this process adopt orphaned descendants, so killed hook trees can be reaped even
/// where PID 1 does not reap (containers). Linux only: elsewhere orphans go to launchd/init,
/// which reaps them.
pub(crate) fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
                tracing::warn!("cannot become a child subreaper: {e}");
            }
        });
    }
}

/// The processes of one run.
#[derive(Debug)]
pub(crate) struct ProcessTree {
    /// The group leader's pid, which is also the group id; `None` once the tree is settled.
    pgid: Option<Pid>,
    marker: String,
    /// Reap adopted descendants (we are their subreaper).
    reap: bool,
}

impl ProcessTree {
    /// A tree whose leader was spawned with `process_group(0)` and the marker in its
    /// environment.
    pub(crate) fn new(leader: Option<u32>, marker: String, reap: bool) -> Self {
        let pgid = leader.and_then(|p| i32::try_from(p).ok()).map(Pid::from_raw);
        ProcessTree { pgid, marker, reap }
    }

    /// The run ended normally and nothing needs killing: the `Drop` kill is disarmed.
    pub(crate) fn settle(&mut self) {
        self.pgid = None;
    }

    /// SIGTERM to the group, up to `grace` for it to go, SIGKILL, then the main process is
    /// waited for and (when we are the subreaper) every adopted member of the group reaped.
    /// Process-table scans run on the blocking pool, never on a runtime worker.
    pub(crate) async fn terminate(&mut self, child: Option<&mut tokio::process::Child>, grace: Duration) {
        let Some(pgid) = self.pgid else {
            if let Some(c) = child {
                let _ = c.wait().await;
            }
            return;
        };
        let reap = self.reap;
        let _ = killpg(pgid, Signal::SIGTERM);
        let mut child = child;
        let until = Instant::now() + grace;
        loop {
            if let Some(c) = child.as_deref_mut() {
                let _ = c.try_wait();
            }
            let live = blocking(move || {
                if reap {
                    reap_group(pgid);
                }
                group_has_live_members(pgid)
            })
            .await;
            if !live || Instant::now() >= until {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let _ = killpg(pgid, Signal::SIGKILL);
        if let Some(c) = child {
            let _ = c.wait().await;
        }
        if reap {
            for _ in 0..20 {
                if !blocking(move || reap_group(pgid)).await {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        self.pgid = None;
    }

    /// Kills the run's descendants that left its process group, and reaps the adopted ones.
    /// Only Linux can find them (by the marker in `/proc/<pid>/environ`); elsewhere this does
    /// nothing, and a `setsid` daemon of a killed hook survives (documented in the README).
    pub(crate) async fn kill_escaped(&self) {
        #[cfg(target_os = "linux")]
        {
            let needle = format!("{MARKER_VAR}={}\0", self.marker);
            let mut pids = blocking(move || crate::handler::process::procfs::kill_marked(&needle)).await;
            if !self.reap {
                return;
            }
            for _ in 0..50 {
                pids = blocking(move || crate::handler::process::procfs::reap_adopted(pids)).await;
                if pids.is_empty() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = &self.marker;
    }
}

impl Drop for ProcessTree {
    fn drop(&mut self) {
        if let Some(p) = self.pgid {
            let _ = killpg(p, Signal::SIGKILL);
        }
    }
}

/// Runs process-table work on the blocking pool; if that pool is gone (runtime shutting
/// down), runs it here rather than losing the kill.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + Clone + 'static) -> T {
    match tokio::task::spawn_blocking(f.clone()).await {
        Ok(v) => v,
        Err(_) => f(),
    }
}

/// Whether any member of the group is still running (zombies do not count).
fn group_has_live_members(pgid: Pid) -> bool {
    if killpg(pgid, None).is_err() {
        return false;
    }
    #[cfg(target_os = "linux")]
    return crate::handler::process::procfs::members(pgid.as_raw()).iter().any(|m| m.state != 'Z' && m.state != 'X');
    #[cfg(not(target_os = "linux"))]
    true
}

/// Reaps zombie members this process adopted; returns whether members other than the
/// leader remain.
fn reap_group(pgid: Pid) -> bool {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::wait::{waitpid, WaitPidFlag};
        let me = std::process::id() as i32;
        let ms = crate::handler::process::procfs::members(pgid.as_raw());
        for m in &ms {
            if m.ppid == me && m.state == 'Z' && m.pid != pgid.as_raw() {
                let _ = waitpid(Pid::from_raw(m.pid), Some(WaitPidFlag::WNOHANG));
            }
        }
        ms.iter().any(|m| m.pid != pgid.as_raw())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        false
    }
}
