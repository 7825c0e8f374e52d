//! `hookrt doctor`: for every configured hook, whether its program exists and is executable,
//! a trial run on a synthetic payload (decision, time, answer validity), and the problems in
//! plain words.

use crate::config::{HandlerSpec, Hook};
use crate::runtime::Runtime;
use crate::vocab::CanonicalEvent;
use crate::vocab::Decision;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Longest a trial run may take.
pub(crate) const TRIAL_CAP: Duration = Duration::from_secs(10);

/// What doctor found about one hook.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub id: String,
    pub file: String,
    pub kind: &'static str,
    /// The program the hook runs, when it runs one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<Option<i32>>,
    pub duration_ms: u64,
    pub problems: Vec<String>,
}

impl Report {
    /// A hook left out for trust: it does not run until trusted, which is a problem to say.
    pub(crate) fn skipped(s: &crate::load::Skipped) -> Self {
        Report {
            id: format!("skipped:{}", s.command),
            file: s.file.clone(),
            kind: "skipped",
            program: None,
            decision: None,
            exit_code: None,
            duration_ms: 0,
            problems: vec![format!("skipped for trust: {}; to run it: {}", s.why, s.approve)],
        }
    }
}

const BUILTINS: &[&str] = &[
    "echo", "printf", "exit", "true", "false", "test", "[", "cd", "read", "set", "export", "exec", "eval", ":", "if",
    "for", "while", "case", "command", "type", "trap", "sleep", "cat",
];

/// A synthetic payload for an event, with a subject the hook's matcher selects when it can.
pub(crate) fn synthetic_payload(hook: &Hook) -> Map<String, Value> {
    let subject = hook
        .matcher_text
        .as_deref()
        .and_then(|m| {
            m.split(['|', ','])
                .map(str::trim)
                .find(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
        })
        .unwrap_or("Bash")
        .to_owned();
    let v = match hook.canonical {
        CanonicalEvent::ToolBefore => json!({"tool_name": subject, "tool_input": {"command": "true"}}),
        CanonicalEvent::ToolAfter => {
            json!({"tool_name": subject, "tool_input": {"command": "true"}, "tool_response": ""})
        }
        CanonicalEvent::PromptSubmit => json!({"prompt": "hookrt doctor check"}),
        CanonicalEvent::SessionStart => {
            json!({"source": if subject == "Bash" { "startup".to_owned() } else { subject }})
        }
        CanonicalEvent::SessionEnd => json!({"reason": "other"}),
        CanonicalEvent::TurnStop => json!({"stop_hook_active": false}),
        CanonicalEvent::SubagentStart | CanonicalEvent::SubagentEnd => {
            json!({"agent_id": "doctor", "agent_type": subject})
        }
        CanonicalEvent::Notice => json!({"message": "hookrt doctor", "notification_type": "idle_prompt"}),
        CanonicalEvent::CompactBefore | CanonicalEvent::CompactAfter => json!({"trigger": "manual"}),
        CanonicalEvent::PermissionRequest | CanonicalEvent::PermissionDenied => {
            json!({"tool_name": subject, "tool_input": {"command": "true"}})
        }
        CanonicalEvent::Setup => json!({"trigger": "init"}),
        CanonicalEvent::PromptExpand => json!({"command_name": subject, "prompt": format!("/{subject}")}),
        CanonicalEvent::FileChange => json!({"file_path": format!("/tmp/{subject}"), "event": "change"}),
        CanonicalEvent::CwdChange => json!({"old_cwd": "/", "new_cwd": "/tmp"}),
        CanonicalEvent::WorktreeCreate | CanonicalEvent::WorktreeRemove => json!({"name": "hookrt-doctor"}),
        _ => json!({}),
    };
    let mut m = v.as_object().cloned().unwrap_or_default();
    m.insert("session_id".into(), Value::from("hookrt-doctor"));
    m
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(name)).find(|p| p.is_file())
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// A command word as a path: `~/…` under the home directory, absolute, or relative to `cwd`.
fn path_of(word: &str, (cwd, home): (&Path, &Path)) -> PathBuf {
    match word.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None if Path::new(word).is_absolute() => PathBuf::from(word),
        None => cwd.join(word),
    }
}

