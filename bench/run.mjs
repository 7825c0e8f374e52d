// `npm run bench`: hookrt's costs, each against a baseline measured in the same run on the
// same machine (figures are ratios; absolute numbers depend on the machine's load).
import { spawn } from 'node:child_process'
import net from 'node:net'
import { claudeTurn } from './claude-turn.mjs'
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { createRuntime } = require(join(root, 'wrapper.js'))
const bin = join(root, 'bin', 'hookrt.js')
const quick = process.argv.includes('--quick')
const results = []

function report(name, value, unit, baselineName, baseline, ratio, target) {
  const line = `${name}: ${value.toFixed(unit === 'ops/s' ? 0 : 3)} ${unit} | baseline ${baselineName}: ${baseline.toFixed(unit === 'ops/s' ? 0 : 3)} ${unit} | ratio ${ratio.toFixed(2)}${target ? ` (target ${target})` : ''}`
  results.push(line)
  console.log(line)
}

function projectWith(hooks) {
  const dir = mkdtempSync(join(tmpdir(), 'hookrt-bench-'))
  mkdirSync(join(dir, 'home'))
  mkdirSync(join(dir, 'proj', '.claude'), { recursive: true })
  writeFileSync(join(dir, 'proj', '.claude', 'settings.json'), JSON.stringify({ hooks }))
  return { dir, cwd: join(dir, 'proj'), home: join(dir, 'home') }
}

const payload = { session_id: 's1', tool_name: 'Read', tool_input: { file_path: '/tmp/x', limit: 100 }, cwd: '/w' }

async function noMatch() {
  const p = projectWith({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'exit 2' }] }] })
  const rt = createRuntime({ cwd: p.cwd, homeDir: p.home })
  const n = quick ? 200_000 : 1_000_000
  // Baseline: a pure-JS async function building the same empty result.
  const jsEmpty = async (event, pl) => ({ canonical: 'tool:before', outcome: { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false }, runs: [], pl })
  for (let i = 0; i < 20000; i++) {
    await rt.dispatch('PreToolUse', payload)
    await jsEmpty('PreToolUse', payload)
  }
  let t = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await jsEmpty('PreToolUse', payload)
  const base = n / (Number(process.hrtime.bigint() - t) / 1e9)
  t = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await rt.dispatch('PreToolUse', payload)
  const ours = n / (Number(process.hrtime.bigint() - t) / 1e9)
  report('N-API dispatch, no matching hook', ours, 'ops/s', 'pure-JS async function', base, ours / base, '>= 500000 ops/s')
  rmSync(p.dir, { recursive: true, force: true })
}

function rawSpawn() {
  return new Promise((resolve, reject) => {
    const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] })
    c.stdin.on('error', () => {})
    c.stdin.end(JSON.stringify(payload) + '\n')
    c.stdout.resume()
    c.stderr.resume()
    c.on('error', reject)
    c.on('close', resolve)
  })
}

async function timeSeq(n, fn) {
  for (let i = 0; i < 10; i++) await fn()
  const t = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await fn()
  return Number(process.hrtime.bigint() - t) / 1e6 / n
}

async function oneTrueHook() {
  const p = projectWith({ PreToolUse: [{ hooks: [{ command: 'true' }] }] })
  const rt = createRuntime({ cwd: p.cwd, homeDir: p.home })
  const n = quick ? 100 : 300
  // Interleave the two so machine noise hits both alike.
  let raw = 0
  let ours = 0
  for (let round = 0; round < 3; round++) {
    raw += await timeSeq(n / 3, rawSpawn)
    ours += await timeSeq(n / 3, () => rt.dispatch('PreToolUse', payload))
  }
  report('dispatch of one matching `true` hook', ours / 3, 'ms', 'raw spawn of /bin/sh -c true with pipes', raw / 3, ours / raw, '<= 1.3')
  rmSync(p.dir, { recursive: true, force: true })
  return raw / 3
}

async function fiveSleepers() {
  const p = projectWith({ PreToolUse: [{ hooks: Array.from({ length: 5 }, () => ({ command: 'sleep 0.2' })) }] })
  const rt = createRuntime({ cwd: p.cwd, homeDir: p.home })
  const one = projectWith({ PreToolUse: [{ hooks: [{ command: 'sleep 0.2' }] }] })
  const rt1 = createRuntime({ cwd: one.cwd, homeDir: one.home })
  const single = await timeSeq(5, () => rt1.dispatch('PreToolUse', payload))
  const five = await timeSeq(5, () => rt.dispatch('PreToolUse', payload))
  report('five matching hooks sleeping 0.2 s (wall)', five / 1000, 's', 'one such hook', single / 1000, five / single, 'wall <= 0.3 s')
  rmSync(p.dir, { recursive: true, force: true })
  rmSync(one.dir, { recursive: true, force: true })
}

