// Callback hooks: a TypeScript host's own functions registered in the Claude Agent SDK's
// `hooks` shape, run by a real runtime beside real hook files.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { project, answer, sleep } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

function setup(t, files, extra = {}) {
  const p = project()
  t.after(() => p.cleanup())
  if (files) p.claude(files)
  const rt = createRuntime(p.options(extra))
  t.after(() => rt.close())
  return { p, rt }
}

const bash = (command) => ({ session_id: 's1', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' })

test('a callback deny blocks, is listed first, and its reason folds with a file hook’s', async (t) => {
  const { rt } = setup(t, { UserPromptSubmit: [{ hooks: [{ command: 'echo "file says no" >&2; exit 2' }] }] })
  rt.addHooks({
    UserPromptSubmit: [{ hooks: [async function noSecrets(input) { return { decision: 'block', reason: `callback says no to ${input.prompt}` } }] }],
  })
  const r = await rt.dispatch('UserPromptSubmit', { session_id: 's1', prompt: 'rm -rf' })
  assert.equal(r.outcome.decision, 'deny')
  assert.match(r.outcome.reason, /callback says no to rm -rf/)
  assert.match(r.outcome.reason, /file says no/)
  assert.deepEqual(r.runs.map((x) => x.hook.kind), ['callback', 'shell'])
  assert.equal(r.runs[0].hook.command, 'noSecrets')
  assert.equal(r.runs[0].hook.dialect, 'claude')
})

test('the callback reads the stdin a command hook would, its tool_use_id, and answers with context and updatedInput', async (t) => {
  const { p, rt } = setup(t, { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: `cat > "${'$'}CLAUDE_PROJECT_DIR/stdin.json"` }] }] })
  const seen = []
  rt.addHooks({
    PreToolUse: [{
      matcher: 'Write|Bash',
      hooks: [async (input, toolUseID, { signal }) => {
        seen.push({ input, toolUseID, aborted: signal.aborted })
        return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -la' }, additionalContext: 'listed by the host' } }
      }],
    }],
  })
  const r = await rt.dispatch('PreToolUse', bash('ls'))
  assert.equal(seen.length, 1)
  const fileStdin = JSON.parse(readFileSync(p.path('proj/stdin.json'), 'utf8'))
  assert.deepEqual(seen[0].input, fileStdin)
  assert.equal(seen[0].input.hook_event_name, 'PreToolUse')
  assert.equal(seen[0].toolUseID, 'toolu_1')
  assert.equal(seen[0].aborted, false)
  assert.equal(r.outcome.decision, 'allow')
  assert.deepEqual(r.outcome.updateInputs.at(-1), { command: 'ls -la' })
  assert.deepEqual(r.outcome.contexts, ['listed by the host'])
  // The matcher is Claude's: Read is neither Write nor Bash.
  const other = await rt.dispatch('PreToolUse', { session_id: 's1', tool_name: 'Read', tool_input: {} })
  assert.equal(seen.length, 1)
  assert.equal(other.runs.length, 0)
})

test('a callback that hangs is aborted at its timeout and the dispatch resolves', async (t) => {
  const { rt } = setup(t)
  let reason
  rt.addHooks({
    Stop: [{
      timeout: 0.3,
      hooks: [function hangs(_input, _id, { signal }) {
        return new Promise((resolve) => signal.addEventListener('abort', () => { reason = signal.reason; resolve({ decision: 'block', reason: 'too late' }) }))
      }],
    }],
  })
  const r = await rt.dispatch('Stop', { session_id: 's1' })
  assert.equal(r.outcome.decision, 'none')
  assert.equal(r.runs[0].timedOut, true)
  assert.match(r.runs[0].error, /callback hangs timed out after 0\.3s/)
  await sleep(20)
  assert.equal(reason?.name, 'TimeoutError')
  // one that ignores its signal is abandoned the same way
  rt.addHooks({ Notification: [{ timeout: 0.2, hooks: [() => new Promise(() => {})] }] })
  const n = await rt.dispatch('Notification', { session_id: 's1', message: 'm' })
  assert.equal(n.runs[0].timedOut, true)
})