/// Checks the program (and a script argument) a command runs.
pub(crate) fn check_program(words: &[String], dirs: (&Path, &Path), problems: &mut Vec<String>) -> Option<String> {
    let program = words.first()?.clone();
    if program.contains('/') {
        let p = path_of(&program, dirs);
        if !p.exists() {
            problems.push(format!("{program} does not exist"));
        } else if !is_executable(&p) {
            problems.push(format!("{program} is not executable (chmod +x it, or run it through its interpreter)"));
        }
    } else if !BUILTINS.contains(&program.as_str()) && !program.contains('=') && find_in_path(&program).is_none() {
        problems.push(format!("{program} is not on PATH"));
    }
    // `sh script.sh`, `node hook.mjs`, `python3 x.py`: the script must exist.
    if let Some(script) =
        words.get(1).filter(|a| !a.starts_with('-') && (a.contains('/') || a.contains('.')) && !a.contains('$'))
    {
        let p = path_of(script, dirs);
        if Path::new(script).extension().is_some() && !p.exists() {
            problems.push(format!("script {script} does not exist"));
        }
    }
    Some(program)
}

/// Examines and trial-runs one hook.
pub(crate) async fn examine(rt: &Runtime, hook: Arc<Hook>) -> Report {
    let mut problems = Vec::new();
    let program = program(&hook, (&rt.options().policy.cwd, &rt.options().load.home), &mut problems);
    let run = rt.trial(hook.clone(), synthetic_payload(&hook), TRIAL_CAP).await;
    // A worker was started for the trial request (its time is the round trip including the
    // start); it does not outlive the check.
    if matches!(hook.handler, HandlerSpec::Worker { .. }) {
        rt.stop_workers();
    }
    let mut report = Report {
        id: hook.id.clone(),
        file: hook.file.display().to_string(),
        kind: hook.handler.kind().as_str(),
        program,
        decision: None,
        exit_code: None,
        duration_ms: 0,
        problems,
    };
    match run {
        Some(run) => judge(&run, &mut report),
        None => report.problems.push("the trial run was aborted".into()),
    }
    report
}

/// The program a hook runs (checked to exist and be executable), when it runs one.
fn program(hook: &Hook, dirs: (&Path, &Path), problems: &mut Vec<String>) -> Option<String> {
    match &hook.handler {
        HandlerSpec::Shell { command, args: Some(args), .. }
        | HandlerSpec::Worker { command, args: Some(args), .. } => {
            let mut words = vec![command.clone()];
            words.extend(args.iter().cloned());
            check_program(&words, dirs, problems)
        }
        HandlerSpec::Shell { command, args: None, .. }
        | HandlerSpec::Worker { command, args: None, .. }
        | HandlerSpec::Proxy { command: Some(command), .. } => match shlex::split(command) {
            Some(words) => check_program(&words, dirs, problems),
            None => {
                problems.push("the command has unbalanced quotes".into());
                None
            }
        },
        _ => None,
    }
}

/// What the trial run says: its decision and time, and what was wrong with it.
fn judge(run: &crate::runtime::Run, report: &mut Report) {
    report.duration_ms = run.duration_ms;
    report.decision = Some(run.outcome.decision.unwrap_or(Decision::None));
    report.exit_code = run.outcome.exit_code;
    if let Some(e) = &run.error {
        report.problems.push(format!("could not run: {e}"));
    }
    match run.outcome.exit_code {
        Some(Some(0)) | Some(Some(2)) | None => {}
        Some(Some(c)) => {
            let first = run.outcome.stderr.lines().next().unwrap_or("").to_owned();
            let first = if first.is_empty() { String::new() } else { format!(": {first}") };
            report.problems.push(format!("exited with code {c} (a non-blocking error){first}"));
        }
        Some(None) => report.problems.push("was killed by a signal".into()),
    }
    let out = run.outcome.stdout.trim();
    if run.outcome.exit_code == Some(Some(0))
        && out.starts_with('{')
        && !matches!(serde_json::from_str::<Value>(out), Ok(Value::Object(_)))
    {
        report.problems.push("its answer starts with '{' but is not a valid JSON object, so it is ignored".into());
    }
    if run.outcome.truncated {
        report.problems.push("printed more than the output cap; the rest was dropped".into());
    }
}

/// Examines every hook, in configuration order.
pub(crate) async fn run(rt: &Runtime) -> Vec<Report> {
    let hooks: Vec<Arc<Hook>> = rt.loaded().table.hooks().to_vec();
    let mut out = Vec::with_capacity(hooks.len());
    for h in hooks {
        out.push(examine(rt, h).await);
    }
    out
}
