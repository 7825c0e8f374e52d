//! GitHub Copilot CLI and coding agent: `.github/hooks/*.json`, `~/.copilot/hooks/*.json`
//! (docs/harnesses/copilot.md): camelCase events with camelCase stdin (PascalCase event names
//! get the VS Code snake_case shape), anchored regex matchers, `permissionDecision` /
//! `modifiedArgs` answers, its own exit-code rules, and a file's hooks run one after the other.

mod install;
mod input;
mod reply;
mod schema;
mod trust;

use crate::config::candidate::sorted_dir;
use crate::config::entry::{self, Entry};
use crate::harness::schema::{env_of, given};
use schema::Form;
use crate::config::{HomeDir, Candidate, FileCtx, HandlerSpec, LoadSink, Roots};
use crate::harness::tools::ToolNames;
use crate::harness::Descriptor;
use crate::harness::parts::{Aggregator, AnswerReader, Planner, Reader, Replier, TrustGate};
use crate::harness::{EnvCtx, Harness, NameClaim, PayloadCtx};
use crate::vocab::CanonicalEvent as E;
use crate::vocab::{
    Answer, Decision, Dialect, EventSpec, MatcherStyle, Order, RunOutcome, Scope, Shell, ToolResult,
    BLOCKED_BY_HOOK,
};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) struct Copilot;

const fn ev(name: &'static str, e: E) -> EventSpec {
    EventSpec::plain(name, e)
}

const fn tool(name: &'static str, e: E, r: ToolResult) -> EventSpec {
    EventSpec::tool(name, e, r)
}

pub(crate) static EVENTS: [EventSpec; 25] = [
    ev("sessionStart", E::SessionStart),
    ev("sessionEnd", E::SessionEnd),
    ev("userPromptSubmitted", E::PromptSubmit),
    ev("userPromptTransformed", E::PromptTransformed),
    tool("preToolUse", E::ToolBefore, ToolResult::Either),
    tool("postToolUse", E::ToolAfter, ToolResult::Success),
    tool("postToolUseFailure", E::ToolAfter, ToolResult::Failure),
    tool("permissionRequest", E::PermissionRequest, ToolResult::Either),
    ev("notification", E::Notice).with_matcher(),
    ev("preCompact", E::CompactBefore).with_matcher(),
    ev("subagentStart", E::SubagentStart).with_matcher(),
    ev("subagentStop", E::SubagentEnd),
    ev("agentStop", E::TurnStop),
    ev("errorOccurred", E::TurnFail),
    // The VS Code compatible spellings.
    tool("PreToolUse", E::ToolBefore, ToolResult::Either),
    tool("PostToolUse", E::ToolAfter, ToolResult::Success),
    tool("PostToolUseFailure", E::ToolAfter, ToolResult::Failure),
    tool("PermissionRequest", E::PermissionRequest, ToolResult::Either),
    ev("SessionStart", E::SessionStart),
    ev("SessionEnd", E::SessionEnd),
    ev("UserPromptSubmit", E::PromptSubmit),
    ev("Stop", E::TurnStop),
    ev("SubagentStop", E::SubagentEnd),
    ev("PreCompact", E::CompactBefore),
    ev("ErrorOccurred", E::TurnFail),
];

/// Copilot's names of the tools Claude Code names so (the first is the one its hooks read
/// and `convert` writes).
#[rustfmt::skip]
const TOOL_NAMES: &ToolNames = &[
    ("Bash", &["bash", "powershell"]),
    ("Read", &["view"]),
    ("Write", &["create"]),
    ("Edit", &["edit", "str_replace_editor", "apply_patch"]),
    ("Grep", &["grep", "rg"]),
    ("Glob", &["glob"]),
    ("WebFetch", &["web_fetch"]),
    ("WebSearch", &["web_search"]),
    ("TodoWrite", &["update_todo"]),
    ("Task", &["task"]),
    ("AskUserQuestion", &["ask_user"]),
];

/// Copilot CLI's folder: `$COPILOT_HOME`, else `~/.copilot`.
pub(crate) const HOME: HomeDir = HomeDir { var: "COPILOT_HOME", default: ".copilot" };

/// What it is, as data.
static DESCRIPTOR: Descriptor = Descriptor {
    home_dir: Some(HOME),
    tool_names: Some(TOOL_NAMES),
    stdin_newline: false,
    env_removed: &["COPILOT_PROVIDER_*", "COPILOT_OFFLINE"],
    shell: Shell::Bash,
    ..Descriptor::new(Dialect::Copilot, &EVENTS, MatcherStyle::Anchored)
};

