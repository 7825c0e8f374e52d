// The JavaScript API (SPEC §2) with real hook processes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { project, answer, sleep, waitForFile, assertGone, stubbornTree } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime, HookRuntime } = require('../wrapper.js')

test('bad config gives diagnostics, never an exception', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.claude/settings.json', '{"hooks": {"PreToolUse": [')
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:during': [], 'tool:before': [{ matcher: '(', hooks: [{ command: 'true' }] }] } })
  const rt = createRuntime(p.options())
  const d = rt.diagnostics
  assert.equal(d.length, 3)
  assert.equal(d[0].severity, 'error')
  assert.equal(d[0].file, p.path('proj/.claude/settings.json'))
  assert.match(d[0].message, /^config is not valid JSON: /)
  assert.deepEqual(d[1], { severity: 'warning', file: p.path('proj/.dsh-hooks.json'), message: 'unknown event "tool:during" (ignored)' })
  assert.deepEqual(d[2], {
    severity: 'error',
    file: p.path('proj/.dsh-hooks.json'),
    event: 'tool:before',
    message: 'events[tool:before][0]: invalid regex matcher "("',
  })
  assert.deepEqual(
    rt.sources.map((s) => [s.dialect, s.scope, s.groups]),
    [
      ['claude', 'project', 0],
      ['native', 'project', 0],
    ],
  )
})

test('no matching hook resolves at once with an empty result', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ matcher: 'Write', hooks: [{ command: 'exit 2' }] }] })
  const rt = createRuntime(p.options())
  const pr = rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.ok(pr instanceof Promise)
  assert.deepEqual(await pr, {
    canonical: 'tool:before',
    outcome: { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false },
    runs: [],
  })
  // The subject option overrides the payload's tool name.
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash' }, undefined, { subject: 'Write' })
  assert.equal(r.outcome.decision, 'deny')
})

test('a dispatched result is a plain object of plain data, its outcome fresh each time', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: 'echo "said $((1+1))" >&2; exit 2' }] }] })
  const rt = createRuntime(p.options())
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.equal(Object.getPrototypeOf(r), Object.prototype)
  assert.deepEqual(Object.keys(r), ['canonical', 'outcome', 'runs'])
  // Its runs, parsed when first read, leave nothing else behind: no hidden property of any
  // kind, and it compares strictly equal to the same plain data.
  assert.deepEqual(Reflect.ownKeys(r), ['canonical', 'outcome', 'runs'])
  const unread = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.deepEqual(Reflect.ownKeys(unread), ['canonical', 'outcome', 'runs'])
  assert.deepStrictEqual(unread, JSON.parse(JSON.stringify(unread)))
  const assigned = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assigned.runs = 'mine'
  assert.equal(assigned.runs, 'mine')
  assert.deepEqual(Reflect.ownKeys(assigned), ['canonical', 'outcome', 'runs'])
  assert.equal(Object.getOwnPropertyDescriptor(assigned, 'runs').value, 'mine')
  assert.equal(r.canonical, 'tool:before')
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'said 2')
  const text = JSON.stringify(r)
  assert.equal(JSON.parse(text).runs[0].outcome.stderr, 'said 2')
  assert.equal(r.runs.length, 1)
  assert.equal(r.runs, r.runs, 'the same array on every read')
  r.runs[0].extra = 1
  assert.equal(r.runs[0].extra, 1)
  const copy = { ...r }
  assert.deepEqual(copy, r)
  assert.deepEqual(structuredClone(r).runs[0].hook, r.runs[0].hook)
  r.runs = []
  assert.deepEqual(r.runs, [])
  // An allow with no answer: the empty outcome, a fresh object each time.
  p.claude({ PreToolUse: [{ hooks: [{ command: 'true' }] }] })
  await rt.reload()
  const [a, b] = [await rt.dispatch('PreToolUse', { tool_name: 'Bash' }), await rt.dispatch('PreToolUse', { tool_name: 'Bash' })]
  assert.deepEqual(a.outcome, { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false })
  assert.notEqual(a.outcome, b.outcome)
  assert.equal(a.runs[0].outcome.exitCode, 0)
  rt.close()
})