test('a callback that throws follows onError and failClosed', async (t) => {
  const boom = async function boom() { throw new Error('kaboom') }
  const rejects = () => Promise.reject('plain string')
  {
    const { rt } = setup(t)
    rt.addHooks({ PreToolUse: [{ hooks: [boom] }], Stop: [{ hooks: [rejects] }] })
    const r = await rt.dispatch('PreToolUse', bash('ls'))
    assert.equal(r.outcome.decision, 'none', 'onError warn: the action goes ahead')
    assert.equal(r.runs[0].error, 'callback boom failed: kaboom')
    const s = await rt.dispatch('Stop', { session_id: 's1' })
    assert.equal(s.runs[0].error, 'callback rejects failed: plain string')
  }
  {
    const { rt } = setup(t, null, { onError: 'block' })
    rt.addHooks({ PreToolUse: [{ hooks: [boom] }] })
    const r = await rt.dispatch('PreToolUse', bash('ls'))
    assert.equal(r.outcome.decision, 'deny')
    assert.match(r.outcome.reason, /kaboom/)
  }
  {
    const { rt } = setup(t, null, { failClosed: ['PreToolUse'] })
    rt.addHooks({ PreToolUse: [{ hooks: [boom] }] })
    const r = await rt.dispatch('PreToolUse', bash('ls'))
    assert.equal(r.outcome.decision, 'deny')
    assert.match(r.outcome.reason, /hook failed closed: callback boom failed: kaboom/)
  }
})

test('the host’s abort rejects the dispatch and aborts the callbacks', async (t) => {
  const { rt } = setup(t)
  const reasons = []
  const started = []
  const waits = (name) => ({
    [name]: (_i, _id, { signal }) => new Promise((resolve) => {
      started.push(name)
      signal.addEventListener('abort', () => { reasons.push(signal.reason.name); resolve({}) })
    }),
  })[name]
  rt.addHooks({ PreToolUse: [{ hooks: [waits('a'), waits('b')] }] })
  const ac = new AbortController()
  const pending = rt.dispatch('PreToolUse', bash('ls'), ac.signal)
  while (started.length < 2) await sleep(5)
  ac.abort(new Error('user pressed Esc'))
  await assert.rejects(pending, /user pressed Esc/)
  for (let i = 0; i < 100 && reasons.length < 2; i++) await sleep(5)
  assert.deepEqual(reasons, ['AbortError', 'AbortError'])
})

test('removal, the SDK event spellings, and errors that name the event and field', async (t) => {
  const { rt } = setup(t)
  let calls = 0
  const remove = rt.addHooks({ PostToolUse: [{ hooks: [async () => { calls++ }] }], 'tool:after': [{ hooks: [async () => { calls++ }] }] })
  await rt.dispatch('PostToolUse', { ...bash('ls'), tool_response: {} })
  assert.equal(calls, 2)
  remove()
  remove.remove()
  const r = await rt.dispatch('PostToolUse', { ...bash('ls'), tool_response: {} })
  assert.equal(calls, 2)
  assert.deepEqual(r.runs, [])
  assert.throws(() => rt.addHooks({ PreToolUse: [{ hooks: ['nope'] }] }), { name: 'TypeError', message: /hooks\.PreToolUse\[0\]\.hooks\[0\] must be a function/ })
  assert.throws(() => rt.addHooks({ PreToolUse: [{ matchers: 'x', hooks: [] }] }), { name: 'TypeError', message: /hooks\.PreToolUse\[0\]\.matchers: unknown field/ })
  assert.throws(() => rt.addHooks({ PreToolUse: [{ matcher: '(', hooks: [() => {}] }] }), { message: /hooks\.PreToolUse\[0\]\.matcher:/ })
  // An event name hookrt does not know (a newer SDK's): accepted, so a host's SDK hooks work
  // unchanged, and never run (nothing can dispatch it).
  const off = rt.addHooks({ BeforeLunch: [{ hooks: [() => { calls++ }] }], PostToolBatch: [{ hooks: [() => { calls++ }] }] })
  await assert.rejects(rt.dispatch('BeforeLunch', {}), /unknown event/)
  await rt.dispatch('PostToolBatch', { session_id: 's1' })
  assert.equal(calls, 3, 'the known SDK event ran its callback')
  off()
})

test('createRuntime({hooks}) registers them, and history records each callback run', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: answer({}) }] }] })
  const file = p.path('history.jsonl')
  const rt = createRuntime(p.options({
    history: { path: file },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async function bashGuard() { return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no shell' } } }] }] },
  }))
  const r = await rt.dispatch('PreToolUse', bash('ls'))
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'no shell')
  rt.close()
  const line = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1))
  assert.deepEqual(line.runs.map((x) => x.kind), ['callback', 'shell'])
  assert.match(line.runs[0].id, /^callback:bashGuard:PreToolUse:/)
  assert.equal(line.runs[0].decision, 'deny')
})

