// Persistent hook workers (issue 14): real worker processes in JS (hookrt/worker), Python and
// a shell `while read` loop; answers, ordering, concurrency, crashes, timeouts, idleness,
// close() and a 1000-dispatch burst.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { project, sleep, root, bin, exists, assertGone } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

// A JS worker: `tool_input.command` says what to do.
const JS_WORKER = `
const { serveWorker } = require(${JSON.stringify(join(root, 'worker'))})
let busy = 0
let peak = 0
serveWorker(async (event, payload) => {
  const cmd = payload.tool_input?.command ?? ''
  const ctx = (text) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
  if (cmd.includes('rm -rf')) return { exitCode: 2, stderr: 'no rm -rf from a worker' }
  if (cmd === 'whoami') return ctx('pid ' + process.pid + ' worker=' + process.env.HOOKRT_WORKER + ' session=' + payload.session_id)
  if (cmd === 'overlap') {
    busy++
    peak = Math.max(peak, busy)
    for (let i = 0; i < 300 && busy < 2; i++) await new Promise((r) => setTimeout(r, 10))
    await new Promise((r) => setTimeout(r, 20))
    busy--
    return ctx('peak ' + Math.max(peak, busy + 1))
  }
  if (cmd === 'hang') {
    require('fs').appendFileSync('hang.seen', 'x')
    return new Promise(() => {})
  }
  if (cmd === 'throw') throw new Error('handler blew up')
  if (cmd.startsWith('echo ')) return ctx(cmd.slice(5))
  return undefined
})
`

function setup(t, hookExtra = {}) {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/w.js', JS_WORKER)
  p.claude({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node w.js', worker: true, ...hookExtra }] }],
  })
  const rt = createRuntime(p.options())
  t.after(() => rt.close())
  return { p, rt }
}

/** Waits until the JS worker has taken `n` 'hang' requests in all (it counts them in a file). */
async function hangsSeen(p, n) {
  for (let i = 0; i < 1000; i++) {
    if ((existsSync(p.path('proj/hang.seen')) ? readFileSync(p.path('proj/hang.seen'), 'utf8').length : 0) >= n) return
    await sleep(10)
  }
  assert.fail(`the worker never took ${n} hang request(s)`)
}

const bash = (command, extra = {}) => ({ tool_name: 'Bash', tool_input: { command }, ...extra })
const pidOf = (r) => Number(/pid (\d+)/.exec(r.outcome.contexts.join(' '))?.[1])

test('a JS worker (hookrt/worker) answers deny, allow and context from one long-lived process', async (t) => {
  const { rt } = setup(t)
  assert.deepEqual(rt.diagnostics, [])
  let r = await rt.dispatch('PreToolUse', bash('whoami', { session_id: 's1' }))
  assert.equal(r.runs[0].hook.kind, 'worker')
  assert.match(r.outcome.contexts[0], /^pid \d+ worker=1 session=s1$/)
  const pid = pidOf(r)
  r = await rt.dispatch('PreToolUse', bash('rm -rf /'))
  assert.deepEqual([r.outcome.decision, r.outcome.reason, r.runs[0].outcome.exitCode], ['deny', 'no rm -rf from a worker', 2])
  r = await rt.dispatch('PreToolUse', bash('ls'))
  assert.deepEqual([r.outcome.decision, r.outcome.contexts], ['none', []])
  r = await rt.dispatch('PreToolUse', bash('throw'))
  assert.deepEqual([r.runs[0].outcome.exitCode, r.runs[0].outcome.stderr, r.outcome.decision], [1, 'handler blew up', 'none'])
  r = await rt.dispatch('PreToolUse', bash('whoami', { session_id: 's2' }))
  assert.equal(pidOf(r), pid, 'the same process answered every request')
  assert.ok(exists(pid))
  rt.close()
  await assertGone(pid)
})

test('two slow requests overlap in one worker; maxInFlight 1 serializes them', async (t) => {
  const { rt } = setup(t)
  const rs = await Promise.all([rt.dispatch('PreToolUse', bash('overlap')), rt.dispatch('PreToolUse', bash('overlap'))])
  assert.deepEqual(rs.map((r) => r.outcome.contexts[0]), ['peak 2', 'peak 2'])
  const serial = setup(t, { maxInFlight: 1 }).rt
  const rs1 = await Promise.all([serial.dispatch('PreToolUse', bash('overlap')), serial.dispatch('PreToolUse', bash('overlap'))])
  assert.deepEqual(rs1.map((r) => r.outcome.contexts[0]), ['peak 1', 'peak 1'])
})

