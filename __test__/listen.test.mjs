// `hookrt listen` as a whole process: protocol, bad input, ids, bye, signals.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { project, answer, waitForFile, assertGone, stubbornTree, bin, sleep } from './helpers.mjs'

/** Starts `hookrt listen` for a project; collects parsed response lines. */
// Both launchers serve the same Rust code: `node bin/hookrt.js` through the addon, and the bin
// run as a program, which hands over to the native executable.
const launchers = { addon: (args) => [process.execPath, [bin, ...args]], native: (args) => [bin, args] }

function listen(p, extraArgs = [], env = {}, launcher = 'addon') {
  const [cmd, argv] = launchers[launcher](['listen', '--cwd', p.path('proj'), '--home', p.path('home'), ...extraArgs])
  const child = spawn(cmd, argv, {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const lines = []
  let buf = ''
  let stderr = ''
  const waiters = []
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    buf += d
    let i
    while ((i = buf.indexOf('\n')) >= 0) {
      const l = buf.slice(0, i)
      buf = buf.slice(i + 1)
      lines.push(JSON.parse(l))
      for (const w of waiters.splice(0)) w()
    }
  })
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })))
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    send: (x) => child.stdin.write((typeof x === 'string' ? x : JSON.stringify(x)) + '\n'),
    async waitLines(n, ms = 10000) {
      const end = Date.now() + ms
      while (lines.length < n) {
        if (Date.now() > end) throw new Error(`got ${lines.length} lines, wanted ${n}: ${JSON.stringify(lines)}`)
        await new Promise((r) => {
          waiters.push(r)
          setTimeout(r, 50)
        })
      }
      return lines
    },
  }
}

for (const launcher of Object.keys(launchers)) {
test(`${launcher}: every malformed line gets one error line and the server keeps serving`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const s = listen(p, [], {}, launcher)
  const bad = [
    '{not json',
    '[1,2]',
    '"just a string"',
    '{}',
    '{"op":7}',
    '{"op":"nope"}',
    '{"op":"dispatch","event":5}',
    '{"op":"dispatch","event":""}',
    '{"op":"dispatch","event":"Nope"}',
    '{"op":"dispatch","event":"Stop","payload":"x"}',
    '{"op":"dispatch","event":"Stop","subject":1}',
    'x'.repeat(10 * 1024 * 1024),
  ]
  for (const l of bad) s.send(l)
  s.child.stdin.write(Buffer.from([0x7b, 0xff, 0xfe, 0x0a])) // invalid UTF-8
  s.send('')
  s.send('   ')
  s.send({ op: 'ping' })
  s.child.stdin.end()
  const { code } = await s.exited
  assert.equal(code, 0)
  assert.deepEqual(
    s.lines.map((l) => l.error ?? l.pong),
    [
      'request is not valid JSON',
      'unknown op undefined',
      'unknown op undefined',
      'unknown op undefined',
      'unknown op 7',
      'unknown op "nope"',
      'dispatch requires an event name',
      'dispatch requires an event name',
      'unknown event "Nope"',
      'dispatch payload must be a JSON object',
      'dispatch subject must be a string',
      'request is not valid JSON',
      'request is not valid JSON',
      true,
    ],
  )
  assert.ok(s.lines.slice(0, -1).every((l) => l.ok === false))
})

test(`${launcher}: a 10 MB dispatch line is served`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ UserPromptSubmit: [{ hooks: [{ command: 'wc -c' }] }] })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'dispatch', event: 'UserPromptSubmit', payload: { prompt: 'y'.repeat(10 * 1024 * 1024) } })
  s.child.stdin.end()
  await s.exited
  assert.ok(Number(s.lines[0].outcome.contexts[0]) > 10 * 1024 * 1024)
})

test(`${launcher}: requests with ids run concurrently; the others stay in order`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PreToolUse: [
      { matcher: 'Slow', hooks: [{ command: `sleep 0.6; ${answer({ systemMessage: 'slow' })}` }] },
      { matcher: 'Fast', hooks: [{ command: answer({ systemMessage: 'fast' }) }] },
    ],
  })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'dispatch', event: 'PreToolUse', payload: { tool_name: 'Slow' }, id: 'a' })
  s.send({ op: 'dispatch', event: 'PreToolUse', payload: { tool_name: 'Fast' }, id: 'b' })
  s.send({ op: 'dispatch', event: 'PreToolUse', payload: { tool_name: 'Slow' } })
  s.send({ op: 'ping' })
  s.send({ op: 'dispatch', event: 'PreToolUse', payload: { tool_name: 'Fast' } })
  s.child.stdin.end()
  await s.exited
  const tags = s.lines.map((l) => (l.id ?? '-') + ':' + (l.outcome?.messages[0] ?? (l.pong ? 'pong' : '?')))
  assert.equal(tags.length, 5)
  assert.equal(tags[0], 'b:fast', tags.join(' '))
  // Without ids: slow, pong, fast, in that order, whatever finished first.
  assert.deepEqual(
    tags.filter((x) => x.startsWith('-')),
    ['-:slow', '-:pong', '-:fast'],
  )
  assert.ok(tags.includes('a:slow'))
})

