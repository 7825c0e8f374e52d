//! The event-specific answer fields of Claude Code's hook reference that are neither a
//! decision nor context: PermissionRequest's decision object, PostToolUse's replacement
//! output, SessionStart's title and first message, watch lists, WorktreeCreate's path,
//! elicitation answers, MessageDisplay's text. One type for a run's answer and for the folded
//! outcome, so a new field is added in one place.

use crate::event::CanonicalEvent;
use serde::Serialize;
use serde_json::{Map, Value};

/// Event-specific fields, flattened into `runs[i].outcome` and `outcome` on the wire.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventFields {
    /// PermissionRequest: the `hookSpecificOutput.decision` object (`behavior`,
    /// `updatedInput`, `updatedPermissions`, `message`, `interrupt`) of the winning run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission: Option<Value>,
    /// PostToolUse: replaces the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// SessionStart: the session's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_title: Option<String>,
    /// SessionStart: the first user message of a non-interactive session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_user_message: Option<String>,
    /// SessionStart, CwdChanged, FileChanged: absolute paths to watch for FileChanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
    /// SessionStart: re-scan skills after the hooks.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reload_skills: bool,
    /// PermissionDenied: the model may retry the denied call.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// WorktreeCreate: the created worktree's path (a command hook's stdout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult: `{action, content}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<Value>,
    /// MessageDisplay: the text shown instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_content: Option<String>,
    /// Any event: an allowlisted terminal escape sequence for the host to emit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminal_sequence: Option<String>,
}

fn string(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> Option<String> {
    match o.get(k) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            tracing::warn!("{k} on {} must be a string; ignored", event.claude_name());
            None
        }
    }
}

fn boolean(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> bool {
    match o.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            tracing::warn!("{k} on {} must be a boolean; ignored", event.claude_name());
            false
        }
    }
}

fn strings(o: &Map<String, Value>, k: &str, event: CanonicalEvent) -> Option<Vec<String>> {
    match o.get(k) {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
            Some(a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        }
        Some(_) => {
            tracing::warn!("{k} on {} must be an array of strings; ignored", event.claude_name());
            None
        }
    }
}

impl EventFields {
    /// Reads the fields `event` understands from an answer's `hookSpecificOutput` (`hso`,
    /// already checked to be for this event) and its top level.
    pub fn read(top: &Map<String, Value>, hso: Option<&Map<String, Value>>, event: CanonicalEvent) -> Self {
        use CanonicalEvent as E;
        let empty = Map::new();
        let h = hso.unwrap_or(&empty);
        let mut f = EventFields { terminal_sequence: string(top, "terminalSequence", event), ..Default::default() };
        match event {
            E::PermissionRequest => match h.get("decision") {
                Some(Value::Object(d)) => f.permission = Some(Value::Object(d.clone())),
                None | Some(Value::Null) => {}
                Some(_) => tracing::warn!("decision on PermissionRequest must be an object; ignored"),
            },
            E::ToolAfter => f.updated_tool_output = h.get("updatedToolOutput").filter(|v| !v.is_null()).cloned(),
            E::SessionStart => {
                f.session_title = string(h, "sessionTitle", event);
                f.initial_user_message = string(h, "initialUserMessage", event);
                f.watch_paths = strings(h, "watchPaths", event);
                f.reload_skills = boolean(h, "reloadSkills", event);
            }
            E::CwdChange | E::FileChange => {
                f.watch_paths = strings(h, "watchPaths", event).or_else(|| strings(top, "watchPaths", event));
            }
            E::PermissionDenied => f.retry = boolean(h, "retry", event),
            E::WorktreeCreate => f.worktree_path = string(h, "worktreePath", event),
            E::ElicitationRequest | E::ElicitationResult => {
                let action = string(h, "action", event);
                if let Some(action) = action {
                    let mut e = Map::new();
                    e.insert("action".into(), Value::String(action));
                    if let Some(c) = h.get("content").filter(|c| !c.is_null()) {
                        e.insert("content".into(), c.clone());
                    }
                    f.elicitation = Some(Value::Object(e));
                }
            }
            E::MessageDisplay => f.display_content = string(h, "displayContent", event),
            _ => {}
        }
        f
    }

    /// Folds a later run's fields in (configuration order): single values keep the first,
    /// watch lists are joined, flags are set by any run.
    pub fn merge(&mut self, later: &EventFields) {
        fn first<T: Clone>(a: &mut Option<T>, b: &Option<T>) {
            if a.is_none() {
                a.clone_from(b);
            }
        }
        first(&mut self.updated_tool_output, &later.updated_tool_output);
        first(&mut self.session_title, &later.session_title);
        first(&mut self.initial_user_message, &later.initial_user_message);
        first(&mut self.worktree_path, &later.worktree_path);
        first(&mut self.elicitation, &later.elicitation);
        first(&mut self.display_content, &later.display_content);
        first(&mut self.terminal_sequence, &later.terminal_sequence);
        if let Some(w) = &later.watch_paths {
            self.watch_paths.get_or_insert_with(Vec::new).extend(w.iter().cloned());
        }
        self.reload_skills |= later.reload_skills;
        self.retry |= later.retry;
    }
}