test('exit codes, JSON answers and folding through the API', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { command: `sleep 0.3; ${answer({ systemMessage: 'slow', decision: 'block', reason: 'first' })}` },
          { command: "echo 'second' >&2; exit 2" },
          { command: 'echo ignored; exit 1' },
        ],
      },
    ],
  })
  const rt = createRuntime(p.options())
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })
  assert.equal(r.outcome.decision, 'deny')
  // Claude Code tells the model the reason of the deny that answered last alone, here the first
  // configured (the claude-code kit's S24); the `listen` contract joins them (conformance 30)
  assert.equal(r.outcome.reason, 'first')
  assert.deepEqual(r.outcome.messages, ['slow'])
  assert.deepEqual(
    r.runs.map((x) => [x.hook.id, x.outcome.exitCode]),
    [
      ['claude:settings.json:PreToolUse:0:0', 0],
      ['claude:settings.json:PreToolUse:0:1', 2],
      ['claude:settings.json:PreToolUse:0:2', 1],
    ],
  )
  assert.equal(typeof r.runs[0].durationMs, 'number')
})

test('unknown events and bad payloads reject clearly', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'cat > /dev/null; echo ok' }] }] })
  const rt = createRuntime(p.options())
  await assert.rejects(rt.dispatch('Nope', {}), { name: 'TypeError', message: 'unknown event "Nope"' })
  await assert.rejects(rt.dispatch(42, {}), { name: 'TypeError', message: 'unknown event "42"' })
  await assert.rejects(rt.dispatch('Stop', Buffer.from('{}')), { name: 'TypeError', message: 'payload must be a plain object' })
  await assert.rejects(rt.dispatch('Stop', [1, 2]), { name: 'TypeError' })
  await assert.rejects(rt.dispatch('Stop', 'text'), { name: 'TypeError' })
  await assert.rejects(rt.dispatch('Stop', { n: 1n }), { name: 'TypeError', message: /cannot be serialised/ })
  await assert.rejects(rt.dispatch('Stop', {}, 'not a signal'), { name: 'TypeError' })
  // A missing payload is {}.
  assert.equal((await rt.dispatch('Stop')).runs.length, 1)
  assert.equal((await rt.dispatch('Stop', null)).runs[0].outcome.exitCode, 0)
})

test('a huge payload reaches the hook whole', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ UserPromptSubmit: [{ hooks: [{ command: 'wc -c' }, { command: 'exit 0' }] }] })
  const rt = createRuntime(p.options())
  const prompt = 'x'.repeat(20 * 1024 * 1024)
  const r = await rt.dispatch('UserPromptSubmit', { prompt })
  const bytes = Number(r.outcome.contexts[0])
  assert.ok(bytes > prompt.length && bytes < prompt.length + 1000, String(bytes))
  assert.equal(r.runs[1].outcome.exitCode, 0)
})

test('abort() rejects with the AbortError and kills the whole tree', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: stubbornTree(p) }] }] })
  const rt = createRuntime(p.options({ reapOrphans: true }))
  const ac = new AbortController()
  const pr = rt.dispatch('PreToolUse', { tool_name: 'Bash' }, ac.signal)
  const grand = Number(await waitForFile(p.path('grand.pid')))
  const parent = Number(await waitForFile(p.path('parent.pid')))
  ac.abort()
  await assert.rejects(pr, (e) => e instanceof DOMException && e.name === 'AbortError' && e === ac.signal.reason)
  await assertGone(grand)
  await assertGone(parent)
})

test('an already-aborted signal rejects without running anything', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: `touch ${p.path('ran')}` }] }] })
  const rt = createRuntime(p.options())
  const reason = { custom: true }
  await assert.rejects(rt.dispatch('Stop', {}, AbortSignal.abort(reason)), (e) => e === reason)
  await sleep(100)
  assert.equal(existsSync(p.path('ran')), false)
})

test('AbortSignal.timeout rejects with a TimeoutError and kills the tree', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: stubbornTree(p) }] }] })
  const rt = createRuntime(p.options({ reapOrphans: true }))
  await assert.rejects(rt.dispatch('PreToolUse', {}, AbortSignal.timeout(1500)), { name: 'TimeoutError' })
  await assertGone(Number(await waitForFile(p.path('grand.pid'))))
  await assertGone(Number(await waitForFile(p.path('parent.pid'))))
})

test('one signal aborts many dispatches; a custom reason passes through', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'sleep 30' }] }] })
  const rt = createRuntime(p.options())
  const ac = new AbortController()
  const all = Array.from({ length: 20 }, () => rt.dispatch('Stop', {}, ac.signal))
  await sleep(200)
  const reason = new Error('host gave up')
  ac.abort(reason)
  const settled = await Promise.allSettled(all)
  assert.ok(settled.every((s) => s.status === 'rejected' && s.reason === reason))
})