test(`${launcher}: bye answers what came before and exits while stdin stays open`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: `sleep 0.3; ${answer({ systemMessage: 'done' })}` }] }] })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'dispatch', event: 'Stop', payload: {}, id: 1 })
  s.send({ op: 'dispatch', event: 'Stop', payload: {} })
  s.send({ op: 'bye', id: 'end' })
  s.send({ op: 'ping' })
  const { code } = await s.exited // stdin never closed
  assert.equal(code, 0)
  assert.equal(s.lines.length, 3)
  assert.deepEqual(s.lines.at(-1), { ok: true, id: 'end' })
  assert.ok(s.lines.slice(0, 2).every((l) => l.outcome?.messages[0] === 'done'))
})

test(`${launcher}: SIGTERM kills running hook trees and exits promptly`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: stubbornTree(p) }] }] })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'dispatch', event: 'PreToolUse', payload: {}, id: 1 })
  const grand = Number(await waitForFile(p.path('grand.pid')))
  const parent = Number(await waitForFile(p.path('parent.pid')))
  s.child.kill('SIGTERM')
  const { code } = await s.exited
  assert.equal(code, 130)
  await assertGone(grand)
  await assertGone(parent)
})

test(`${launcher}: a piped batch gets every answer at end of input`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ SessionStart: [{ hooks: [{ command: 'echo ctx' }] }] })
  const s = listen(p, [], {}, launcher)
  for (let i = 0; i < 200; i++) s.send({ op: 'dispatch', event: 'SessionStart', payload: {}, ...(i % 2 ? { id: i } : {}) })
  s.child.stdin.end()
  const { code } = await s.exited
  assert.equal(code, 0)
  assert.equal(s.lines.length, 200)
  assert.ok(s.lines.every((l) => l.outcome.contexts[0] === 'ctx'))
  const ids = s.lines.filter((l) => 'id' in l).map((l) => l.id).sort((a, b) => a - b)
  assert.deepEqual(ids, Array.from({ length: 100 }, (_, i) => 2 * i + 1))
})

test(`${launcher}: reload answers the diagnostics of re-read files`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'reload' })
  await s.waitLines(1)
  p.write('proj/opencode.json', '{"hooks": {"tool.execute.before": [{"matcher": "(", "hooks": [{"command": "true"}]}]}}')
  s.send({ op: 'reload', id: 9 })
  s.child.stdin.end()
  await s.exited
  assert.deepEqual(s.lines[0], { ok: true, diagnostics: [] })
  assert.equal(s.lines[1].id, 9)
  assert.equal(s.lines[1].diagnostics[0].message, 'hooks[tool.execute.before][0]: invalid regex matcher "("')
  await sleep(0)
})

// Issue 16: two answers that differed from the JavaScript implementation.
test(`${launcher}: a regex matcher is tested against "" when the payload has no subject`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/opencode.json', { hooks: { 'tool.execute.after': [
    { matcher: '.*', hooks: [{ command: 'cat >/dev/null; echo in8' }] },
    { matcher: 'Bash', hooks: [{ command: 'cat >/dev/null; echo literal' }] },
  ] } })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'dispatch', event: 'tool:after', payload: {} })
  s.send({ op: 'dispatch', event: 'tool:after', payload: { tool_name: 'Read' } })
  s.child.stdin.end()
  await s.exited
  assert.equal(s.lines.length, 2)
  assert.deepEqual(s.lines[0].runs.map((r) => r.outcome.stdout.trim()), ['in8'])
  assert.deepEqual(s.lines[1].runs.map((r) => r.outcome.stdout.trim()), ['in8'])
})

test(`${launcher}: an invalid regex matcher drops its group on an event without a subject`, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/opencode.json', { hooks: { 'session.idle': [{ matcher: '(', hooks: [{ command: 'echo keep going >&2; exit 2' }] }] } })
  const s = listen(p, [], {}, launcher)
  s.send({ op: 'reload' })
  s.send({ op: 'dispatch', event: 'Stop', payload: {} })
  s.child.stdin.end()
  await s.exited
  assert.deepEqual(s.lines[0].diagnostics.map((d) => [d.severity, d.message]), [
    ['error', 'hooks[session.idle][0]: invalid regex matcher "("'],
  ])
  assert.equal(s.lines[1].outcome.decision, 'none')
  assert.deepEqual(s.lines[1].runs, [])
})
}
