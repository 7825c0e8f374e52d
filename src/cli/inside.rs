//! `hookrt hook`, `hookrt install`, `hookrt uninstall`: hookrt inside a harness.

use crate::cli::args::Shared;
use crate::cli::Io;
use crate::harness::reply::Reply;
use crate::inside::install::{self, InstallScope, Plan, Target};
use crate::inside::{default_history, host};
use crate::runtime::options::{HistoryOptions, RuntimeOptions};
use crate::runtime::Runtime;
use crate::vocab::{Dialect, HostHarness};
use serde_json::{Map, Value};
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub(crate) fn env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.is_empty())
}

/// The home directory as the runtime resolves it.
fn home(shared: &Shared) -> PathBuf {
    home_in(shared, &env)
}

fn home_in(shared: &Shared, env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    shared
        .home
        .clone()
        .or_else(|| {
            ["HOOKRT_HOME", "HOOKS_ADAPTER_HOME", "HOME"]
                .iter()
                .find_map(|k| env(k).filter(|v| !v.is_empty()))
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// `hookrt history`'s last resort: the file `hookrt hook` writes, when it exists.
pub(crate) fn history_file(shared: &Shared) -> Option<PathBuf> {
    env("HOOKRT_HISTORY")
        .map(PathBuf::from)
        .or_else(|| Some(default_history(&home(shared), &env)).filter(|p| p.exists()))
}

/// The runtime options of one `hookrt hook` call: the shared flags, the harness (its own
/// files left to it), the session's directory (the input's `cwd`, else `cwd`, the directory
/// the call was started in), and the default history file.
pub(crate) fn hook_options(
    shared: &Shared,
    (dialect, include_own): (Dialect, bool),
    payload: &Map<String, Value>,
    cwd: Option<PathBuf>,
    env: &dyn Fn(&str) -> Option<String>,
) -> RuntimeOptions {
    let mut options = shared.options(false);
    options.inside = Some(dialect);
    options.include_own_files = include_own;
    if options.cwd.is_none() {
        options.cwd = payload.get("cwd").and_then(Value::as_str).map(PathBuf::from).filter(|p| p.is_dir()).or(cwd);
    }
    if options.history.is_none() && env("HOOKRT_HISTORY").filter(|v| !v.is_empty()).is_none() {
        let home = options.home_dir.clone().unwrap_or_else(|| home_in(shared, env));
        let path = default_history(&home, env);
        // The default file's folder is hookrt's own to make, and private.
        if let Some(dir) = path.parent() {
            let _ = crate::vocab::files::private_dir(dir);
        }
        options.history = Some(HistoryOptions { path, max_bytes: None, payloads: false, host: None });
    }
    options
}

/// The harness's event and payload from its stdin, or the reply saying why there are none.
pub(crate) fn call_of(stdin: &[u8], event: Option<&str>) -> Result<(String, Map<String, Value>), Reply> {
    use crate::inside::hook::{event_of, payload_of};
    payload_of(stdin)
        .and_then(|p| event_of(event, &p).map(|e| (e, p)))
        .map_err(|e| Reply { stderr: format!("hookrt: {e}\n"), ..Default::default() })
}

/// `hookrt hook <harness>`: the harness's stdin in, its answer out — from `hookrt serve` when
/// it runs and answers, else in this process.
pub(crate) async fn hook(
    shared: &Shared,
    (harness, event, include_own, budget): (&str, Option<String>, bool, f64),
    argv: &[String],
    io: Io<'_>,
    shutdown: &CancellationToken,
) -> i32 {
    let Some(dialect) = host(harness) else { return 1 };
    let mut stdin = Vec::new();
    let _ = std::io::stdin().take(64 << 20).read_to_end(&mut stdin);
    let budget = Duration::try_from_secs_f64(budget).unwrap_or(Duration::from_secs(590));
    let reply = match call_of(&stdin, event.as_deref()) {
        Err(r) => r,
        Ok(call) => match crate::cli::serve_client::ask(argv, &stdin, budget).await {
            Some(r) => r,
            None => {
                let options = hook_options(shared, (dialect, include_own), &call.1, None, &env);
                match Runtime::new(&options) {
                    Ok(rt) => {
                        let (event, payload) = call;
                        let r =
                            crate::inside::hook::answer(&rt, dialect, (event, payload, None), budget, shutdown).await;
                        rt.flush_history();
                        r
                    }
                    Err(e) => Reply { stderr: format!("hookrt: {e}\n"), ..Default::default() },
                }
            }
        },
    };
    let _ = io.out.write_all(reply.stdout.as_bytes());
    let _ = io.err.write_all(reply.stderr.as_bytes());
    let _ = io.out.flush();
    reply.code
}

/// How this process was started when it is not the `hookrt` executable: `bin/hookrt.js` run by
/// Node through the addon (a host without the executable) tells it here, so the entries
/// `hookrt install` writes start that (`'<node>' '<abs>/bin/hookrt.js'`) instead of a bare
/// `hookrt` that is not on the harness's PATH.
static LAUNCHER: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Records the launcher's words (the first call wins: it is the process's own).
#[cfg(feature = "napi")]
pub(crate) fn set_launcher(words: Vec<String>) {
    let _ = LAUNCHER.set(words);
}

/// The command the entries start: this executable when it is hookrt's, else the launcher that
/// started this process, else `hookrt` (checked to exist before anything is written).
fn this_program() -> String {
    let exe = std::env::current_exe()
        .ok()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("hookrt")))
        .map(|p| vec![p.display().to_string()]);
    let words =
        exe.or_else(|| LAUNCHER.get().cloned().filter(|w| !w.is_empty())).unwrap_or_else(|| vec!["hookrt".into()]);
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| "hookrt".into())
}