impl Harness for Copilot {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn file_schema(&self) -> Option<&'static crate::harness::schema::FileSchema> {
        Some(&schema::SCHEMA)
    }

    fn files(&self, r: Roots) -> Vec<Candidate> {
        let json_files =
            |d: std::path::PathBuf| sorted_dir(&d).into_iter().filter(|p| p.extension().is_some_and(|e| e == "json"));
        // `userHooksDir`: `resolveCopilotHome(configDir, $COPILOT_HOME, homedir)/hooks` (1.0.102).
        let mut v: Vec<Candidate> = json_files(r.dir(HOME).join("hooks"))
            .map(|p| Candidate::of(p, Dialect::Copilot, Scope::Global))
            .collect();
        v.extend(json_files(r.cwd.join(".github/hooks")).map(|p| Candidate::of(p, Dialect::Copilot, Scope::Project)));
        v
    }

    fn owns_path(&self, path: &Path) -> bool {
        matches!(crate::config::candidate::path_parts(path), (_, "hooks", ".github" | ".copilot"))
    }

    fn owns_event_names(&self, keys: &[&str]) -> Option<NameClaim> {
        keys.iter().any(|k| crate::harness::family::events::is_own_name(k, &EVENTS)).then_some(NameClaim::Own)
    }

    fn file_kind(&self, _path: &Path) -> &'static str {
        "Copilot hooks file"
    }

    fn input(&self, ctx: &PayloadCtx) -> Map<String, Value> {
        input::input(ctx)
    }

    fn env(&self, e: &EnvCtx) -> Vec<(String, String)> {
        let hook_dir = e.file.parent().map(|d| d.display().to_string()).unwrap_or_default();
        vec![
            ("COPILOT_PROJECT_DIR".into(), e.project_dir.to_owned()),
            ("COPILOT_HOOK_DIR".into(), hook_dir),
            ("COPILOT_CLI".into(), "1".into()),
            ("CLAUDE_PROJECT_DIR".into(), e.project_dir.to_owned()),
        ]
    }
}

impl Reader for Copilot {
    fn sample_paths(&self) -> &'static [&'static str] {
        &["/p/.github/hooks/a.json"]
    }

    fn parse(&self, ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
        parse(ctx, root, sink)
    }

    /// A file's `disableAllHooks` speaks for that file only.
    fn switches_all(&self) -> bool {
        false
    }
}

impl Planner for Copilot {
    fn names_tools(&self) -> bool {
        true
    }
}

impl AnswerReader for Copilot {
    fn read_answer(&self, a: &Answer, event: E, out: &mut RunOutcome) {
        crate::harness::family::answer::read(a, event, out);
        read(a.top, out);
    }

    fn exit_rule(&self, code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) {
        exit_rule(code, event, stdout, stderr, out);
    }

    fn json_only(&self) -> bool {
        true
    }

    fn read_for_hook(&self, hook: &crate::config::Hook, out: &mut RunOutcome) {
        if hook.canonical == E::ToolBefore && !vscode_shape(&hook.event) && out.answered {
            own_fields_only(out);
        }
    }

    /// A failed `preToolUse` hook's deny names its file, as Copilot tells the model.
    fn settle(&self, hook: &crate::config::Hook, out: &mut RunOutcome, _loop_count: u32) {
        if out.reason.as_deref() == Some(HOOK_ERRORED) {
            let path = hook.file.display().to_string();
            let shown = path.find("/.github/").map(|i| &path[i + 1..]).unwrap_or(&path);
            out.reason =
                Some(format!("Denied by preToolUse hook from {} (hook errored)", serde_json::Value::from(shown)));
        }
    }
}

impl Aggregator for Copilot {}

impl Replier for Copilot {
    fn reply(&self, said: &crate::harness::reply::Said) -> crate::harness::reply::Reply {
        reply::reply(said)
    }
}

impl TrustGate for Copilot {
    fn trust_vars(&self) -> &'static [&'static str] {
        &[trust::ALLOW_ALL]
    }

    /// Copilot CLI 1.0.102 tells its hooks where the project and the hook's file are, and keeps
    /// its model provider's settings (and secrets) from them.
    fn trust(
        &self,
        ctx: &crate::harness::trust::TrustCtx,
        hooks: &[crate::config::Hook],
    ) -> Vec<crate::harness::trust::Verdict> {
        trust::verdicts(ctx, hooks)
    }

    fn project_trust(&self, p: &crate::harness::trust::ProjectCtx) -> Option<crate::harness::trust::Verdict> {
        Some(trust::project(p))
    }
}