/** Execution history on vs off, interleaved in one run: no-match and one matched `true` hook. */
async function historyCost() {
  const p = projectWith({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'true' }] }] })
  const off = createRuntime({ cwd: p.cwd, homeDir: p.home })
  const on = createRuntime({ cwd: p.cwd, homeDir: p.home, history: { path: join(p.dir, 'history.jsonl') } })
  const bash = { ...payload, tool_name: 'Bash' }
  const n = quick ? 50_000 : 300_000
  let [a, b] = [0, 0]
  for (let round = 0; round < 3; round++) {
    a += await timeSeq(n / 3, () => off.dispatch('PreToolUse', payload))
    b += await timeSeq(n / 3, () => on.dispatch('PreToolUse', payload))
  }
  report('no-match dispatch with history on', 1000 / (b / 3), 'ops/s', 'history off', 1000 / (a / 3), a / b, '>= 0.95')
  const m = quick ? 60 : 300
  ;[a, b] = [0, 0]
  for (let round = 0; round < 3; round++) {
    a += await timeSeq(m / 3, () => off.dispatch('PreToolUse', bash))
    b += await timeSeq(m / 3, () => on.dispatch('PreToolUse', bash))
  }
  report('one matched `true` hook with history on', b / 3, 'ms', 'history off', a / 3, b / a, '<= 1.05')
  on.close()
  rmSync(p.dir, { recursive: true, force: true })
}

/** Pipes `lines` into a command and resolves with wall seconds and the answer count. */
function pipeThrough(cmd, args, lines) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint()
    const c = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] })
    let count = 0
    c.stdout.on('data', (d) => {
      for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) count++
    })
    c.on('error', reject)
    c.on('close', () => resolve({ secs: Number(process.hrtime.bigint() - t) / 1e9, count }))
    c.stdin.end(lines)
  })
}

async function listenThroughput() {
  const p = projectWith({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'exit 2' }] }] })
  const n = quick ? 20_000 : 100_000
  const line = JSON.stringify({ op: 'dispatch', event: 'PreToolUse', payload }) + '\n'
  const lines = line.repeat(n)
  const echo = await pipeThrough(process.execPath, [join(root, 'bench', 'echo-server.mjs')], lines)
  // As users run it (`hookrt listen`: the bin, which hands over to the native executable) ...
  const ours = await pipeThrough(bin, ['listen', '--cwd', p.cwd, '--home', p.home], lines)
  // ... and through Node and the addon (`node bin/hookrt.js listen`).
  const viaNode = await pipeThrough(process.execPath, [bin, 'listen', '--cwd', p.cwd, '--home', p.home], lines)
  for (const [who, r] of [['hookrt', ours], ['node', viaNode], ['echo', echo]]) {
    if (r.count !== n) throw new Error(`answers from ${who}: ${r.count}, wanted ${n}`)
  }
  report(`hookrt listen, ${n} no-match dispatch lines (whole process)`, n / ours.secs, 'ops/s', 'Node JSON-lines echo server', n / echo.secs, echo.secs / ours.secs, '>= 3x')
  report(`node bin/hookrt.js listen (addon), same lines`, n / viaNode.secs, 'ops/s', 'Node JSON-lines echo server', n / echo.secs, echo.secs / viaNode.secs)
  rmSync(p.dir, { recursive: true, force: true })
}

async function listenTrueHooks(rawMs) {
  const p = projectWith({ PreToolUse: [{ hooks: [{ command: 'true' }] }] })
  const n = quick ? 100 : 300
  const line = JSON.stringify({ op: 'dispatch', event: 'PreToolUse', payload }) + '\n'
  const ours = await pipeThrough(bin, ['listen', '--cwd', p.cwd, '--home', p.home], line.repeat(n))
  if (ours.count !== n) throw new Error(`answers: ${ours.count}`)
  const per = (ours.secs * 1000) / n
  report(`hookrt listen, ${n} dispatches of one \`true\` hook`, per, 'ms', 'raw spawn of /bin/sh -c true with pipes', rawMs, per / rawMs)
  rmSync(p.dir, { recursive: true, force: true })
}

