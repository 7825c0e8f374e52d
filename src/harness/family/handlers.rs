//! The handler of one Claude-shaped hook entry, made from what the family's file type read
//! (schema.rs): `command` (or exec form `args`, or a worker), `http`, `mcp_tool`, `prompt`,
//! `agent`/`subagent`. Commands and arguments get the file's substitutions.

use crate::config::{HandlerSpec, Substitutions};
use crate::harness::family::fields::warm;
use crate::harness::family::schema::{EnvOrHeaders, Family, Read};
use crate::harness::schema::{given, Lenient, Must};
use crate::vocab::{Severity, WorkerSettings};
use serde_json::{Map, Value};

fn strings(m: &Option<Lenient<EnvOrHeaders>>) -> Vec<(String, String)> {
    given(m).map(|m| m.0 .0.clone()).unwrap_or_default()
}

fn args(a: &Option<Must<Vec<String>>>, subst: &Substitutions) -> Option<Vec<String>> {
    a.as_ref().map(|a| a.0.iter().map(|s| subst.apply(s)).collect())
}

/// The handler an entry read as `read` runs; `obj` holds what the file type leaves open
/// (`model`, a worker's `warm`).
pub(crate) fn handler<F: Family>(
    read: &Read,
    obj: &Map<String, Value>,
    subst: &Substitutions,
    diag: &mut dyn FnMut(Severity, &str),
) -> HandlerSpec {
    match read {
        Read::Command(c) => {
            HandlerSpec::Shell { command: subst.apply(&c.command.0), args: args(&c.args, subst), env: strings(&c.env) }
        }
        Read::Worker(w) => {
            let mut settings = WorkerSettings::default();
            if let Some(n) = given(&w.max_in_flight) {
                settings.max_in_flight = n.0 as usize;
            }
            if let Some(t) = given(&w.idle_timeout) {
                settings.idle_timeout = t.0;
            }
            settings.warm = warm(obj, diag).unwrap_or(settings.warm);
            let (command, env) = (subst.apply(&w.command.0), strings(&w.env));
            HandlerSpec::Worker { command, args: args(&w.args, subst), env, settings }
        }
        Read::FullHttp(h) => HandlerSpec::Http {
            url: h.url.0.clone(),
            headers: strings(&h.headers),
            allowed_env_vars: given(&h.allowed_env_vars).map(|v| v.0.clone()).unwrap_or_default(),
        },
        Read::Webhook(h) => HandlerSpec::Webhook { url: h.url.0.trim().to_owned(), headers: strings(&h.headers) },
        Read::McpTool(m) => HandlerSpec::McpTool {
            server: m.server.0 .0.clone(),
            tool: m.tool.0 .0.clone(),
            input: Value::Object(m.input.as_ref().map(|i| i.0.clone()).unwrap_or_default()),
        },
        Read::Prompt(p) => {
            let prompt = &p.prompt.0;
            // Claude: "If $ARGUMENTS is not present, input JSON is appended to the prompt".
            let prompt = match F::FULL_HANDLERS && !prompt.contains("$ARGUMENTS") {
                true => format!("{prompt}\n\n$ARGUMENTS"),
                false => prompt.clone(),
            };
            HandlerSpec::Oracle { prompt, model: obj.get("model").and_then(Value::as_str).map(str::to_owned) }
        }
        Read::Agent(a) => HandlerSpec::Proxy {
            prompt: a.prompt.0.clone(),
            command: a.command.as_ref().map(|c| subst.apply(&c.0 .0)),
            env: strings(&a.env),
        },
    }
}