/// Default timeout of a Copilot hook, in seconds.
pub(crate) const DEFAULT_TIMEOUT: f64 = 30.0;

/// Whether the event name asks for the VS Code (snake_case) stdin shape.
pub(crate) fn vscode_shape(spelling: &str) -> bool {
    spelling.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Copilot's answer fields beyond Claude's.
pub(crate) fn read(obj: &Map<String, Value>, out: &mut RunOutcome) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
    if let Some(d) = obj.get("permissionDecision").and_then(Value::as_str).and_then(Decision::from_word) {
        out.decision = Some(d);
    }
    if let Some(r) = text("permissionDecisionReason") {
        out.reason = Some(r);
    }
    if obj.get("behavior").and_then(Value::as_str) == Some("allow") {
        out.decision = Some(Decision::Allow);
    }
    if obj.get("decision").and_then(Value::as_str) == Some("allow") {
        out.decision = Some(Decision::Allow);
    }
    if let Some(u) = obj.get("modifiedArgs").filter(|u| u.is_object()) {
        out.update_input = Some(u.clone());
    }
    if let Some(r) = obj.get("modifiedResult").filter(|r| r.is_object()) {
        out.fields.updated_tool_output = Some(r.clone());
    }
}

/// Copilot 1.0.102 reads a camelCase `preToolUse` hook's answer by its own fields: Claude's
/// `hookSpecificOutput`, `decision: "block"` and `continue: false` do nothing there (recorded:
/// S11–S13; the PascalCase spelling honours `hookSpecificOutput`, S11-pascal).
fn own_fields_only(out: &mut RunOutcome) {
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(&out.stdout) else { return };
    (out.decision, out.reason, out.update_input) = (None, None, None);
    (out.stop, out.stop_reason) = (false, None);
    read(&obj, out);
}

/// The default Copilot reason for a `preToolUse` hook that failed; [`settle`] names its file.
pub(crate) const HOOK_ERRORED: &str = "Denied by preToolUse hook (hook errored)";

/// What Copilot tells the model of a `preToolUse` hook that exited 2 (its stderr stays hidden).
pub(crate) const EXITED_TWO: &str = "hook exited with code 2";

/// Copilot's exit codes: 2 warns, except on `preToolUse` and `permissionRequest` (deny) and
/// `postToolUseFailure` (stdout becomes context); any other failure of a `preToolUse` hook
/// denies (fail-closed; timeouts are not exits and stay fail-open).
pub(crate) fn exit_rule(code: Option<i32>, event: E, stdout: &str, stderr: &str, out: &mut RunOutcome) {
    match (code, event) {
        (Some(0), _) => {}
        // a JSON answer on stdout gives the deny its reason (recorded: S14)
        (Some(2), E::ToolBefore) => {
            out.reason = None; // stderr stays hidden
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(stdout) {
                read(&o, out);
            }
            out.decision = Some(Decision::Deny);
            out.reason = Some(out.reason.take().filter(|r| !r.is_empty()).unwrap_or_else(|| EXITED_TWO.to_owned()));
        }
        (_, E::ToolBefore) => {
            out.decision = Some(Decision::Deny);
            out.reason = Some(HOOK_ERRORED.to_owned());
        }
        (Some(2), E::PermissionRequest) => {
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(stdout) {
                read(&o, out);
                if let Some(m) = o.get("message").and_then(Value::as_str) {
                    out.reason = Some(m.to_owned());
                }
            }
            out.decision = Some(Decision::Deny);
            // Copilot ignores stderr here; without a `message` the deny still says why.
            if out.reason.is_none() {
                out.reason = Some(BLOCKED_BY_HOOK.to_owned());
            }
        }
        (Some(2), E::ToolAfter) if !stdout.is_empty() => {
            out.decision = None;
            out.reason = None;
            out.contexts.push(stdout.to_owned());
        }
        (Some(2), _) => {
            out.decision = None;
            out.reason = None;
            tracing::warn!("copilot hook exited 2 on {}: a warning in Copilot: {stderr}", event.as_str());
        }
        _ => {}
    }
}