// Reads two requests, answers the second first; prints garbage and an unknown id on the way.
const SHELL_WORKER = `
field() { printf '%s' "$1" | sed -n "s/.*\\"$2\\":\\"\\{0,1\\}\\([^\\",}]*\\).*/\\1/p"; }
while IFS= read -r a && IFS= read -r b; do
  ia=$(field "$a" id); ib=$(field "$b" id)
  ca=$(field "$a" command); cb=$(field "$b" command)
  echo "this is not json"
  echo '{"id": 99999999, "stdout": "nobody asked"}'
  echo "worker noise on stderr" >&2
  # stderr and stdout are two pipes read by two readers: give the stderr line time to be read
  # before the answers it should ride on (the order across pipes is not kept).
  sleep 0.2
  # Answers go out in the reverse order of the requests; the command "one" is denied.
  for x in "$ib $cb" "$ia $ca"; do
    set -- $x
    if [ "$2" = one ]; then printf '{"id":%s,"exitCode":2,"stderr":"denied %s"}\\n' "$1" "$2"
    else printf '{"id":%s,"stdout":{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"answer for %s"}}}\\n' "$1" "$2"; fi
  done
done
`

test('a shell while-read worker: out-of-order answers reach their own dispatch; garbage lines are ignored', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/w.sh', SHELL_WORKER)
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'sh w.sh', worker: true }] }] })
  const sh = createRuntime(p.options())
  t.after(() => sh.close())
  const first = sh.dispatch('PreToolUse', bash('one'))
  const second = sh.dispatch('PreToolUse', bash('two'))
  const [r1, r2] = await Promise.all([first, second])
  assert.deepEqual([r1.outcome.decision, r1.outcome.reason], ['deny', 'denied one'])
  assert.deepEqual([r2.outcome.decision, r2.outcome.contexts], ['none', ['answer for two']])
  // An answer without stderr carries what the worker wrote on stderr.
  assert.equal(r2.runs[0].outcome.stderr, 'worker noise on stderr')
})

test('a Python worker (examples/worker.py) denies rm -rf and asks on git push', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: `python3 ${join(root, 'examples', 'worker.py')}`, worker: true }] }] })
  const rt = createRuntime(p.options())
  t.after(() => rt.close())
  const rs = await Promise.all([
    rt.dispatch('PreToolUse', bash('rm -rf build')),
    rt.dispatch('PreToolUse', bash('git push origin main')),
    rt.dispatch('PreToolUse', bash('ls')),
  ])
  assert.deepEqual(rs.map((r) => [r.outcome.decision, r.outcome.reason ?? null]), [
    ['deny', 'rm -rf is not allowed here'],
    ['ask', 'pushing needs a human'],
    ['none', null],
  ])
})

test('kill -9 of the worker mid-request fails that request; the next one runs on a new worker', async (t) => {
  const { p, rt } = setup(t)
  const pid = pidOf(await rt.dispatch('PreToolUse', bash('whoami')))
  const hanging = rt.dispatch('PreToolUse', bash('hang'))
  await hangsSeen(p, 1)
  process.kill(pid, 'SIGKILL')
  const r = await hanging
  // The worker's leader is `sh -c 'node w.js'`, which reports its child's death as 128+9.
  assert.match(r.runs[0].error, /^worker exited \((signal SIGKILL|code 137)\)$/)
  assert.equal(r.outcome.decision, 'none', 'onError warn: the tool is not blocked')
  const next = await rt.dispatch('PreToolUse', bash('whoami'))
  assert.ok(pidOf(next) > 0 && pidOf(next) !== pid, 'a fresh worker answered')
})

test('a worker that never answers: the request times out, the tree is killed, others in flight fail, the next request gets a new worker', async (t) => {
  const { p, rt } = setup(t, { timeout: 2 })
  const pid = pidOf(await rt.dispatch('PreToolUse', bash('whoami')))
  const first = rt.dispatch('PreToolUse', bash('hang'))
  await hangsSeen(p, 1)
  // The second request's own deadline falls well after the first's, so it is the first's
  // timeout (killing the worker) that ends it.
  await sleep(800)
  const second = rt.dispatch('PreToolUse', bash('hang'))
  const [r1, r2] = await Promise.all([first, second])
  assert.equal(r1.runs[0].error, 'timed out after 2s')
  assert.equal(r2.runs[0].error, 'worker restarted')
  await assertGone(pid)
  const next = await rt.dispatch('PreToolUse', bash('whoami'))
  assert.ok(pidOf(next) !== pid)
  // An aborted request fails alone; the worker keeps running.
  const ac = new AbortController()
  const aborted = rt.dispatch('PreToolUse', bash('hang'), ac.signal)
  setTimeout(() => ac.abort(), 100)
  await assert.rejects(aborted, { name: 'AbortError' })
  assert.equal(pidOf(await rt.dispatch('PreToolUse', bash('whoami'))), pidOf(next))
})