test('a signal that never fires does not change the result', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: answer({ decision: 'block', reason: 'not yet' }) }] }] })
  const rt = createRuntime(p.options())
  const ac = new AbortController()
  const r = await rt.dispatch('Stop', {}, ac.signal)
  assert.equal(r.outcome.reason, 'not yet')
  ac.abort() // after completion: nothing happens
})

test('close() aborts running dispatches and rejects later ones', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'sleep 30' }] }] })
  const rt = createRuntime(p.options())
  const pr = rt.dispatch('Stop', {})
  await sleep(150)
  rt.close()
  await assert.rejects(pr, { message: 'runtime is closed' })
  await assert.rejects(rt.dispatch('Stop', {}), { message: 'runtime is closed' })
  await assert.rejects(rt.reload(), { message: 'runtime is closed' })
})

test('reload() re-reads configuration and dump() shows it', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const rt = createRuntime(p.options())
  assert.deepEqual(rt.dump().hooks, [])
  p.claude({ SessionStart: [{ hooks: [{ command: 'echo hello' }] }], Bogus: [] })
  const diags = await rt.reload()
  assert.deepEqual(diags, [{ severity: 'warning', file: p.path('proj/.claude/settings.json'), message: 'unknown event "Bogus" (ignored)' }])
  const r = await rt.dispatch('SessionStart', { source: 'startup' })
  assert.deepEqual(r.outcome.contexts, ['hello'])
  const dump = rt.dump()
  assert.equal(dump.hooks[0].id, 'claude:settings.json:SessionStart:0:0')
  assert.equal(dump.hooks[0].handler.command, 'echo hello')
  assert.equal(dump.disabled, false)
})

test('bad runtime options throw at creation', () => {
  assert.throws(() => createRuntime('x'), TypeError)
  assert.throws(() => createRuntime({ timeoutSec: -1 }), /timeoutSec must be a positive number/)
  assert.throws(() => createRuntime({ timeoutSecs: 1 }), /unknown field `timeoutSecs`/)
  assert.ok(new HookRuntime() instanceof HookRuntime)
})

test('HOOKS=0 and disableAllHooks switch everything off', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'exit 2' }] }] })
  p.write('proj/.claude/settings.local.json', { disableAllHooks: true })
  const rt = createRuntime(p.options())
  assert.equal((await rt.dispatch('Stop', {})).runs.length, 0)
  assert.equal(rt.dump().disabled, true)
})

test('many concurrent dispatches all complete', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: 'read -r line; echo "$line" | wc -c' }] }] })
  const rt = createRuntime(p.options())
  const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => rt.dispatch('PreToolUse', { tool_name: `T${i}` })))
  assert.equal(rs.length, 100)
  assert.ok(rs.every((r) => r.runs[0].outcome.exitCode === 0))
})

// Issue 16, through the JS API.
test('a regex matcher runs for a payload without a subject; a literal list does not', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/opencode.json', { hooks: { 'tool.execute.after': [
    { matcher: '^(?:Bash)?$', hooks: [{ command: 'cat >/dev/null; echo empty-ok' }] },
    { matcher: 'Bash', hooks: [{ command: 'echo literal' }] },
  ] } })
  const rt = createRuntime(p.options())
  const r = await rt.dispatch('tool:after', {})
  assert.deepEqual(r.runs.map((x) => x.outcome.stdout.trim()), ['empty-ok'])
  const r2 = await rt.dispatch('tool:after', { tool_name: 'Read' })
  assert.deepEqual(r2.runs, [])
})

test('an invalid regex on a subjectless event is an error and runs nothing', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/opencode.json', { hooks: { 'session.idle': [{ matcher: '(', hooks: [{ command: 'echo keep going >&2; exit 2' }] }] } })
  const rt = createRuntime(p.options())
  assert.deepEqual(rt.diagnostics.map((d) => [d.severity, d.event, d.message]), [
    ['error', 'session.idle', 'hooks[session.idle][0]: invalid regex matcher "("'],
  ])
  const r = await rt.dispatch('Stop', {})
  assert.equal(r.outcome.decision, 'none')
  assert.deepEqual(r.runs, [])
})