// A worker answering every request with exit 0 and no output, like `true`.
const TRUE_WORKER = `require(${JSON.stringify(join(root, 'worker'))}).serveWorker(() => undefined)`

/** CPU ms this process's JS thread has used so far (Linux: /proc; 10 ms ticks, so measure long runs). */
function jsThreadCpuMs() {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(f[11]) + Number(f[12])) * 10
  } catch {
    return NaN
  }
}

/** Median µs of a bare request/answer round trip between Node and the `true` worker, and the
 * JS thread's CPU µs per round trip. */
function pipeRoundTrip(n, { fair = false } = {}) {
  const c = spawn(process.execPath, ['-e', TRUE_WORKER], { stdio: ['pipe', 'pipe', 'inherit'] })
  let pending = null
  let buf = ''
  c.stdout.on('data', (d) => {
    buf += d
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      // The fair floor reads the answer as a host must; the bare one only finds its end.
      const answer = fair ? JSON.parse(buf.slice(0, i)) : undefined
      buf = buf.slice(i + 1)
      const p = pending
      pending = null
      p?.(answer)
    }
  })
  let id = 0
  const line = JSON.stringify({ id: 1, event: 'PreToolUse', payload }) + '\n'
  // The fair floor builds each request as a host must: a fresh id, JSON.stringify per call.
  const request = fair ? () => JSON.stringify({ id: ++id, event: 'PreToolUse', payload }) + '\n' : () => line
  const once = () => new Promise((r) => ((pending = r), c.stdin.write(request())))
  return (async () => {
    for (let i = 0; i < 200; i++) await once()
    const samples = []
    const cpu = jsThreadCpuMs()
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint()
      await once()
      samples.push(Number(process.hrtime.bigint() - t) / 1e3)
    }
    const cpuPer = ((jsThreadCpuMs() - cpu) * 1000) / n
    c.stdin.end()
    samples.sort((a, b) => a - b)
    return { median: samples[Math.floor(n / 2)], cpuPer }
  })()
}

async function workerHook() {
  const p = projectWith({ PreToolUse: [{ hooks: [{ command: 'node w.js', worker: true }] }] })
  writeFileSync(join(p.cwd, 'w.js'), TRUE_WORKER)
  const one = projectWith({ PreToolUse: [{ hooks: [{ command: 'true' }] }] })
  const rt = createRuntime({ cwd: p.cwd, homeDir: p.home })
  const rt1 = createRuntime({ cwd: one.cwd, homeDir: one.home })
  await rt.dispatch('PreToolUse', payload) // starts the worker
  const n = quick ? 2000 : 20000
  const samples = []
  const cpu = jsThreadCpuMs()
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint()
    await rt.dispatch('PreToolUse', payload)
    samples.push(Number(process.hrtime.bigint() - t) / 1e3)
  }
  const cpuPer = ((jsThreadCpuMs() - cpu) * 1000) / n
  samples.sort((a, b) => a - b)
  const median = samples[Math.floor(n / 2)]
  const oneShot = await timeSeq(quick ? 100 : 300, () => rt1.dispatch('PreToolUse', payload))
  report('N-API dispatch of one matching worker hook (median)', median / 1000, 'ms', 'the one-shot `true` command hook', oneShot, oneShot / (median / 1000), 'median <= 0.050 ms, >= 20x')
  const fair = await pipeRoundTrip(n, { fair: true })
  report('N-API dispatch of one matching worker hook (median)', median / 1000, 'ms', 'fair floor: Node stringifying each request, writing it to the same worker, reading and parsing its answer (median)', fair.median / 1000, median / fair.median, '<= 1.5x')
  const floor = await pipeRoundTrip(n)
  report('N-API dispatch of one matching worker hook (median)', median / 1000, 'ms', 'bare floor (reference): one pre-built line written, answer not parsed (median)', floor.median / 1000, median / floor.median)
  // Dispatches run on the JS thread's loop: what that costs the host's thread, beside the same.
  if (Number.isFinite(cpuPer)) {
    report('JS-thread CPU per worker dispatch', cpuPer / 1000, 'ms', 'JS-thread CPU per bare round trip', floor.cpuPer / 1000, cpuPer / floor.cpuPer)
  }
  rt.close()
  rt1.close()

  const lp = projectWith({ PreToolUse: [{ hooks: [{ command: 'node w.js', worker: true, warm: true }] }] })
  writeFileSync(join(lp.cwd, 'w.js'), TRUE_WORKER)
  const m = quick ? 2000 : 10000
  const line = JSON.stringify({ op: 'dispatch', event: 'PreToolUse', payload }) + '\n'
  const ours = await pipeThrough(bin, ['listen', '--cwd', lp.cwd, '--home', lp.home], line.repeat(m))
  if (ours.count !== m) throw new Error(`answers: ${ours.count}`)
  const per = (ours.secs * 1000) / m
  const oneShotListen = projectWith({ PreToolUse: [{ hooks: [{ command: 'true' }] }] })
  const k = quick ? 100 : 300
  const base = await pipeThrough(bin, ['listen', '--cwd', oneShotListen.cwd, '--home', oneShotListen.home], line.repeat(k))
  const basePer = (base.secs * 1000) / k
  report(`hookrt listen, ${m} dispatches of one worker hook (incl. start)`, per, 'ms', 'hookrt listen with the one-shot `true` hook', basePer, basePer / per, '>= 10x')
  for (const d of [p.dir, one.dir, lp.dir, oneShotListen.dir]) rmSync(d, { recursive: true, force: true })
}