test('callbacks alone are run by the wrapper: the same fold as beside a file hook, close() rejects and aborts them', async (t) => {
  const deny = async function deny() {
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'callback says no' } }
  }
  const { rt } = setup(t, { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: answer({}) }] }] })
  rt.addHooks({ PreToolUse: [{ hooks: [deny] }] })
  const beside = await rt.dispatch('PreToolUse', bash('ls'))
  const alone = await rt.dispatch('PreToolUse', { ...bash('ls'), tool_name: 'Read' })
  assert.deepEqual([beside.runs.length, alone.runs.length], [2, 1])
  assert.deepEqual(alone.outcome, beside.outcome)
  assert.deepEqual(alone.runs[0].hook, beside.runs[0].hook)
  assert.deepEqual(alone.runs[0].outcome, beside.runs[0].outcome)

  let reason
  rt.addHooks({ Stop: [{ hooks: [(_i, _id, { signal }) => new Promise(() => signal.addEventListener('abort', () => { reason = signal.reason }))] }] })
  const pending = rt.dispatch('Stop', { session_id: 's1' })
  await sleep(20)
  rt.close()
  await assert.rejects(pending, { message: 'runtime is closed' })
  assert.equal(reason?.name, 'AbortError')
})

test('a pending callback keeps the process alive until its timeout, and a finished one holds nothing open', async (t) => {
  const { execFileSync } = await import('node:child_process')
  const p = project()
  t.after(() => p.cleanup())
  const script = `
    const { createRuntime } = require(${JSON.stringify(require.resolve('../wrapper.js'))})
    const rt = createRuntime(${JSON.stringify(p.options())})
    rt.addHooks({ Stop: [{ timeout: 0.3, hooks: [() => new Promise(() => {})] }], Notification: [{ timeout: 600, hooks: [async () => ({})] }] })
    rt.dispatch('Stop', { session_id: 's1' }).then((r) => {
      console.log('stop', r.runs[0].timedOut)
      return rt.dispatch('Notification', { session_id: 's1', message: 'm' })
    }).then((r) => console.log('notification', r.runs[0].outcome.exitCode))`
  // Without close(): the process ends by itself once the answers are in, not at the
  // 600-second timeout of the answered call (the kill limit would fail the test first).
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 })
  assert.deepEqual(out.trim().split('\n'), ['stop true', 'notification 0'])
})

test('one signal across many dispatches: one listener on it, and its abort reaches the callbacks still running', async (t) => {
  const { getEventListeners } = await import('node:events')
  const { rt } = setup(t)
  let hang = false
  let reason
  rt.addHooks({
    PreToolUse: [{
      hooks: [function guard(_i, _id, { signal }) {
        if (!hang) return Promise.resolve({})
        return new Promise((resolve) => signal.addEventListener('abort', () => { reason = signal.reason; resolve({}) }))
      }],
    }],
  })
  const ac = new AbortController()
  for (let i = 0; i < 50; i++) {
    const r = await rt.dispatch('PreToolUse', bash('ls'), ac.signal)
    assert.equal(r.runs[0].outcome.exitCode, 0)
  }
  assert.equal(getEventListeners(ac.signal, 'abort').length, 1)
  hang = true
  const pending = rt.dispatch('PreToolUse', bash('ls'), ac.signal)
  await sleep(20)
  ac.abort(new Error('user pressed Esc'))
  await assert.rejects(pending, /user pressed Esc/)
  assert.equal(reason?.name, 'AbortError')
})

