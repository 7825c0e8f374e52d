//! Linux process-table reads: who is in a group, who carries a run's marker, and reaping
//! adopted zombies by pid (never `waitpid(-1)`, which would steal the exit status of children
//! tokio or libuv wait for). Every function here scans `/proc` and blocks: call them from the
//! blocking pool.

use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

/// The fields of `/proc/<pid>/stat` process supervision needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    pub pid: i32,
    pub state: char,
    pub ppid: i32,
    pub pgrp: i32,
}

/// Reads one process's stat line; `None` when it is gone or unreadable.
pub(crate) fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &text)
}

/// `pid (comm) state ppid pgrp ...`, where comm may hold spaces and parentheses.
fn parse_stat(pid: i32, text: &str) -> Option<Stat> {
    let close = text.rfind(')')?;
    let mut f = text.get(close + 1..)?.split_whitespace();
    let state = f.next()?.chars().next()?;
    let ppid = f.next()?.parse().ok()?;
    let pgrp = f.next()?.parse().ok()?;
    Some(Stat { pid, state, ppid, pgrp })
}

/// Every pid in `/proc`.
fn pids() -> impl Iterator<Item = i32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()))
}

/// Every member of a process group.
pub(crate) fn members(pgid: i32) -> Vec<Stat> {
    pids().filter_map(stat).filter(|s| s.pgrp == pgid).collect()
}

/// SIGKILLs every process (but this one) whose environment holds `needle`
/// (`HOOKRT_RUN=<marker>\0`); returns their pids.
pub(crate) fn kill_marked(needle: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut killed = Vec::new();
    for pid in pids().filter(|&p| p != me) {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        if env.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            let _ = nix::sys::signal::kill(Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
            killed.push(pid);
        }
    }
    killed
}

/// One pass over killed pids: reaps those this process adopted that are now zombies; returns
/// the ones still to wait for (adopted by us and not yet dead).
pub(crate) fn reap_adopted(mut pids: Vec<i32>) -> Vec<i32> {
    let me = std::process::id() as i32;
    pids.retain(|&pid| match stat(pid) {
        None => false,
        Some(s) if s.ppid == me && s.state == 'Z' => {
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
            false
        }
        Some(s) => s.ppid == me,
    });
    pids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_command_names() {
        let s = parse_stat(7, "7 (a) b (c)) S 1 7 7 0 -1").unwrap();
        assert_eq!(s, Stat { pid: 7, state: 'S', ppid: 1, pgrp: 7 });
        assert_eq!(parse_stat(7, "7 (x) Z 3"), None);
        assert_eq!(parse_stat(7, "garbage"), None);
    }

    #[test]
    fn this_process_is_in_its_own_table() {
        let me = std::process::id() as i32;
        let s = stat(me).unwrap();
        assert_eq!(s.pid, me);
        assert!(members(s.pgrp).iter().any(|m| m.pid == me));
    }
}