/**
 * Callback hooks (`createRuntime({hooks})`): one matching callback per dispatch, against a
 * dispatch with no hook and against the host calling the same async function itself (with the
 * same input object, built as the host would). Rounds alternate; medians of the rounds.
 */
async function callbackHook() {
  const p = projectWith({})
  const guard = async function guard(input) {
    return input.tool_name === 'Bash' ? { decision: 'block', reason: 'no' } : {}
  }
  const rt = createRuntime({ cwd: p.cwd, homeDir: p.home, hooks: { PreToolUse: [{ matcher: 'Read', hooks: [guard] }] } })
  const other = { ...payload, tool_name: 'Glob' }
  const n = quick ? 5000 : 20000
  const rounds = quick ? 5 : 9
  const perCall = async (fn) => {
    const t = process.hrtime.bigint()
    for (let i = 0; i < n; i++) await fn()
    return Number(process.hrtime.bigint() - t) / 1e3 / n
  }
  const ac = new AbortController()
  const sides = {
    callback: () => rt.dispatch('PreToolUse', payload),
    // As the Agent SDK's hosts call: every dispatch of a turn under the turn's signal.
    signal: () => rt.dispatch('PreToolUse', payload, ac.signal),
    none: () => rt.dispatch('PreToolUse', other),
    host: () => guard({ ...payload, hook_event_name: 'PreToolUse' }, 'toolu_1', { signal: ac.signal }),
  }
  const got = { callback: [], signal: [], none: [], host: [] }
  for (const k of Object.keys(sides)) await perCall(sides[k])
  for (let r = 0; r < rounds; r++) for (const k of Object.keys(sides)) got[k].push(await perCall(sides[k]))
  const med = (v) => v.sort((a, b) => a - b)[v.length >> 1]
  const [cb, none, host] = [med(got.callback), med(got.none), med(got.host)]
  const added = cb - none
  report('N-API dispatch of one matching callback hook (median µs)', cb, 'µs', 'dispatch with no matching hook', none, cb / none)
  report('what a matching callback adds to a dispatch (µs)', added, 'µs', 'the host calling the same async function itself', host, added / host, `<= max(2x, 10 µs)`)
  const signalled = med(got.signal)
  report('the same dispatch under an AbortSignal (µs)', signalled, 'µs', 'without one', cb, signalled / cb)
  rt.close()
  rmSync(p.dir, { recursive: true, force: true })
}

/** Median ms of `fn()` over `n` calls. */
function medianMs(n, fn) {
  const samples = []
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint()
    fn()
    samples.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return samples.sort((a, b) => a - b)[n >> 1]
}

/**
 * Loading (`createRuntime`, which reads every hook file): 20 and 200 hooks written with a bare
 * interpreter name (`node ./hooks/hN.js`) and with an absolute one (`/usr/bin/node …`), against
 * an empty project. The approval check must look at the script, never read the interpreter.
 */
