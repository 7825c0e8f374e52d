//! One dispatch as a host asks for it, what every hook of it shares ([`DispatchCtx`]), and its
//! result.

use crate::config::{HandlerSpec, Hook};
use crate::contract::{payload, Outcome};
use crate::handler::RunParts;
use crate::harness::{EnvCtx, PayloadCtx, SessionFacts};
use crate::runtime::env_file::EnvFiles;
use crate::runtime::options::{Resolved, RunPolicy};
use crate::vocab::text::{path_text, quote, Stamp};
use crate::vocab::CanonicalEvent;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) use crate::runtime::execute::ProgressSink;
pub use crate::runtime::execute::Run;

/// Why a dispatch has no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// The event name is not any dialect's spelling.
    #[error("unknown event {}", quote(.0))]
    UnknownEvent(String),
    /// The host's signal fired; every hook of the dispatch has been killed.
    #[error("hook aborted by the host")]
    Aborted,
    /// `close()` was called.
    #[error("runtime is closed")]
    Closed,
}

/// One dispatch as a host asks for it.
#[derive(Debug, Clone, Default)]
pub struct DispatchRequest {
    pub event: String,
    pub payload: Map<String, Value>,
    /// Overrides the subject derived from the payload.
    pub subject: Option<String>,
    /// Working directory of this dispatch (hook cwd, `cwd` field).
    pub cwd: Option<String>,
    /// Told when each hook starts and ends (the JS API's `onProgress`).
    pub progress: Option<ProgressSink>,
    /// The environment hook processes start from instead of this process's (`hookrt serve`:
    /// the calling `hookrt hook`'s, so hooks see the session's variables, not the server's).
    pub env: Option<BaseEnv>,
}

pub use crate::handler::BaseEnv;

impl PartialEq for DispatchRequest {
    fn eq(&self, o: &Self) -> bool {
        self.event == o.event && self.payload == o.payload && self.subject == o.subject && self.cwd == o.cwd
    }
}

/// The result of a dispatch: `{canonical, outcome, runs}`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DispatchResult {
    pub canonical: CanonicalEvent,
    pub outcome: Outcome,
    pub runs: Vec<Run>,
}

impl DispatchResult {
    pub fn empty(canonical: CanonicalEvent) -> Self {
        DispatchResult { canonical, outcome: Outcome::empty(), runs: Vec::new() }
    }
}

/// What every hook of one dispatch shares: the event, the host payload, where hooks run, what
/// the session said before, and the `CLAUDE_ENV_FILE`s of events that export variables. Built
/// once per dispatch (and by `trial` for a single hook).
pub(crate) struct DispatchCtx {
    pub canonical: CanonicalEvent,
    pub payload: Map<String, Value>,
    pub cwd: PathBuf,
    /// `cwd` as text, as hooks read it.
    cwd_text: String,
    pub project_dir: String,
    ts: Stamp,
    pub env_files: Option<EnvFiles>,
    /// Consecutive blocked Stops of this session so far (Cursor's `loop_count`).
    pub loop_count: u32,
    /// What earlier dispatches of the session said (`prompt_id`, the turn's prompt).
    pub session: SessionFacts,
    /// The environment hooks start from, when not this process's.
    pub base_env: Option<BaseEnv>,
}

impl DispatchCtx {
    pub(crate) fn new(
        opts: &Resolved,
        canonical: CanonicalEvent,
        payload: Map<String, Value>,
        cwd: Option<String>,
    ) -> Self {
        let policy = &opts.policy;
        // The dispatch's cwd, else the project directory, else the runtime's cwd.
        let cwd = cwd.map(PathBuf::from).or_else(|| policy.project_dir.clone()).unwrap_or_else(|| policy.cwd.clone());
        let cwd_text = path_text(&cwd);
        let project_dir = policy.project_dir.as_deref().map_or_else(|| cwd_text.clone(), path_text);
        let session = crate::harness::session_of(&payload);
        let env_files =
            canonical.takes_env_file().then(|| EnvFiles::new(&opts.load.home, session, env_file_stem(canonical)));
        DispatchCtx {
            canonical,
            payload,
            cwd,
            cwd_text,
            project_dir,
            ts: Stamp::default(),
            env_files,
            loop_count: 0,
            session: SessionFacts::default(),
            base_env: None,
        }
    }

    /// The JSON a hook reads, shaped for its harness.
    fn input_for(&self, policy: &RunPolicy, hook: &Hook) -> Map<String, Value> {
        payload::hook_input(&self.payload_ctx(policy, hook), hook)
    }

