// Turns what a recorder logged into the committed, machine-independent form, and back.
//
// Paths become placeholders ({project}, {home}, {run}, {kit}, {kits} (the folder of every kit), {node}, {tmp}); ids (UUIDs, Hermes
// session ids) become {id:1}, {id:2}, … in order of first appearance within one scenario; times,
// durations, ports and other values that change from run to run become {time}, {n}, {port}, ….
// The same normaliser is applied to what a replay's hook received, so a replay compares like with
// like. Everything else stays byte for byte.

import path from 'node:path'

const esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// Claude Code names a project's transcript folder by its path with every non-alphanumeric character
// replaced by '-'
export const claudeSlug = p => p.replace(/[^A-Za-z0-9]/g, '-')

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g
const HERMES_SESSION = /\b\d{8}_\d{6}_[0-9a-f]{6}\b/g
// Kimi Code's `session_<uuid>` (the underscore hides the UUID's word boundary)
const KIMI_SESSION = /(?<=\bsession_)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g
const ISO = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?/g
// text that carries a time, a pid, a random chunk id or a count
const TEXT_RULES = [
  [/\b\d{4}-\d\d-\d\dT\d\d-\d\d(?:-\d\d(?![0-9a-f]))?/g, '{stamp}'], // file-name timestamps (Codex rollouts, Gemini chats)
  [/\bsessions\/\d{4}\/\d\d\/\d\d\//g, 'sessions/{date}/'],
  [/(session-\{stamp\}-)[0-9a-f]{8}\b/g, '$1{short-id}'],
  [/(\{id:\d+\}:\{id:\d+\}:)[0-9a-f]{8}\b/g, '$1{short-id}'], // Hermes turn ids
  [/\b127\.0\.0\.1:\d+/g, '127.0.0.1:{port}'],
  [/\blocalhost:\d+/g, 'localhost:{port}'],
  [/(Process Group PGID: )\d+/g, '$1{pid}'],
  [/(Chunk ID: )[0-9a-f]+/g, '$1{hex}'],
  [/(Wall time: )[\d.]+/g, '$1{n}'],
  [/<total_tokens>\d+ tokens left<\/total_tokens>/g, '<total_tokens>{n} tokens left</total_tokens>'],
  [/\b\d{8}_\d{6}\b/g, '{stamp}'],
  [/\b[0-9a-f]{32}\b/g, '{hex32}'],
  [/\bsha256:[0-9a-f]{64}\b/g, 'sha256:{hash}'],
  [/(cc-socks\/)\d+/g, '$1{pid}'],
  [/\btoolu_\d{13}_[0-9a-z]{9}\b/g, 'toolu_{time}_{short-id}'], // Qwen Code's tool call ids
  [/(@)[0-9a-f]{8}$/g, '$1{short-id}'], // Qwen Code's model identity, `<model>@<hash of the endpoint>`
  [/\b(conv_|agent_|)\d{13}_[0-9a-z]{5,9}\b/g, '$1{time}_{short-id}'], // Cline's task, agent and session ids
  // today's date in a system prompt (Gemini CLI's session context)
  [/\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}\b/g, '{date}'],
]
// values that are times or durations wherever they appear (and Hermes' request sizes, which follow the
// date in its system prompt)
const NUMERIC_KEYS = /^(timestamp|duration_ms|durationMs|api_duration|started_at|ended_at|elapsed|elapsed_ms|tMs|ms|sleptMs|latency_ms|created|pid|ppid|elapsed_time|session_duration_ms|executionTimeMs|approx_input_tokens|request_char_count)$/
// model requests (Gemini's llm_request, Hermes' request) are cut down to what a hook author reads
const LONG_STRING = 1000
const LONG_ARRAY = 12
const DEEP = 7

/**
 * A normaliser for one scenario. `paths` maps absolute paths to placeholders (longest first);
 * `ids` is shared by every call of the scenario so the same id gets the same number.
 */
export function normaliser({ paths, ids = new Map() }) {
  const rules = []
  const entries = Object.entries(paths).filter(([p]) => p && p !== '/').sort((a, b) => b[0].length - a[0].length)
  for (const [abs, ph] of entries) {
    rules.push([new RegExp(`(?<![\\w.}-])${esc(abs)}(?![\\w.-])`, 'g'), ph])
    if (ph === '{project}') rules.push([new RegExp(esc(claudeSlug(abs)), 'g'), '{project-slug}'])
  }
  const id = s => {
    if (!ids.has(s)) ids.set(s, `{id:${ids.size + 1}}`)
    return ids.get(s)
  }
  const text = (s, { whole = false } = {}) => {
    let out = s
    for (const [re, v] of rules) out = out.replace(re, v)
    out = out.replace(UUID, id).replace(KIMI_SESSION, id).replace(HERMES_SESSION, id).replace(ISO, '{time}')
    for (const [re, v] of TEXT_RULES) out = out.replace(re, v)
    if (!whole && out.length > LONG_STRING) out = `${out.slice(0, 200)}…{long}`
    return out
  }
  const value = (v, key, depth = 0) => {
    if (depth > DEEP && v && typeof v === 'object') return Array.isArray(v) ? '[…]' : '{…}'
    if (typeof v === 'string' && key && /PID$/.test(key) && /^\d+$/.test(v)) return '{pid}'
    // (Droid exports its stdin's numbers as variables too)
    if (typeof v === 'string') return key && NUMERIC_KEYS.test(key) && /^\d+(\.\d+)?$/.test(v) ? '{n}' : text(v)
    if (typeof v === 'number') return key && NUMERIC_KEYS.test(key) ? '{n}' : v
    if (Array.isArray(v)) {
      // (an array cut before keeps its marker: normalising twice changes nothing)
      const cut = v.length === LONG_ARRAY + 1 && /^…\{\d+ more\}$/.test(v[LONG_ARRAY])
      const items = v.slice(0, LONG_ARRAY).map(x => value(x, undefined, depth + 1))
      if (cut) items.push(v[LONG_ARRAY])
      else if (v.length > LONG_ARRAY) items.push(`…{${v.length - LONG_ARRAY} more}`)
      return items
    }
    if (v && typeof v === 'object') {
      const o = {}
      for (const [k, x] of Object.entries(v)) o[text(k)] = value(x, k, depth + 1)
      return o
    }
    return v
  }
  return { text, value, ids }
}

/**
 * How the hook process was started, from the recorder's probe: `sh` / `bash` when the parent is
 * `<shell> -c`, `bash` when bash exec'd the command itself (bash sets `_` to the command it runs,
 * here node), `none` when the harness spawned the argv directly.
 */
export function shellOf(rec) {
  const parent = rec.parent ?? rec.parentCmd ?? []
  const base = parent[0] ? path.basename(parent[0]) : ''
  if (/^(sh|dash|bash)$/.test(base) && parent[1] === '-c') return base === 'dash' ? 'sh' : base
  if (rec.underscore && path.basename(rec.underscore) === 'node') return 'bash'
  return 'none'
}

/** The recorder's argv from its script on (the recorders log it with or without node's path). */
export const argvOf = rec => {
  const a = rec.argv ?? []
  return a[0] && path.basename(a[0]) === 'node' ? a.slice(1) : a
}

/** Replaces placeholders back by this machine's values (the inverse of the path rules). */
export function materialise(text, paths) {
  let out = text
  for (const [abs, ph] of Object.entries(paths).sort((a, b) => b[1].length - a[1].length)) out = out.split(ph).join(abs)
  return out
}