function loadCost() {
  const n = quick ? 10 : 30
  const empty = projectWith({})
  const emptyMs = medianMs(n, () => createRuntime({ cwd: empty.cwd, homeDir: empty.home }).close())
  const figures = {}
  for (const count of [20, 200]) {
    for (const [form, interp] of [['bare', 'node'], ['absolute', process.execPath]]) {
      const hooks = Array.from({ length: count }, (_, i) => ({ command: `${interp} ./hooks/h${i}.js` }))
      const p = projectWith({ PreToolUse: [{ matcher: 'Bash', hooks }] })
      mkdirSync(join(p.cwd, 'hooks'))
      for (let i = 0; i < count; i++) writeFileSync(join(p.cwd, 'hooks', `h${i}.js`), `process.exit(${i % 2})\n`)
      const ms = medianMs(n, () => createRuntime({ cwd: p.cwd, homeDir: p.home }).close())
      figures[`${count}/${form}`] = ms
      report(`load ${count} hooks written \`${form === 'bare' ? 'node' : interp} ./hooks/hN.js\` (median)`, ms, 'ms', 'an empty project', emptyMs, ms / emptyMs)
      rmSync(p.dir, { recursive: true, force: true })
    }
    const ratio = figures[`${count}/absolute`] / figures[`${count}/bare`]
    report(`load ${count} hooks, absolute interpreter path`, figures[`${count}/absolute`], 'ms', 'bare interpreter name', figures[`${count}/bare`], ratio, '<= 5')
  }
  rmSync(empty.dir, { recursive: true, force: true })
}

/** Wall ms of one process run to completion with a payload on stdin. */
function spawnMs(cmd, args) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint()
    const c = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    c.stdin.on('error', () => {})
    c.stdin.end(JSON.stringify(payload) + '\n')
    c.stdout.resume()
    c.stderr.resume()
    c.on('error', reject)
    c.on('close', () => resolve(Number(process.hrtime.bigint() - t) / 1e6))
  })
}

/**
 * One-shot start-up: `hookrt run` with no matching hook as a whole process, against a bare
 * `sh -c true` spawn, alternating pairs (medians) — as users type it (the `hookrt` bin, a
 * shell line that hands over to the native executable) and the native executable itself.
 */
async function oneShot() {
  const p = projectWith({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'exit 2' }] }] })
  const native = [join(root, 'bin', 'hookrt-native'), join(root, 'node_modules', `hookrt-${process.platform}-${process.arch}-gnu`, 'hookrt')].find(existsSync)
  const argv = ['run', '--event', 'PreToolUse', '--payload', '-', '--cwd', p.cwd, '--home', p.home]
  const pairs = quick ? 20 : 60
  for (const [name, cmd] of [['hookrt run (the bin)', bin], ['hookrt run (native executable)', native]]) {
    if (!cmd) continue
    const ours = []
    const base = []
    for (let i = 0; i < 3; i++) await spawnMs(cmd, argv)
    for (let i = 0; i < pairs; i++) {
      base.push(await spawnMs('/bin/sh', ['-c', 'true']))
      ours.push(await spawnMs(cmd, argv))
    }
    const med = (x) => x.sort((a, b) => a - b)[x.length >> 1]
    report(`one-shot ${name}, no matching hook (median of ${pairs} pairs)`, med(ours), 'ms', 'sh -c true spawn', med(base), med(ours) / med(base), '<= 2.5')
  }
  rmSync(p.dir, { recursive: true, force: true })
}

/** Wall ms of `hookrt hook` answering one call (its stdin written, its answer read). */
function hookMs(native, env, cwd, input) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint()
    const c = spawn(native, ['hook', 'claude'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    c.stdout.on('data', (d) => (out += d))
    c.stderr.resume()
    c.on('error', reject)
    c.on('close', () => resolve([Number(process.hrtime.bigint() - t) / 1e6, out]))
    c.stdin.end(input)
  })
}

/**
 * `hookrt hook` as a harness runs it, per event: in-process (it loads the project's files each
 * time) against a warm `hookrt serve`, with ten hook files' worth of hooks of which one matches,
 * alternating with a bare `sh -c true` spawn.
 */
