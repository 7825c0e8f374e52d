//! One hook's event name and matcher in the target dialect: events through their canonical
//! event (tool-class events such as Cursor's `beforeShellExecution` become a matcher, and
//! back), tool names through `harness::tools`.

use super::NotConverted;
use crate::config::{Hook, Matcher};
use crate::harness::{self, tools};
use crate::vocab::text::quote;
use crate::vocab::{CanonicalEvent, Dialect, ToolClass, ToolResult};
use serde_json::{Map, Value};

pub(crate) type Parts = (String, Option<String>, Map<String, Value>, Vec<String>);

/// One hook as the target writes it: event name, matcher, entry object, warnings.
pub(crate) fn convert_hook(h: &Hook, to: Dialect) -> Result<Parts, NotConverted> {
    let mut warns = Vec::new();
    // The matcher in Claude's tool names; a tool-class event is the class's matcher.
    let mut matcher = h.matcher_text.clone().filter(|m| !Matcher::is_match_all(m));
    if h.dialect == Dialect::Copilot {
        matcher = matcher.map(|m| if is_name_list(&m) { m } else { format!("^(?:{m})$") });
    }
    matcher = matcher.map(|m| rename_tools(&m, None, &mut warns, h.dialect));
    if let Some(class) = h.harness.class {
        if matcher.is_some() {
            warns.push("a matcher on a tool-class event is dropped".into());
        }
        matcher = Some(tools::class_matcher(class).to_owned());
    }
    let (event, class_event) = event_name(h, to, matcher.as_deref(), &mut warns)?;
    if class_event {
        matcher = None;
    }
    if let Some(m) = &matcher {
        if !takes_matcher(to, h.canonical, &event) {
            warns.push(format!("{event} takes no matcher in {}; {} dropped", to.as_str(), quote(m)));
            matcher = None;
        }
    }
    let matcher = matcher.map(|m| rename_tools(&m, Some(to), &mut warns, h.dialect));
    let entry = crate::convert::entry::entry(h, to, &mut warns)?;
    Ok((event, matcher, entry, warns))
}