/// Why the entries could not start `program` here (it is gone, not executable or not on PATH):
/// every event would then fail with exit 127, which the harnesses treat as a non-blocking error,
/// so every guard behind hookrt would fail open.
fn program_problem(program: &str, t: &Target) -> Option<String> {
    let words = shlex::split(program).filter(|w| !w.is_empty())?;
    let mut problems = Vec::new();
    crate::doctor::check_program(&words, (&t.cwd, &t.home), &mut problems);
    (!problems.is_empty()).then(|| {
        format!(
            "the entries would start `{program}`, but {}: every event would fail with exit 127, which the harness ignores, so no hook would guard anything; pass --program with a command that starts hookrt",
            problems.join(" and ")
        )
    })
}

/// Where the harnesses' files are, from the flags and the environment.
pub(crate) fn target(shared: &Shared, program: Option<String>) -> Target {
    let home = home(shared);
    let cwd = shared.cwd.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
    let cwd = std::path::absolute(&cwd).unwrap_or(cwd);
    let program = program.unwrap_or_else(this_program);
    let mut extra = if shared.fail_closed.is_empty() {
        String::new()
    } else {
        format!(" --fail-closed {}", shared.fail_closed.join(","))
    };
    if let Some(scope) = &shared.require_hook_approval {
        extra.push_str(&format!(" --require-hook-approval={scope}"));
    }
    let state = default_history(&home, &env).parent().map(PathBuf::from).unwrap_or_default();
    Target { home, cwd, homes: crate::harness::registry::read_homes(&env), program, extra, http_port: None, state }
}

fn scope_of(s: &str) -> InstallScope {
    if s == "user" {
        InstallScope::User
    } else {
        InstallScope::Project
    }
}

/// `hookrt install <harness>` (`--http`: Claude Code's http entries to `hookrt serve`).
pub(crate) fn install(
    shared: &Shared,
    (harness, scope, dry_run, program): (&str, &str, bool, Option<String>),
    http: bool,
    io: Io<'_>,
) -> i32 {
    let Some(dialect) = host(harness) else { return 1 };
    let mut t = target(shared, program);
    if let Some(problem) = (!http).then(|| program_problem(&t.program, &t)).flatten() {
        let _ = writeln!(io.err, "hookrt: {problem}");
        return 1;
    }
    if http {
        if !takes_http(dialect) {
            let _ = writeln!(io.err, "hookrt: --http is for Claude Code's http hooks (hookrt install claude --http)");
            return 1;
        }
        match crate::inside::http::ensure(&t.state) {
            Ok(c) => t.http_port = Some(c.port),
            Err(e) => {
                let _ = writeln!(io.err, "hookrt: cannot set up the HTTP endpoint in {}: {e}", t.state.display());
                return 1;
            }
        }
    }
    let mut plan = install::install(dialect, scope_of(scope), &t);
    if let (Ok(p), Some(port)) = (&mut plan, t.http_port) {
        p.notes.push(format!(
            "the entries call hookrt serve on 127.0.0.1:{port}: run `hookrt serve`, and start Claude Code with HOOKRT_TOKEN=\"$(hookrt serve --print-token)\""
        ));
    }
    finish(plan, &t, dry_run, io)
}

/// `hookrt uninstall <harness>`.
pub(crate) fn uninstall(shared: &Shared, (harness, scope, dry_run): (&str, &str, bool), io: Io<'_>) -> i32 {
    let Some(dialect) = host(harness) else { return 1 };
    let t = target(shared, None);
    finish(install::uninstall(dialect, scope_of(scope), &t), &t, dry_run, io)
}

