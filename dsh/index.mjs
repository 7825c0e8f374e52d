// hookrt/dsh: a DeepSeek Harness (Cordis) plugin that runs the hooks your Claude Code, Codex,
// opencode, Hermes, .agents and hookrt files declare, on dsh's extension points.
//
// Tool names: dsh spells its tools in lower case (`bash`, `read`, `edit`) where Claude Code
// writes `Bash`, `Read`, `Edit`. This plugin matches claude-dialect (and native/.agents) literal
// matchers such as `Bash` or `Edit|Write` without regard to case, so stock Claude hooks fire
// for dsh's tools; regular-expression matchers (Codex, opencode, Hermes, or a claude matcher
// with regex syntax) are used as written — write `(?i)bash` to match both spellings.
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { randomUUID } from 'node:crypto'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

export const name = 'hookrt'

const SOURCE = Object.freeze({ kind: 'plugin', plugin: 'hookrt' })
const DEFAULT_STOP_CONTINUATIONS = 3

/** A user message in dsh's shape (what `createUserMessage` of dsh-llm builds). */
function userMessage(texts) {
  return Object.freeze({
    role: 'user',
    content: Object.freeze(texts.map((text) => Object.freeze({ type: 'text', text }))),
    source: SOURCE,
    id: randomUUID(),
  })
}

function blocksToText(content) {
  return (content ?? []).filter((b) => b?.type === 'text').map((b) => b.text).join('')
}

function lastTurn(agent) {
  const events = agent?.session?.events
  if (!events) return undefined
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === 'turn/start') return events[i].data.turn
  return undefined
}

/**
 * @param {import('cordis').Context} ctx
 * @param {import('./index').HookrtDshConfig} config
 */