fn is_name_list(m: &str) -> bool {
    !m.is_empty()
        && m.split('|').all(|t| {
            // `-` is literal outside a class: Auggie's `launch-process` is a name.
            !t.trim().is_empty() && t.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
}

/// Renames the tool names of a `A|B` matcher to Claude's (`to: None`) or the target's names;
/// a regex is kept as written, with a warning when it may name tools the target spells
/// differently.
fn rename_tools(m: &str, to: Option<Dialect>, warns: &mut Vec<String>, from: Dialect) -> String {
    if !is_name_list(m) {
        let differs = to.is_some_and(|t| harness::of(t).names_tools()) || harness::of(from).names_tools();
        if to.is_some() && differs {
            warns.push(format!("regex matcher {} copied as written; tool names may differ", quote(m)));
        }
        return m.to_owned();
    }
    let names: Vec<&str> = m
        .split('|')
        .map(str::trim)
        .map(|n| match to {
            None => tools::canonical_name(n),
            Some(d) if harness::of(d).names_tools() => tools::spelling(d, n).unwrap_or(n),
            Some(_) => n,
        })
        .collect();
    let mut unique: Vec<&str> = Vec::new();
    for n in names {
        if !unique.contains(&n) {
            unique.push(n);
        }
    }
    unique.join("|")
}

fn takes_matcher(to: Dialect, canonical: CanonicalEvent, event: &str) -> bool {
    match to {
        Dialect::Windsurf => false,
        d if harness::of(d).names_tools() => harness::of(d).events().iter().any(|e| e.name == event && e.matcher),
        _ => canonical.has_subject(),
    }
}

/// The target's event name; `true` when it is a tool-class event standing for the matcher.
fn event_name(
    h: &Hook,
    to: Dialect,
    matcher: Option<&str>,
    warns: &mut Vec<String>,
) -> Result<(String, bool), NotConverted> {
    let (c, r) = (h.canonical, h.tool_result);
    let missing = || NotConverted::NoEvent { to: to.as_str(), event: c.as_str() };
    // Cursor and Windsurf hook a class of tools by event name.
    if matches!(to, Dialect::Cursor | Dialect::Windsurf)
        && matches!(c, CanonicalEvent::ToolBefore | CanonicalEvent::ToolAfter)
    {
        if let Some(name) = class_event(to, c, matcher, warns)? {
            return Ok((name, true));
        }
    }
    let name = match to {
        Dialect::Claude | Dialect::Codex => canonical_name(h, to, warns).ok_or_else(missing)?,
        Dialect::Opencode => name_for(to, c, ToolResult::Either).ok_or_else(missing)?.to_owned(),
        Dialect::Native => native_name(h, warns),
        Dialect::Hermes | Dialect::Agents | Dialect::Cline | Dialect::Kimi => {
            return Err(NotConverted::Target(to.as_str()))
        }
        d => name_for(d, c, r)
            .or_else(|| name_for(d, c, ToolResult::Either))
            .or_else(|| name_for(d, c, ToolResult::Success))
            .ok_or_else(missing)?
            .to_owned(),
    };
    Ok((name, false))
}

/// A native file's name for the hook's event: Claude Code's name for a Claude Code hook (a
/// native hook so named gets Claude Code's stdin and variables: it receives what it did), else
/// the canonical name, with a word on what the hook will receive instead.
fn native_name(h: &Hook, warns: &mut Vec<String>) -> String {
    if h.dialect == Dialect::Claude {
        if let Some(name) = canonical_name(h, Dialect::Claude, warns) {
            return name;
        }
    }
    let c = h.canonical.as_str();
    warns.push(format!(
        "as a native hook it reads hookrt's envelope, not {}'s stdin (hook_event_name {c:?} instead of {:?}, plus event and ts)",
        h.dialect.as_str(),
        h.event
    ));
    let only = match h.tool_result {
        ToolResult::Failure => Some("failed"),
        ToolResult::Success => Some("successful"),
        ToolResult::Either => None,
    };
    if let Some(only) = only {
        warns.push(format!("{c} runs after every tool call ({} ran only after {only} ones)", h.event));
    }
    c.to_owned()
}

/// The tool-class event (`beforeShellExecution`) a matcher's tools belong to; Windsurf has no
/// other way to hook a tool.
fn class_event(
    to: Dialect,
    c: CanonicalEvent,
    matcher: Option<&str>,
    warns: &mut Vec<String>,
) -> Result<Option<String>, NotConverted> {
    let class = matcher.and_then(class_of_matcher);
    let by_class = harness::of(to).events().iter().find(|e| e.canonical == c && e.class.is_some() && e.class == class);
    if let Some(e) = by_class {
        let full = e.class.map(tools::class_matcher).unwrap_or_default();
        if matcher != Some(full) {
            warns.push(format!("matcher {:?} widened to every tool {} hooks ({full})", matcher.unwrap_or("*"), e.name));
        }
        return Ok(Some(e.name.to_owned()));
    }
    if to == Dialect::Windsurf {
        return Err(NotConverted::NoToolClass(matcher.unwrap_or("*").to_owned()));
    }
    Ok(None)
}

/// Claude's or Codex's name of the hook's event, where the target has it.
fn canonical_name(h: &Hook, to: Dialect, warns: &mut Vec<String>) -> Option<String> {
    let c = h.canonical;
    let in_codex = harness::codex::EVENTS.iter().any(|e| e.canonical == c);
    if !(harness::family::events::has(c) && (to == Dialect::Claude || in_codex)) {
        return None;
    }
    Some(match (c, h.tool_result) {
        (CanonicalEvent::ToolAfter, ToolResult::Failure) if to == Dialect::Codex => {
            warns.push("Codex has no PostToolUseFailure; written as PostToolUse (runs after every tool call)".into());
            "PostToolUse".to_owned()
        }
        (CanonicalEvent::ToolAfter, ToolResult::Failure) => "PostToolUseFailure".to_owned(),
        (CanonicalEvent::ToolAfter, ToolResult::Either) if to == Dialect::Claude && h.dialect != Dialect::Codex => {
            warns.push("PostToolUse runs only after successful tool calls in Claude Code".into());
            "PostToolUse".to_owned()
        }
        _ => harness::family::events::name_of(c).to_owned(),
    })
}

fn class_of_matcher(m: &str) -> Option<ToolClass> {
    [ToolClass::Shell, ToolClass::Read, ToolClass::Write, ToolClass::Mcp].into_iter().find(|c| {
        let names: Vec<&str> = tools::class_matcher(*c).split('|').collect();
        m == tools::class_matcher(*c)
            || (is_name_list(m) && m.split('|').all(|t| names.contains(&tools::canonical_name(t.trim()))))
    })
}

/// The name `dialect` gives a canonical event (and after-tool outcome); class events are not
/// chosen (they stand for a matcher).
fn name_for(dialect: Dialect, canonical: CanonicalEvent, result: ToolResult) -> Option<&'static str> {
    harness::of(dialect)
        .events()
        .iter()
        .find(|e| e.canonical == canonical && e.result == result && e.class.is_none())
        .map(|e| e.name)
}