/// Whether `install --http` can write `hookrt serve` endpoint entries for the harness.
fn takes_http(d: Dialect) -> bool {
    crate::harness::of(d).http_entry("", "").is_some()
}

/// Prints (dry run) or applies a plan, then its notes.
fn finish(plan: Result<Plan, install::InstallError>, t: &Target, dry_run: bool, io: Io<'_>) -> i32 {
    let plan = match plan {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
    };
    if dry_run {
        let _ = write!(io.out, "{}", install::diff(&plan));
    } else {
        if let Err(e) = install::apply(&plan, &t.state) {
            let _ = writeln!(io.err, "hookrt: {e}");
            return 1;
        }
        for c in &plan.changes {
            let what = match (&c.before, &c.after) {
                (None, Some(_)) => "created",
                (Some(_), None) => "removed",
                _ => "updated",
            };
            let _ = writeln!(io.out, "{what} {}", c.path.display());
        }
    }
    for n in &plan.notes {
        let _ = writeln!(io.out, "note: {n}");
    }
    0
}

/// `hookrt doctor`'s part on hookrt inside the harnesses: the installed entries (and whether the
/// program they start still exists), `hookrt serve` and its HTTP endpoint. Returns whether
/// something is wrong.
pub(crate) async fn doctor(shared: &Shared, io: &mut Io<'_>) -> bool {
    let t = target(shared, None);
    let mut bad = false;
    for host in HostHarness::HARNESSES {
        let Some(dialect) = host.dialect() else { continue };
        let name = host.as_str();
        for (scope, file, n, missing) in install::status(dialect, &t) {
            let ok = missing.is_empty();
            bad |= !ok;
            let mark = if ok { "ok" } else { "PROBLEM" };
            let _ = writeln!(io.out, "{mark}	inside {name} ({scope:?}): {n} hookrt entries in {}", file.display());
            for m in missing {
                let _ = writeln!(
                    io.out,
                    "	- the entries start {m}, which does not exist: run `hookrt install {name}` again"
                );
            }
        }
    }
    bad |= serve_doctor(io).await;
    if let Some(c) = crate::inside::http::load(&t.state) {
        let used = HostHarness::HARNESSES.iter().filter_map(|h| h.dialect()).filter(|d| takes_http(*d)).any(|d| {
            let url = crate::inside::http::url(c.port, d.as_str());
            install::status(d, &t).iter().any(|(_, f, ..)| std::fs::read_to_string(f).is_ok_and(|s| s.contains(&url)))
        });
        let (mark, what) = match crate::inside::http::identify(c.port, &c.token).await {
            crate::inside::http::Listener::Serve => ("ok", "answering (hookrt serve)".to_owned()),
            crate::inside::http::Listener::Other => {
                bad = true;
                ("PROBLEM", "held by another program, not hookrt serve: Claude Code's http hooks go to it".to_owned())
            }
            crate::inside::http::Listener::None => {
                bad |= used;
                let what = "not answering: Claude Code's http hooks fail until `hookrt serve` runs".to_owned();
                (if used { "PROBLEM" } else { "note" }, what)
            }
        };
        let _ = writeln!(io.out, "{mark}	http hooks endpoint 127.0.0.1:{}: {what}", c.port);
    }
    bad
}

/// `hookrt doctor`'s word on `hookrt serve`'s socket: running, and this user's; returns whether
/// something is wrong.
async fn serve_doctor(io: &mut Io<'_>) -> bool {
    use crate::cli::serve_client::{folder_problem, peer_is_me, socket_path};
    let Some(socket) = socket_path(&env) else {
        let _ = writeln!(io.out, "note	hookrt serve: no place for its socket (no HOME or XDG_RUNTIME_DIR)");
        return false;
    };
    let stream = tokio::net::UnixStream::connect(&socket).await.ok();
    let problem = match &stream {
        None => None,
        Some(_) if socket.parent().and_then(folder_problem).is_some() => socket.parent().and_then(folder_problem),
        Some(s) if !peer_is_me(s) => Some("the socket is served by another user".to_owned()),
        Some(_) => None,
    };
    let (mark, state) = match (&stream, &problem) {
        (_, Some(p)) => ("PROBLEM", format!("{p}; hookrt hook will not use it")),
        (Some(_), None) => ("note", "running".to_owned()),
        (None, None) => ("note", "not running (hookrt hook answers in-process)".to_owned()),
    };
    let _ = writeln!(io.out, "{mark}	hookrt serve: {state} ({})", socket.display());
    problem.is_some()
}