/// Parses a Copilot file, each entry through its file type; returns the number of hooks accepted.
fn parse(ctx: &FileCtx, root: &Map<String, Value>, sink: &mut LoadSink) -> usize {
    let Some(map) = entry::hooks_object(ctx, root, sink) else { return 0 };
    if root.get("disableAllHooks") == Some(&Value::Bool(true)) {
        return 0;
    }
    entry::each_entry(ctx, map, sink, |spec, e, i, sink| {
        let Some(read) = crate::harness::schema::entry::<schema::CopilotHook>(e, sink) else { return false };
        let c = read.common;
        let text = c.matcher.map(|m| m.0);
        let Some((matcher_text, matcher)) = e.compile_matcher(sink, spec.canonical, text, None) else { return false };
        let mut h = entry::hook(ctx, e.event, (spec.canonical, spec.result), &i.to_string(), handler(e, read.form));
        h.matcher_text = matcher_text;
        h.matcher = matcher;
        // `timeoutSec`, else the older `timeout`, else Copilot's default.
        h.timeout = Some(given(&c.timeout_sec).or(given(&c.timeout)).map_or(DEFAULT_TIMEOUT, |t| t.0));
        h.harness.order = Order::UntilDeny;
        h.harness.cwd = given(&c.cwd).cloned();
        sink.hooks.push(h);
        true
    })
}

/// The handler of a hook read through its type, with the file's substitutions applied.
fn handler(e: &Entry, form: Form) -> HandlerSpec {
    let subst = |s: &str| e.ctx.subst.apply(s);
    let env = |env| env_of(env, e.ctx.subst);
    match form {
        Form::Exec(x) => {
            let args = x.args.map(|a| a.0.iter().map(|s| subst(s)).collect()).unwrap_or_default();
            HandlerSpec::Shell { command: subst(&x.exec.0), args: Some(args), env: env(&x.env) }
        }
        Form::Shell(command, x) => entry::shell(subst(&command), env(&x.env)),
        Form::Http(x) => {
            // Read as Copilot reads them, beside its type: strings kept, the rest dropped.
            let headers = match e.obj.get("headers").and_then(Value::as_object) {
                Some(m) => m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned()))).collect(),
                None => Vec::new(),
            };
            let allowed_env_vars = match e.obj.get("allowedEnvVars").and_then(Value::as_array) {
                Some(a) => a.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
                None => Vec::new(),
            };
            HandlerSpec::Http { url: subst(&x.url.0), headers, allowed_env_vars }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::HandlerSpec;
    use crate::vocab::Dialect;
    use std::path::Path;

    /// Each entry read through the file type: the form by `type`, `env` in the file's order,
    /// `timeoutSec` before the older `timeout`, a wrong optional field reported and left out.
    #[test]
    fn entries_are_read_through_the_file_type() {
        let text = r#"{"version":1,"hooks":{"preToolUse":[
          {"type":"command","bash":"  ","command":"g.sh","env":{"Z":"1","A":"2"},"timeoutSec":3,"timeout":9,"cwd":7},
          {"exec":"run","args":["-x",1]},
          {"type":"prompt","command":"p.sh"},
          {"type":"http","url":"http://127.0.0.1:9/h","timeout":"soon"}]}}"#;
        let (hooks, diags) = crate::load::parse_text(Path::new("/p/.github/hooks/a.json"), Some(Dialect::Copilot), text);
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "hooks[preToolUse][0]: cwd must be a string",
                "hooks[preToolUse][1]: args must be an array of strings",
                "hooks[preToolUse][2]: unknown hook type \"prompt\"",
                "hooks[preToolUse][3]: timeout must be a positive number of seconds",
            ]
        );
        assert_eq!(hooks.len(), 2);
        let HandlerSpec::Shell { command, env, .. } = &hooks[0].handler else { panic!("{:?}", hooks[0].handler) };
        assert_eq!((command.as_str(), env.clone()), ("g.sh", vec![("Z".into(), "1".into()), ("A".into(), "2".into())]));
        assert_eq!((hooks[0].timeout, hooks[0].harness.cwd.clone()), (Some(3.0), None));
        assert!(matches!(&hooks[1].handler, HandlerSpec::Http { url, .. } if url == "http://127.0.0.1:9/h"));
        assert_eq!(hooks[1].timeout, Some(super::DEFAULT_TIMEOUT));
    }
}