test('a crashing worker is restarted with backoff, then capped with a clear error until reload()', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'exit 3', worker: true }] }] })
  const rt = createRuntime(p.options())
  t.after(() => rt.close())
  const errors = []
  for (let i = 0; i < 12; i++) {
    const r = await rt.dispatch('PreToolUse', bash('ls'))
    errors.push(r.runs[0].error)
    if (/keeps crashing/.test(r.runs[0].error)) break
  }
  const last = errors.at(-1)
  assert.equal(last, 'worker claude:settings.json:PreToolUse:0:0 keeps crashing', JSON.stringify(errors))
  for (const e of errors.slice(0, -1)) assert.equal(e, 'worker exited (code 3)')
  assert.ok(errors.length >= 6 && errors.length <= 8, `${errors.length} attempts: ${JSON.stringify(errors)}`)
  assert.match((await rt.dispatch('PreToolUse', bash('ls'))).runs[0].error, /keeps crashing/)
  await rt.reload()
  assert.doesNotMatch((await rt.dispatch('PreToolUse', bash('ls'))).runs[0].error, /keeps crashing/)
})

test('an idle worker is stopped after idleTimeout; close() leaves no process', async (t) => {
  const { rt } = setup(t, { idleTimeout: 0.3 })
  const pid = pidOf(await rt.dispatch('PreToolUse', bash('whoami')))
  await assertGone(pid, 5000)
  const pid2 = pidOf(await rt.dispatch('PreToolUse', bash('whoami')))
  assert.notEqual(pid2, pid)
  const { rt: other } = setup(t)
  const pid3 = pidOf(await other.dispatch('PreToolUse', bash('whoami')))
  other.close()
  await assertGone(pid3)
})

test('warm: true starts the worker at load; reload stops a worker whose hook disappeared', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/w.js', JS_WORKER.replace('serveWorker(', `require('fs').writeFileSync('started.pid', String(process.pid)); serveWorker(`))
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'node w.js', worker: true, warm: true }] }] })
  const rt = createRuntime(p.options())
  t.after(() => rt.close())
  const { waitForFile } = await import('./helpers.mjs')
  const pid = Number(await waitForFile(p.path('proj/started.pid')))
  assert.ok(exists(pid), 'started before any dispatch')
  assert.equal(pidOf(await rt.dispatch('PreToolUse', bash('whoami'))), pid)
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'echo plain' }] }] })
  await rt.reload()
  await assertGone(pid)
})

test('1000 concurrent dispatches to one worker are all answered, each with its own answer', async (t) => {
  const { rt } = setup(t)
  const rs = await Promise.all(Array.from({ length: 1000 }, (_, i) => rt.dispatch('PreToolUse', bash(`echo n${i}`))))
  rs.forEach((r, i) => assert.deepEqual(r.outcome.contexts, [`n${i}`]))
})

test('native {"type":"worker"} with exec args, shared by every listen request', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/w.js', JS_WORKER)
  const cfg = p.write('hooks.json', { hooks: { 'tool:before': [{ hooks: [{ type: 'worker', command: process.execPath, args: ['w.js'], maxInFlight: 4, idleTimeout: 30 }] }] } })
  const lines = Array.from({ length: 3 }, (_, i) => JSON.stringify({ op: 'dispatch', id: i, event: 'tool:before', payload: bash('whoami') })).join('\n') + '\n'
  const r = spawnSync(process.execPath, [bin, 'listen', '--config', cfg, '--cwd', p.path('proj'), '--home', p.path('home')], { input: lines, encoding: 'utf8' })
  const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
  assert.equal(out.length, 3, r.stderr)
  const pids = new Set(out.map((o) => Number(/pid (\d+)/.exec(o.outcome.contexts[0])[1])))
  assert.equal(pids.size, 1, 'one worker served every request')
  await assertGone([...pids][0])
  const bad = createRuntime({ ...p.options(), configPath: p.write('bad.json', { hooks: { 'tool:before': [{ hooks: [{ type: 'worker', command: 'x', maxInFlight: 0, idleTimeout: -1 }] }] } }) })
  t.after(() => bad.close())
  assert.deepEqual(bad.diagnostics.map((d) => d.message.replace(/^.*hooks\[0\]: /, '')), [
    'maxInFlight must be a whole number from 1 to 10000',
    'idleTimeout must be a positive number of seconds',
  ])
})

