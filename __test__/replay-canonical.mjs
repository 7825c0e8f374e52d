// The canonical replay: what a host that speaks Claude Code's payloads would dispatch at the
// moment a harness called a hook (docs/events.md "The canonical payload"), and how the stdin
// hookrt shapes from it is compared with the harness's: every field the harness sent, in its
// order and of its JSON type, with the same value wherever the host's payload carries it.
import { isDeepStrictEqual } from 'node:util'
import { payloadOf, shape } from './replay-lib.mjs'

// The shell tool under each harness's name.
const SHELL = { run_shell_command: 'Bash', bash: 'Bash', terminal: 'Bash', Bash: 'Bash', Execute: 'Bash', run_commands: 'Bash' }
const claudeTool = n => (n == null ? n : SHELL[n] ?? n)

// A tool's output as Claude Code reports it.
const toolResponse = text => ({ stdout: text ?? '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false })

// The harness's words for a session's start and end, in Claude Code's (recorded the same moment:
// Claude's S1 says `startup` / `other` where Gemini says `startup` / `exit` and Copilot `new` / `complete`).
const SOURCE = { new: 'startup' }
const REASON = { exit: 'other', complete: 'other' }

const pick = (o, keys) => Object.fromEntries(keys.filter(k => o[k] !== undefined).map(k => [k, o[k]]))

/** Claude-named base fields every canonical payload carries, from whatever the harness called them. */
function base(s) {
  return {
    session_id: s.session_id ?? s.sessionId,
    transcript_path: s.transcript_path ?? s.transcriptPath,
    cwd: s.cwd,
  }
}

const GEMINI = {
  SessionStart: 'SessionStart', SessionEnd: 'SessionEnd', BeforeAgent: 'UserPromptSubmit', AfterAgent: 'Stop',
  BeforeTool: 'PreToolUse', AfterTool: 'PostToolUse', PreCompress: 'PreCompact', Notification: 'Notification',
  BeforeModel: 'model:before', AfterModel: 'model:after', BeforeToolSelection: 'tool:select',
}
const COPILOT = {
  sessionStart: 'SessionStart', sessionEnd: 'SessionEnd', userPromptSubmitted: 'UserPromptSubmit',
  userPromptTransformed: 'prompt:transformed', preToolUse: 'PreToolUse', postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure', permissionRequest: 'PermissionRequest', agentStop: 'Stop',
  subagentStart: 'SubagentStart', subagentStop: 'SubagentStop', errorOccurred: 'ErrorOccurred',
  preCompact: 'PreCompact', notification: 'Notification',
}
const HERMES = {
  on_session_start: 'SessionStart', on_session_end: 'SessionEnd', on_session_finalize: 'session:finalize',
  on_session_reset: 'session:reset', pre_llm_call: 'UserPromptSubmit', post_llm_call: 'agent:response',
  pre_api_request: 'model:before', post_api_request: 'model:after', api_request_error: 'model:error',
  pre_tool_call: 'PreToolUse', post_tool_call: 'PostToolUse', transform_terminal_output: 'terminal:output',
  transform_tool_result: 'tool:result', transform_llm_output: 'response:transform', pre_verify: 'Stop',
  subagent_start: 'SubagentStart', subagent_stop: 'SubagentStop',
}

/** The fields a Claude-speaking host has for one Gemini moment. */
function gemini(event, s) {
  const p = { ...base(s), hook_event_name: GEMINI[event] }
  switch (event) {
    case 'SessionStart': return { ...p, source: SOURCE[s.source] ?? s.source }
    case 'SessionEnd': return { ...p, reason: REASON[s.reason] ?? s.reason }
    case 'BeforeAgent': return { ...p, prompt: s.prompt }
    case 'AfterAgent': return { ...p, stop_hook_active: s.stop_hook_active, last_assistant_message: s.prompt_response }
    case 'BeforeTool': return { ...p, tool_name: claudeTool(s.tool_name), tool_input: s.tool_input }
    case 'AfterTool':
      return { ...p, tool_name: claudeTool(s.tool_name), tool_input: s.tool_input, tool_response: toolResponse(s.tool_response?.returnDisplay) }
    case 'PreCompress': return { ...p, trigger: s.trigger, custom_instructions: '' }
    default: return { ...p, ...pick(s, ['llm_request', 'llm_response', 'notification_type', 'message', 'details']) }
  }
}

/** The fields a Claude-speaking host has for one Copilot moment (camelCase or PascalCase file). */
function copilot(event, s) {
  const pascal = /^[A-Z]/.test(event)
  const p = { ...base(s), hook_event_name: pascal ? event : COPILOT[event] }
  const toolName = claudeTool(s.toolName ?? s.tool_name)
  const toolInput = s.toolArgs ?? s.toolInput ?? s.tool_input
  switch (p.hook_event_name) {
    case 'SessionStart':
      return { ...p, source: SOURCE[s.source] ?? s.source, initial_prompt: s.initialPrompt ?? s.initial_prompt }
    case 'SessionEnd': return { ...p, reason: REASON[s.reason] ?? s.reason }
    case 'UserPromptSubmit': return { ...p, prompt: s.prompt }
    case 'prompt:transformed': return { ...p, ...pick(s, ['prompt', 'transformedPrompt', 'originalPrompt']) }
    case 'PreToolUse': return { ...p, tool_name: toolName, tool_input: toolInput }
    case 'PermissionRequest':
      return { ...p, tool_name: toolName, tool_input: toolInput, permission_suggestions: s.permissionSuggestions ?? s.permission_suggestions ?? [] }
    case 'PostToolUse': {
      const r = s.toolResult ?? s.tool_result ?? {}
      return { ...p, tool_name: toolName, tool_input: toolInput, tool_response: toolResponse(r.textResultForLlm ?? r.text_result_for_llm) }
    }
    case 'Stop': return { ...p, stop_hook_active: s.stop_hook_active, stop_reason: s.stopReason ?? s.stop_reason }
    default: return { ...p, ...s, hook_event_name: p.hook_event_name }
  }
}

/** The fields a Claude-speaking host has for one Hermes moment: Claude's names, the rest as they are. */
function hermes(event, s) {
  const extra = { ...(s.extra ?? {}) }
  const p = { ...base(s), hook_event_name: HERMES[event] }
  if (s.tool_name != null) p.tool_name = claudeTool(s.tool_name)
  if (s.tool_input != null) p.tool_input = s.tool_input
  if ('tool_call_id' in extra) { p.tool_use_id = extra.tool_call_id; delete extra.tool_call_id }
  if (event === 'pre_llm_call' && 'user_message' in extra) { p.prompt = extra.user_message; delete extra.user_message }
  delete extra.telemetry_schema_version
  return { ...p, ...extra }
}

/** Codex sends Claude's fields plus `turn_id` and `model`; its tool output is a string. */
function codex(event, s) {
  if (event === 'PreModelRequest') return { ...s, hook_event_name: 'model:before' }
  const p = { ...s }
  if (event === 'PostToolUse' && typeof s.tool_response === 'string') p.tool_response = toolResponse(s.tool_response)
  return p
}

/**
 * Qwen Code and Droid send Claude's fields (and, Qwen, a few of its own, passed through as a host
 * would); the tool under its own name, its output as Qwen's `{llmContent, returnDisplay}` or Droid's text.
 */
function claudeLike(event, s) {
  const p = { ...s, hook_event_name: event }
  if (s.tool_name !== undefined) p.tool_name = claudeTool(s.tool_name)
  if (event.startsWith('PostToolUse') && s.tool_response !== undefined) {
    const text = typeof s.tool_response === 'string' ? s.tool_response : s.tool_response?.llmContent
    p.tool_response = toolResponse(text)
  }
  return p
}

/** What a Claude-speaking host has at the moment Cline ran one of its hook files. */
function cline(event, s) {
  const p = { session_id: s.taskId, cwd: s.workspaceRoots?.[0], agent_id: s.agent_id }
  const call = s.tool_call ?? s.tool_result
  const tool = call && { tool_name: claudeTool(call.name), tool_input: call.input, tool_use_id: call.id }
  switch (event) {
    case 'TaskStart': return { ...p, hook_event_name: 'SessionStart', source: 'startup' }
    case 'UserPromptSubmit': return { ...p, hook_event_name: 'UserPromptSubmit', prompt: s.userPromptSubmit?.prompt }
    case 'PreToolUse': return { ...p, hook_event_name: 'PreToolUse', ...tool, iteration: s.iteration }
    case 'PostToolUse': return { ...p, hook_event_name: 'PostToolUse', ...tool, tool_response: s.tool_result?.output, iteration: s.iteration }
    case 'TaskComplete': return { ...p, hook_event_name: 'Stop', last_assistant_message: s.turn?.outputText, iteration: s.iteration }
    case 'SessionShutdown': return { ...p, hook_event_name: 'SessionEnd', reason: s.reason }
    default: return { ...p, hook_event_name: event }
  }
}

/** Kimi Code sends Claude's event names and fields, its tool call id, output text and prompt parts. */
function kimi(event, s) {
  const p = { ...base(s), hook_event_name: event }
  if (s.tool_name !== undefined) Object.assign(p, { tool_name: s.tool_name, tool_input: s.tool_input, tool_use_id: s.tool_call_id })
  if (s.tool_output !== undefined) p.tool_response = toolResponse(s.tool_output)
  if (Array.isArray(s.prompt)) p.prompt = s.prompt.map(part => part.text ?? '').join('')
  return { ...p, ...pick(s, ['source', 'reason', 'stop_hook_active', 'model']) }
}

/** The canonical dispatch for a recorded call: event name and Claude-shaped payload. */
export function canonicalOf(kit, call, place) {
  const s = payloadOf(call.stdin, place)
  let payload
  switch (kit) {
    case 'claude-code': return { event: call.event, payload: s, exact: true }
    case 'codex': payload = codex(call.event, s); break
    case 'gemini-cli': payload = gemini(call.event, s); break
    case 'copilot-cli': payload = copilot(call.event, s); break
    case 'hermes': payload = hermes(call.event, s); break
    case 'qwen-code': case 'droid': payload = claudeLike(call.event, s); break
    case 'cline': payload = cline(call.event, s); break
    case 'kimi': payload = kimi(call.event, s); break
    default: throw new Error(`no canonical form for ${kit}`)
  }
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k]
  return { event: payload.hook_event_name, payload, exact: false }
}

// Fields whose value the host's payload carries (or hookrt derives): compared by value. The others
// (tool output texts, model requests, timestamps) are compared by shape.
const SAME_VALUE = new Set([
  'hook_event_name', 'hookName', 'session_id', 'sessionId', 'cwd', 'transcript_path', 'transcriptPath', 'tool_name', 'toolName',
  'tool_input', 'toolArgs', 'toolInput', 'source', 'reason', 'stop_hook_active', 'prompt', 'permission_mode', 'model', 'turn_id',
  'stopReason', 'stop_reason', 'permissionSuggestions', 'initialPrompt', 'trigger',
])

/** Differences between the harness's stdin and hookrt's from the canonical payload. */
export function sameShape(want, got) {
  const out = []
  if (!want || typeof want !== 'object') {
    if (!isDeepStrictEqual(want, got)) out.push(`stdin: harness ${JSON.stringify(want)}, hookrt ${JSON.stringify(got)}`)
    return out
  }
  const w = Object.keys(want), g = Object.keys(got ?? {})
  if (w.join(',') !== g.join(',')) out.push(`stdin keys: harness ${w.join(',')}, hookrt ${g.join(',')}`)
  for (const k of w) {
    if (!(k in (got ?? {}))) continue
    if (SAME_VALUE.has(k)) {
      if (!isDeepStrictEqual(want[k], got[k])) out.push(`stdin.${k}: harness ${JSON.stringify(want[k])}, hookrt ${JSON.stringify(got[k])}`)
    } else if (!isDeepStrictEqual(shape(want[k]), shape(got[k]))) {
      out.push(`stdin.${k} shape: harness ${JSON.stringify(shape(want[k]))}, hookrt ${JSON.stringify(shape(got[k]))}`)
    }
  }
  return out
}