    /// What a hook's harness gets to build its stdin from.
    fn payload_ctx<'a>(&'a self, policy: &'a RunPolicy, hook: &'a Hook) -> PayloadCtx<'a> {
        PayloadCtx {
            host: &self.payload,
            canonical: self.canonical,
            spelling: &hook.event,
            cwd: &self.cwd_text,
            model: policy.model.as_deref(),
            turn_id: policy.turn_id.as_deref(),
            ts: &self.ts,
            loop_count: self.loop_count,
            session: &self.session,
        }
    }

    /// Everything one run of `hook` needs, owned.
    pub(crate) fn parts(&self, opts: &Resolved, hook: &Hook) -> RunParts {
        self.parts_with(opts, hook, None)
    }

    /// [`DispatchCtx::parts`], with the `tool_input` a previous hook of a chain returned.
    pub(crate) fn parts_with(&self, opts: &Resolved, hook: &Hook, tool_input: Option<&Value>) -> RunParts {
        let policy = &opts.policy;
        let mut input = self.input_for(policy, hook);
        if let Some(t) = tool_input {
            input.insert("tool_input".into(), t.clone());
        }
        let secs = timeout_secs(policy, hook);
        let h = crate::harness::of(hook.dialect);
        // A callback runs in the host's own process: it has no environment to be given.
        let own_process = !matches!(hook.handler, HandlerSpec::Callback { .. });
        let (env, own) = if own_process { self.env_for(opts, hook, &input) } else { (Vec::new(), 0) };
        let command = match &hook.handler {
            HandlerSpec::Shell { command, args: None, .. } => Some(h.expand_command(command, &env[..own])),
            _ => None,
        };
        // Copilot `cwd`, Windsurf `working_directory`: relative to the project directory.
        let cwd = match &hook.harness.cwd {
            Some(c) => Path::new(&self.project_dir).join(c),
            None => self.cwd.clone(),
        };
        // A command hook reads `stdin` (the bytes its harness writes); the other kinds send
        // `input_json`. Each is written only for the kind that reads it.
        let process = matches!(hook.handler, HandlerSpec::Shell { .. });
        RunParts {
            input_json: if process { String::new() } else { payload::to_text(&input) },
            stdin: if process { payload::to_stdin(&input, hook) } else { Vec::new() },
            cwd,
            timeout: wait_of(secs),
            timeout_secs: secs,
            env,
            env_remove: if own_process { removed_vars(h.env_removed(), self.base_env.as_deref()) } else { Vec::new() },
            base_env: self.base_env.clone(),
            shell: h.shell(),
            command,
        }
    }

    /// What a call of the host's function needs, and no more: the input JSON and the timeout
    /// in seconds (a host round runs no process: no environment, directory or command).
    pub(crate) fn callback_call(&self, opts: &Resolved, hook: &Hook) -> (String, f64) {
        let text = payload::hook_input_text(&self.payload_ctx(&opts.policy, hook), hook);
        (text, timeout_secs(&opts.policy, hook))
    }

    /// The harness's variables (the first `n`, returned too), the hook's `CLAUDE_ENV_FILE`, then
    /// the hook's own `env` (which wins, as in every harness).
    fn env_for(&self, opts: &Resolved, hook: &Hook, input: &Map<String, Value>) -> (Vec<(String, String)>, usize) {
        let h = crate::harness::of(hook.dialect);
        let cwd = crate::vocab::field(input, "cwd").and_then(Value::as_str).unwrap_or(&self.cwd_text);
        let session = Some(crate::harness::session_of(input))
            .filter(|s| !s.is_empty())
            .or(self.session.last_session.as_deref())
            .unwrap_or("");
        let e = EnvCtx {
            project_dir: &self.project_dir,
            cwd,
            session_id: session,
            home: &opts.load.home,
            homes: &opts.load.homes,
            file: &hook.file,
            input,
        };
        let mut env = h.env(&e);
        let own = env.len();
        if let Some(path) = self.env_files.as_ref().filter(|_| h.env_file()).and_then(EnvFiles::next) {
            env.push(("CLAUDE_ENV_FILE".into(), path_text(&path)));
        }
        env.extend(hook.env.iter().cloned());
        (env, own)
    }

    /// The hook's `if` rule against this dispatch: only tool events can match, a rule that did
    /// not parse lets the hook run.
    pub(crate) fn if_admits(&self, hook: &Hook, home: &Path) -> bool {
        if hook.family.if_text.is_none() {
            return true;
        }
        if !self.canonical.is_tool_call() {
            return false;
        }
        let Some(rule) = &hook.family.if_rule else { return true };
        let tool_name = self.canonical.subject_of(&self.payload).unwrap_or("");
        let tool_input = self.payload.get("tool_input").and_then(Value::as_object);
        let project_dir = Path::new(&self.project_dir);
        rule.matches(&crate::config::if_rule::Call { tool_name, tool_input, project_dir, home })
    }
}

/// A timeout in seconds as a wait (one too long for a `Duration` is as good as none).
pub(crate) fn wait_of(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)
}

/// A hook's timeout in seconds: its own, else the runtime's, else its kind's default.
fn timeout_secs(policy: &RunPolicy, hook: &Hook) -> f64 {
    hook.timeout.or(policy.timeout_sec).unwrap_or_else(|| hook.handler.kind().default_timeout_secs())
}

/// How Claude names an event's environment files (`sessionstart-hook-0.sh`).
fn env_file_stem(canonical: CanonicalEvent) -> &'static str {
    match canonical {
        CanonicalEvent::Setup => "Setup",
        CanonicalEvent::CwdChange => "CwdChanged",
        CanonicalEvent::FileChange => "FileChanged",
        _ => "SessionStart",
    }
}

/// The variables of the environment hooks start from (`base`, else this process's) matching a
/// harness's removal patterns (`COPILOT_PROVIDER_*`).
fn removed_vars(patterns: &[&str], base: Option<&[(String, String)]>) -> Vec<String> {
    if patterns.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = match base {
        Some(b) => b.iter().map(|(k, _)| k.clone()).collect(),
        None => std::env::vars_os().filter_map(|(k, _)| k.into_string().ok()).collect(),
    };
    names
        .into_iter()
        .filter(|k| {
            patterns.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) => k.starts_with(prefix),
                None => k == p,
            })
        })
        .collect()
}