test('the host process exiting leaves no worker behind; doctor trial-runs a worker and stops it', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  // This worker ignores the end of its input: only hookrt's kill at host exit ends it.
  p.write('proj/w.js', JS_WORKER.replace('serveWorker(', `require('fs').appendFileSync('pids', process.pid + '\\n'); serveWorker(`) + '\nsetInterval(() => {}, 1000)\n')
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'node w.js', worker: true }] }] })
  const host = `
    const { createRuntime } = require(${JSON.stringify(join(root, 'wrapper.js'))})
    const rt = createRuntime(${JSON.stringify(p.options())})
    rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'whoami' } }).then((r) => {
      console.log(r.outcome.contexts[0])
      process.exit(0) // no close(): the exit hook must end the worker
    })`
  const r = spawnSync(process.execPath, ['-e', host], { encoding: 'utf8' })
  const pid = Number(/pid (\d+)/.exec(r.stdout)?.[1])
  assert.ok(pid > 0, r.stdout + r.stderr)
  await assertGone(pid)

  const d = spawnSync(process.execPath, [bin, 'doctor', '--json', '--cwd', p.path('proj'), '--home', p.path('home')], { encoding: 'utf8' })
  const [report] = JSON.parse(d.stdout)
  assert.deepEqual([report.kind, report.decision, report.exitCode, report.problems], ['worker', 'none', 0, []], d.stdout)
  // the trial worker (which ignores the end of its input) is gone once doctor has exited
  const pids = readFileSync(p.path('proj/pids'), 'utf8').trim().split('\n').map(Number)
  assert.equal(pids.length, 2, String(pids))
  await assertGone(pids[1])
})

// Dispatches run on the JS thread's own loop, which also reads worker answers (js_loop.rs).
// These hold what the loop must do besides answering: keep Node running while a dispatch is
// pending, and live (and end) in a worker thread as on the main thread.

test('a dispatch waiting on a worker keeps Node running until it settles, with nothing else to keep it', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/slow.js', `
    const { serveWorker } = require(${JSON.stringify(join(root, 'worker'))})
    serveWorker(async (event) => {
      await new Promise((r) => setTimeout(r, 300))
      return { hookSpecificOutput: { hookEventName: event, additionalContext: 'late answer' } }
    })`)
  p.claude({ PreToolUse: [{ hooks: [{ command: 'node slow.js', worker: true }] }] })
  const host = `
    const { createRuntime } = require(${JSON.stringify(join(root, 'wrapper.js'))})
    const rt = createRuntime(${JSON.stringify(p.options())})
    rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }).then((r) => {
      console.log('settled ' + r.outcome.contexts.join())
      rt.close()
    })`
  const r = spawnSync(process.execPath, ['-e', host], { encoding: 'utf8', timeout: 20000 })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout.trim(), 'settled late answer', r.stderr)
})

test('a runtime in a worker thread answers from its own loop; ending the thread mid-dispatch is clean', async (t) => {
  const { p } = setup(t)
  const host = `
    const { Worker } = require('node:worker_threads')
    const code = \`
      const { parentPort, workerData } = require('node:worker_threads')
      const { createRuntime } = require(${JSON.stringify(join(root, 'wrapper.js'))})
      const rt = createRuntime(workerData.options)
      ;(async () => {
        const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo from a thread' } })
        parentPort.postMessage(r.outcome.contexts.join())
        rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'hang' } })
        parentPort.postMessage('pending')
      })()\`
    const w = new Worker(code, { eval: true, workerData: { options: ${JSON.stringify(p.options())} } })
    w.on('message', (m) => {
      console.log(m)
      if (m === 'pending') setTimeout(() => w.terminate(), 200)
    })
    w.on('exit', (code) => console.log('thread ended ' + code))`
  const r = spawnSync(process.execPath, ['-e', host], { encoding: 'utf8', timeout: 20000 })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(r.stdout.trim().split('\n'), ['from a thread', 'pending', 'thread ended 1'], r.stderr)
})