test('onProgress reports a callback’s start and end alike whether it runs alone or beside a file hook', async (t) => {
  const { rt } = setup(t, { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'exit 0' }] }] })
  rt.addHooks({
    PreToolUse: [
      { matcher: 'Read|Bash', hooks: [async function slow() { await sleep(60); return {} }] },
      { matcher: 'Read|Bash', hooks: [async function hangs() { await new Promise(() => {}) }], timeout: 0.2 },
    ],
  })
  const seen = async (tool) => {
    const events = []
    const r = await rt.dispatch('PreToolUse', { session_id: 's1', tool_name: tool, tool_input: {} }, undefined, { onProgress: (e) => events.push(e) })
    return { r, events: events.filter((e) => e.hookId.startsWith('callback:')) }
  }
  // Alone, the callbacks are a host round although the host wants progress reports: the
  // rounds under one signal share its one listener (a dispatch the runtime runs adds its own).
  const { getEventListeners } = await import('node:events')
  const ac = new AbortController()
  const three = [1, 2, 3].map(() => rt.dispatch('PreToolUse', { session_id: 's1', tool_name: 'Read', tool_input: {} }, ac.signal, { onProgress() {} }))
  assert.equal(getEventListeners(ac.signal, 'abort').length, 1)
  await Promise.all(three)
  const alone = await seen('Read')
  const beside = await seen('Bash')
  assert.deepEqual(alone.r.runs.map((x) => x.hook.kind), ['callback', 'callback'])
  assert.deepEqual(beside.r.runs.map((x) => x.hook.kind), ['callback', 'callback', 'shell'])
  for (const { r, events } of [alone, beside]) {
    const [slow, hangs] = r.runs.map((x) => x.hook.id)
    // Both start before either ends; each ends once it answered or its timeout passed.
    assert.deepEqual(events.map((e) => [e.phase, e.hookId]), [['start', slow], ['start', hangs], ['end', slow], ['end', hangs]])
    for (const e of events) {
      assert.deepEqual(Object.keys(e), ['phase', 'hookId', 'dialect', 'matcher', 'elapsedMs'])
      assert.equal(e.dialect, 'claude')
      assert.equal(e.matcher, 'Read|Bash')
    }
    assert.equal(events[0].elapsedMs, 0)
    assert.ok(events[2].elapsedMs >= 55, `slow took ${events[2].elapsedMs} ms`)
    assert.ok(events[3].elapsedMs >= 180, `hangs took ${events[3].elapsedMs} ms`)
    assert.equal(r.runs[1].timedOut, true)
  }
})

test('whatever a callback gives back is read alike alone and beside a file hook: a value, a thenable, a throw, an answer JSON cannot hold', async (t) => {
  const fns = {
    value: function value() { return { systemMessage: 'sync' } },
    thenable: function thenable() { return { then: (ok) => setTimeout(() => ok({ systemMessage: 'later' }), 5) } },
    nothing: function nothing() {},
    throws: function throws() { throw new TypeError('at once') },
    big: async function big() { return { n: 1n } },
  }
  const expected = (runs) => runs.filter((r) => r.hook.kind === 'callback').map((r) => [r.hook.command, r.error ?? r.outcome.messages?.[0] ?? r.outcome.stdout])
  const want = [
    ['value', 'sync'],
    ['thenable', 'later'],
    ['nothing', '{}'],
    ['throws', 'callback throws failed: at once'],
    ['big', 'callback big failed: Do not know how to serialize a BigInt'],
  ]
  for (const files of [null, { PreToolUse: [{ hooks: [{ command: 'true' }] }] }]) {
    const { rt } = setup(t, files)
    rt.addHooks({ PreToolUse: [{ hooks: Object.values(fns) }] })
    const r = await rt.dispatch('PreToolUse', bash('ls'))
    assert.deepEqual(expected(r.runs), want, files ? 'beside a file hook' : 'alone')
    assert.deepEqual(r.outcome.messages, ['sync', 'later'])
  }
})

test('host rounds running at once with different timeouts each end at their own, and one still running is not cut short', async (t) => {
  const { rt } = setup(t)
  let release
  const answered = new Promise((resolve) => (release = resolve))
  rt.addHooks({
    Notification: [{ timeout: 0.2, hooks: [function short() { return new Promise(() => {}) }] }],
    Stop: [{ timeout: 0.6, hooks: [function long() { return new Promise(() => {}) }] }],
    PreToolUse: [{ timeout: 60, hooks: [function slow() { return answered }] }],
  })
  const t0 = performance.now()
  const ended = {}
  const at = (name) => (r) => { ended[name] = performance.now() - t0; return r }
  const short = rt.dispatch('Notification', { session_id: 's1', message: 'm' }).then(at('short'))
  const long = rt.dispatch('Stop', { session_id: 's1' }).then(at('long'))
  const slow = rt.dispatch('PreToolUse', bash('ls')).then(at('slow'))
  assert.equal((await short).runs[0].timedOut, true)
  assert.equal((await long).runs[0].timedOut, true)
  // A timer never fires early: each ended no sooner than its own timeout.
  assert.ok(ended.short >= 190 && ended.long >= 590, `short ${ended.short} ms, long ${ended.long} ms`)
  assert.equal(ended.slow, undefined, 'the 60 s call outlived both timeouts')
  release({ systemMessage: 'done' })
  const w = await slow
  assert.ok(!w.runs[0].timedOut && !w.runs[0].error, 'it answered')
  assert.deepEqual(w.outcome.messages, ['done'])
})