export function apply(ctx, config = {}) {
  const { configPath, discover, stopContinuationLimit, stderrSummaryMaxChars = 500, hooksModule, ...runtimeOptions } = config ?? {}
  // `hooksModule`: a module whose `hooks` (or default) export is callback hooks in the Agent
  // SDK's shape, registered in every session's runtime. Dispatches wait for it; a module that
  // cannot load fails them, so a guard the user configured is never silently missing.
  const callbacks = hooksModule
    ? import(pathToFileURL(resolve(hooksModule)).href).then((m) => m.hooks ?? m.default)
    : undefined
  callbacks?.catch((e) => ctx.logger?.warn?.(`hookrt: hooksModule ${hooksModule}: ${e?.message ?? e}`))
  const runtimes = new Map()
  const inflight = new Set()
  const disposed = new AbortController()

  /** One runtime per session working directory, created on first use. */
  async function runtimeFor(cwd) {
    const hooks = await callbacks
    const key = cwd ?? process.cwd()
    let rt = runtimes.get(key)
    if (!rt) {
      rt = createRuntime({
        cwd: key,
        ...(configPath ? { configPath } : {}),
        ...(discover !== undefined ? { discover } : {}),
        caseInsensitiveTools: true,
        // dsh keeps no record of trusted projects: a workspace's hook files run once approved
        // with `hookrt trust approve` (docs/security.md), as a cloned repository must not run
        // code by being opened.
        harness: 'dsh',
        stopBlockLimit: stopContinuationLimit ?? DEFAULT_STOP_CONTINUATIONS,
        ...runtimeOptions,
        ...(hooks ? { hooks } : {}),
      })
      for (const d of rt.diagnostics) ctx.logger?.warn?.(`hookrt: ${d.severity}: ${d.file ?? ''}: ${d.message}`)
      runtimes.set(key, rt)
    }
    return rt
  }

  const track = (p) => {
    inflight.add(p)
    const done = () => inflight.delete(p)
    p.then(done, done)
    return p
  }

  ctx.effect?.(
    () => async () => {
      disposed.abort(new Error('hookrt plugin disposed'))
      for (const rt of runtimes.values()) rt.close()
      while (inflight.size > 0) await Promise.allSettled([...inflight])
    },
    'hookrt: abort and drain running hooks',
  )

  function base(agent, event) {
    const header = agent?.session?.header
    const model = agent?.options?.model
    return {
      session_id: header?.id ?? '',
      transcript_path: (header && ctx.get?.('sessionPersistence')?.locate?.(header)?.path) ?? '',
      cwd: header?.cwd ?? process.cwd(),
      hook_event_name: event,
      // what Codex and Hermes hooks read (hookrt leaves them out of Claude Code's stdin)
      ...(model ? { model } : {}),
    }
  }

  /** Dispatches one event and records `hook/invoked` / `hook/result` when the session can. */
  async function run(event, payload, { agent, turn, signal }) {
    if (turn !== undefined && payload.turn_id === undefined) payload = { ...payload, turn_id: String(turn) }
    const rt = await runtimeFor(payload.cwd)
    const sig = signal ? AbortSignal.any([signal, disposed.signal]) : disposed.signal
    const session = agent?.session
    const logs = Boolean(session?.append && turn !== undefined)
    // `hook/invoked` is written when a hook starts (with its statusMessage, Claude's spinner
    // text), `hook/result` when the dispatch has its answer.
    const onProgress = logs
      ? (p) => {
          if (p.phase !== 'start') return
          session.append('hook/invoked', {
            turn,
            point: event,
            dialect: p.dialect,
            handlerId: p.hookId,
            ...(p.matcher !== undefined ? { matcher: p.matcher } : {}),
            ...(p.statusMessage !== undefined ? { statusMessage: p.statusMessage } : {}),
          })
        }
      : undefined
    const res = await track(rt.dispatch(event, payload, sig, { cwd: payload.cwd, onProgress }))
    if (logs) {
      // Async hooks started now report later; finished ones delivered here were invoked earlier.
      for (const r of res.runs.filter((x) => !x.async)) {
        const stderr = r.outcome.stderr?.slice(0, stderrSummaryMaxChars)
        session.append('hook/result', {
          turn,
          point: event,
          handlerId: r.hook.id,
          decision: r.outcome.decision ?? (r.outcome.stop ? 'stop' : 'pass'),
          ...(typeof r.outcome.exitCode === 'number' ? { exitCode: r.outcome.exitCode } : {}),
          ...(stderr ? { stderrSummary: stderr } : {}),
          durationMs: r.durationMs,
        })
      }
    }
    return res.outcome
  }

  const contextOf = (outcome) => (outcome.contexts.length ? userMessage(outcome.contexts) : undefined)
  const warn = (what) => (error) => {
    if (!disposed.signal.aborted) ctx.logger?.warn?.(`hookrt: ${what} hooks failed: ${error?.message ?? error}`)
  }

  // SessionStart runs detached (dsh does not await session-start listeners). Its context joins
  // the first step's messages when that step starts first, else it is injected when ready.
  const pendingStart = new WeakMap()
  ctx.on('agent/session-start', ({ agent, source }) => {
    const p = track(
      run('SessionStart', { ...base(agent, 'SessionStart'), source }, { agent })
        .then(contextOf)
        .catch((e) => warn('SessionStart')(e)),
    )
    pendingStart.set(agent, p)
    p.then((m) => {
      if (pendingStart.get(agent) !== p) return
      pendingStart.delete(agent)
      if (m) agent.inject(m)
    })
  })

  ctx.on('agent/pre-step', async ({ agent, messages, turn, signal }, next) => {
    const early = []
    const start = agent && pendingStart.get(agent)
    if (start) {
      pendingStart.delete(agent)
      const m = await start
      if (m) early.push(m)
    }
    let o
    if (messages?.length) {
      const prompt = blocksToText(messages.flatMap((m) => m.content ?? []))
      o = await run('UserPromptSubmit', { ...base(agent, 'UserPromptSubmit'), prompt }, { agent, turn, signal })
      if (o.decision === 'deny') return { kind: 'reject' }
    }
    const downstream = await next()
    const ours = [...early, ...(o && contextOf(o) ? [contextOf(o)] : [])]
    if (!ours.length) return downstream
    if (downstream?.kind !== 'enter') {
      for (const m of ours) agent?.inject?.(m)
      return downstream
    }
    return { ...downstream, messages: [...downstream.messages, ...ours] }
  })

  ctx.on('tools/pre-execute', async (exec, next) => {
    const payload = { ...base(exec.agent, 'PreToolUse'), tool_name: exec.name, tool_input: exec.arguments, tool_use_id: exec.callId }
    const o = await run('PreToolUse', payload, { agent: exec.agent, turn: lastTurn(exec.agent), signal: exec.signal })
    if (o.decision === 'deny') return { kind: 'deny', reason: o.reason ?? 'blocked by PreToolUse hook' }
    if (o.decision === 'ask') return { kind: 'ask', ...(o.reason !== undefined ? { reason: o.reason } : {}) }
    return next()
  })

  ctx.on('tools/post-execute', async (exec, result, next) => {
    const event = result?.isError ? 'PostToolUseFailure' : 'PostToolUse'
    const payload = {
      ...base(exec.agent, event),
      tool_name: exec.name,
      tool_input: exec.arguments,
      tool_use_id: exec.callId,
      tool_response: blocksToText(result?.content),
      ...(result?.isError ? { error: blocksToText(result.content) } : {}),
    }
    const o = await run(event, payload, { agent: exec.agent, turn: lastTurn(exec.agent), signal: exec.signal })
    const m = contextOf(o)
    if (o.decision === 'deny' || o.rawDecision === 'deny') {
      const text = o.reason ?? o.rawReason ?? `blocked by ${event} hook`
      return { kind: 'block', feedback: [{ type: 'text', text }], ...(m ? { additionalContexts: [m] } : {}) }
    }
    const downstream = await next()
    if (!m) return downstream
    return { ...downstream, additionalContexts: [m, ...(downstream?.additionalContexts ?? [])] }
  })

  ctx.on('agent/turn-stopping', async ({ agent, turn, signal }) => {
    const o = await run('Stop', { ...base(agent, 'Stop') }, { agent, turn, signal })
    if (o.decision === 'deny') agent.steer(userMessage([o.reason ?? 'continue: blocked by Stop hook']))
  })

  const children = new Map()
  ctx.on('subagent/start', (info) => {
    const child = ctx.get?.('agents')?.get?.(info.id)
    if (child) children.set(info.runId, child)
    const payload = { ...base(child, 'SubagentStart'), agent_id: info.id, agent_type: info.kind ?? 'general-purpose' }
    track(
      run('SubagentStart', payload, { agent: child })
        .then((o) => {
          const m = contextOf(o)
          if (m && child) child.inject(m)
        })
        .catch(warn('SubagentStart')),
    )
  })

  ctx.on('subagent/end', (info) => {
    const child = children.get(info.runId) ?? ctx.get?.('agents')?.get?.(info.id)
    children.delete(info.runId)
    const payload = { ...base(child, 'SubagentStop'), agent_id: info.id, agent_type: info.kind ?? 'general-purpose', stop_hook_active: false }
    track(run('SubagentStop', payload, { agent: child }).catch(warn('SubagentStop')))
  })

  // StopFailure: the turn ended on an error (dsh's `agent/error`). Output is ignored, as in
  // Claude Code; the hooks are for logging and alerts.
  ctx.on('agent/error', ({ agent, turn, error }) => {
    const status = error?.status ?? error?.statusCode
    const kind = status === 429 ? 'rate_limit' : status === 401 ? 'authentication_failed' : status >= 500 ? 'server_error' : 'unknown'
    const payload = { ...base(agent, 'StopFailure'), error: kind, error_details: String(error?.message ?? error) }
    track(run('StopFailure', payload, { agent, turn }).catch(warn('StopFailure')))
  })

  ctx.on('session/disposed', (session) => {
    const payload = { session_id: session?.header?.id ?? '', transcript_path: '', cwd: session?.header?.cwd ?? process.cwd(), reason: 'other' }
    track(run('SessionEnd', payload, {}).catch(warn('SessionEnd')))
  })
}
