//! The warm runtimes `hookrt serve` keeps: one per project, harness, flags and the variables
//! that change what loads, each reloaded when a file it read (or could read) changes — and the
//! answer to one call on one of them, whichever door (socket, HTTP) the call came through.

use crate::cli::inside::{call_of, hook_options};
use crate::harness::reply::Reply;
use crate::runtime::{BaseEnv, Runtime};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Variables that change what a runtime loads: part of its cache key.
const KEYED_ENV: &[&str] = &[
    "HOME",
    "HOOKRT_HOME",
    "HOOKS_ADAPTER_HOME",
    "HOOKRT_CONFIG",
    "HOOKS_ADAPTER_CONFIG",
    "HOOKS",
    "HOOKRT_IF_RULES",
    "HOOKRT_HISTORY",
    "XDG_STATE_HOME",
    "CODEX_HOME",
    "HERMES_HOME",
    "COPILOT_HOME",
    "GEMINI_CLI_TRUST_WORKSPACE",
    "COPILOT_ALLOW_ALL",
    "HERMES_ACCEPT_HOOKS",
];

/// A warm runtime and the state of the files it depends on.
pub(crate) struct Warm {
    rt: Arc<Runtime>,
    stamp: Vec<(PathBuf, Option<(u64, std::time::SystemTime)>)>,
}

pub(crate) type Cache = Mutex<HashMap<String, Warm>>;

/// The files a runtime read or could read, with their size and modification time.
fn stamp(rt: &Runtime) -> Vec<(PathBuf, Option<(u64, std::time::SystemTime)>)> {
    let mut paths: Vec<PathBuf> =
        crate::load::discovery::candidates(&rt.options().load).into_iter().map(|c| c.path).collect();
    paths.extend(rt.loaded().sources.iter().map(|s| PathBuf::from(&s.file)));
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|p| {
            let m = std::fs::metadata(&p).ok().and_then(|m| Some((m.len(), m.modified().ok()?)));
            (p, m)
        })
        .collect()
}

/// The cached runtime for a key, reloaded when its files changed, or a new one.
fn warm(cache: &Cache, key: String, make: impl FnOnce() -> Result<Runtime, String>) -> Result<Arc<Runtime>, String> {
    let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(w) = c.get_mut(&key) {
        let now = stamp(&w.rt);
        if now != w.stamp {
            w.rt.reload();
            w.stamp = stamp(&w.rt);
        }
        return Ok(w.rt.clone());
    }
    let rt = Arc::new(make()?);
    let s = stamp(&rt);
    c.insert(key, Warm { rt: rt.clone(), stamp: s });
    Ok(rt)
}

pub(crate) fn failed(m: String) -> Reply {
    Reply { stderr: format!("hookrt serve: {m}\n"), ..Default::default() }
}

/// What a call asks, whichever door it came through (the socket, the HTTP endpoint).
pub(crate) struct Call<'a> {
    pub harness: &'a str,
    pub event: Option<&'a str>,
    pub include_own: bool,
    pub budget: f64,
}

/// The environment a socket call's hooks start from: the calling `hookrt hook`'s (the
/// session's), without `hookrt serve`'s HTTP token.
pub(crate) fn session_env(env: &BTreeMap<String, String>) -> BaseEnv {
    env.iter()
        .filter(|(k, _)| k.as_str() != crate::vocab::SERVE_TOKEN_VAR)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The environment an HTTP call's hooks start from (Claude Code's http hooks send none): the
/// server's, without anything named like a secret and without hookrt's own variables.
pub(crate) fn server_env_without_secrets() -> BaseEnv {
    std::env::vars().filter(|(k, _)| !crate::vocab::text::is_secret_name(k) && !k.starts_with("HOOKRT_")).collect()
}

/// Answers one call on the warm runtime for its options and environment; its hooks start from
/// `base`.
pub(crate) async fn answer_call(
    shared: &crate::cli::args::Shared,
    call: Call<'_>,
    stdin: &[u8],
    (env_map, cwd, base): (&BTreeMap<String, String>, Option<PathBuf>, BaseEnv),
    cache: &Cache,
    shutdown: &CancellationToken,
) -> Reply {
    let Some(dialect) = crate::inside::host(call.harness) else {
        return failed(format!("unknown harness {}", call.harness));
    };
    let (event, payload) = match call_of(stdin, call.event) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let lookup = |k: &str| env_map.get(k).cloned();
    let options = hook_options(shared, (dialect, call.include_own), &payload, cwd, &lookup);
    let keyed: Vec<Option<&String>> = KEYED_ENV.iter().map(|k| env_map.get(*k)).collect();
    let key = format!("{options:?}|{keyed:?}");
    let rt = match warm(cache, key, || Runtime::with_env(&options, &lookup).map_err(|e| e.to_string())) {
        Ok(rt) => rt,
        Err(e) => return failed(e),
    };
    let budget = Duration::try_from_secs_f64(call.budget).unwrap_or(Duration::from_secs(590));
    let reply = crate::inside::hook::answer(&rt, dialect, (event, payload, Some(base)), budget, shutdown).await;
    // The call's history line is on disk when the harness hears the answer, as in-process.
    rt.flush_history();
    reply
}

/// Closes every warm runtime (their workers stop).
pub(crate) fn close_all(cache: &Cache) {
    for w in cache.lock().unwrap_or_else(|p| p.into_inner()).values() {
        w.rt.close();
    }
}