async function hookCommand() {
  const native = [join(root, 'bin', 'hookrt-native')].find(existsSync)
  if (!native) return
  const p = projectWith({ PreToolUse: Array.from({ length: 10 }, (_, i) => ({ matcher: i === 0 ? 'Bash' : `Tool${i}`, hooks: [{ command: 'true' }] })) })
  const env = { ...process.env, HOME: p.home, XDG_RUNTIME_DIR: join(p.dir, 'run'), XDG_STATE_HOME: '', HOOKRT_SOCKET: '' }
  const input = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: p.cwd })
  const pairs = quick ? 20 : 60
  const med = (x) => x.sort((a, b) => a - b)[x.length >> 1]
  const measure = async () => {
    const ours = []
    const base = []
    for (let i = 0; i < 3; i++) await hookMs(native, env, p.cwd, input)
    for (let i = 0; i < pairs; i++) {
      base.push(await spawnMs('/bin/sh', ['-c', 'true']))
      ours.push((await hookMs(native, env, p.cwd, input))[0])
    }
    return [med(ours), med(base)]
  }
  const [inProcess, base1] = await measure()
  report(`hookrt hook claude, one matching \`true\` hook of 10, in-process (median of ${pairs} pairs)`, inProcess, 'ms', 'sh -c true spawn', base1, inProcess / base1)
  // The same project with a Node worker hook instead: in-process each call starts the worker.
  writeFileSync(join(p.cwd, 'w.js'), TRUE_WORKER)
  writeFileSync(join(p.cwd, '.dsh-hooks.json'), JSON.stringify({ version: 1, events: { 'tool:before': [{ matcher: 'Bash', hooks: [{ type: 'worker', command: 'node w.js' }] }] } }))
  const cold = []
  for (let i = 0; i < (quick ? 5 : 15); i++) cold.push((await hookMs(native, env, p.cwd, input))[0])
  // The http endpoint (`install claude --http`) on a port chosen here.
  const token = 'bench-token-' + process.pid
  const port = await new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const a = srv.address().port
      srv.close(() => resolve(a))
    })
  })
  mkdirSync(join(p.home, '.local', 'state', 'hookrt'), { recursive: true })
  writeFileSync(join(p.home, '.local', 'state', 'hookrt', 'serve-http.json'), JSON.stringify({ port, token }))
  const server = spawn(native, ['serve'], { env, stdio: 'ignore' })
  for (let i = 0; i < 200 && !existsSync(join(p.dir, 'run', 'hookrt', 'serve.sock')); i++) await new Promise((r) => setTimeout(r, 25))
  const warm = []
  for (let i = 0; i < 3; i++) await hookMs(native, env, p.cwd, input)
  for (let i = 0; i < pairs; i++) warm.push((await hookMs(native, env, p.cwd, input))[0])
  report('hookrt hook claude with a Node worker hook, through a warm hookrt serve', med(warm), 'ms', 'in-process (the worker started per call)', med(cold), med(cold) / med(warm))
  rmSync(join(p.cwd, '.dsh-hooks.json'))
  // Claude Code's http hook to the same server: a POST, no process (Node's fetch keeps the
  // connection alive, as Claude's client does).
  const post = async (body) => {
    const t = process.hrtime.bigint()
    const r = await fetch(`http://127.0.0.1:${port}/hook/claude`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
    await r.text()
    return Number(process.hrtime.bigint() - t) / 1e6
  }
  const quiet = JSON.stringify({ session_id: 's', hook_event_name: 'Notification', message: 'hi', cwd: p.cwd })
  for (let i = 0; i < 20; i++) await post(quiet)
  const httpIdle = []
  const httpTrue = []
  for (let i = 0; i < pairs * 5; i++) httpIdle.push(await post(quiet))
  for (let i = 0; i < pairs; i++) httpTrue.push(await post(input))
  const [served, base2] = await measure()
  report('http hook to hookrt serve, no matching hook (round trip, median)', med(httpIdle), 'ms', 'the same call as a command hook (hookrt hook through serve)', served, med(httpIdle) / served, 'round trip < 1 ms')
  report('http hook to hookrt serve, one matching `true` hook of 10 (median)', med(httpTrue), 'ms', 'the same call as a command hook (hookrt hook through serve)', served, med(httpTrue) / served)
  server.kill('SIGTERM')
  report(`hookrt hook claude, one matching \`true\` hook of 10, through a warm hookrt serve (median of ${pairs} pairs)`, served, 'ms', 'sh -c true spawn', base2, served / base2)
  report('hookrt hook (one `true` hook of 10) through hookrt serve', served, 'ms', 'in-process', inProcess, served / inProcess)
  rmSync(p.dir, { recursive: true, force: true })
}

console.log(`hookrt bench (${quick ? 'quick' : 'full'}), node ${process.version}, ${new Date().toISOString()}`)
// `--only=worker,load`: just those sections.
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',')
const section = (name) => !only || only.includes(name)
if (section('load')) loadCost()
if (section('oneshot')) await oneShot()
if (section('hook')) await hookCommand()
if (section('nomatch')) await noMatch()
const raw = section('true') || section('listen') ? await oneTrueHook() : 0
if (section('sleepers')) await fiveSleepers()
if (section('listen')) await listenThroughput()
if (section('listen')) await listenTrueHooks(raw)
if (section('callback')) await callbackHook()
if (section('worker')) await workerHook()
if (section('history')) await historyCost()
if (section('turn')) await claudeTurn({ sessions: quick ? 3 : 5 })
