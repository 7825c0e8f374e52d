// `hookrt serve` as a faithful and private deputy (docs/security.md): a call's hooks start from
// the calling session's environment, never the server's secrets or its HTTP token; both ends
// check who is at the other end of the socket (a second user: `nobody`, when run as root); the
// socket's folder is the user's own; the doors take only what `hookrt install` writes; the
// server bounds what idle or oversized connections can hold, and exits when its port is taken.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync, existsSync, mkdirSync, chmodSync, chownSync, renameSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { project, root, sleep, TRUST } from './helpers.mjs'

const native = join(root, 'bin', 'hookrt-native')
const asRoot = process.getuid?.() === 0
const NOBODY = 65534

function server(t, p, env, args = ['serve']) {
  const child = spawn(native, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  child.stderr.on('data', (d) => (log += d))
  t.after(() => child.kill('SIGKILL'))
  return { child, log: () => log, exited: new Promise((r) => child.once('exit', (code) => r(code))) }
}

async function listening(path) {
  for (let i = 0; i < 200 && !existsSync(path); i++) await sleep(25)
  assert.ok(existsSync(path), `listening on ${path}`)
}

function setup(t) {
  const p = project()
  t.after(() => p.cleanup())
  TRUST.claude(p)
  const env = { ...process.env, HOME: p.path('home'), XDG_RUNTIME_DIR: p.path('run'), XDG_STATE_HOME: '', HOOKRT_SOCKET: '' }
  return { p, env, socket: p.path('run/hookrt/serve.sock') }
}

const call = (p) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'sudo rm -rf /x' }, cwd: p.path('proj') })

function hook(p, env, input) {
  const r = spawnSync(native, ['hook', 'claude'], { cwd: p.path('proj'), env, input, encoding: 'utf8' })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** One raw call on the socket: the reply lines the server sent (none when it dropped us). */
function rawCall(socket, line) {
  return new Promise((resolve) => {
    const c = net.connect(socket)
    let buf = ''
    c.on('data', (d) => (buf += d))
    c.on('error', () => resolve(buf.split('\n').filter(Boolean)))
    c.on('close', () => resolve(buf.split('\n').filter(Boolean)))
    c.on('connect', () => c.write(line))
  })
}

test("serve runs a call's hooks in the caller's environment, without the server's secrets or HOOKRT_TOKEN", async (t) => {
  const { p, env, socket } = setup(t)
  // A guard configured through the session's environment, as a popular collection's README says.
  p.write('proj/.agents/hooks.json', {
    PreToolUse: [{ matcher: 'Bash', command: `env > "${p.path('proj/hook.env')}"; echo $PPID > "${p.path('proj/hook.ppid')}"; [ "$HOOK_SAFETY_LEVEL" = strict ] && grep -q sudo && { echo 'strict: no sudo' >&2; exit 2; }; exit 0` }],
  })
  const s = server(t, p, { ...env, OPENAI_API_KEY: 'sk-server-secret', SERVER_ONLY: 'yes' })
  await listening(socket)
  const r = hook(p, { ...env, HOOK_SAFETY_LEVEL: 'strict', HOOKRT_TOKEN: 'token-for-claude' }, call(p))
  assert.equal(Number(readFileSync(p.path('proj/hook.ppid'), 'utf8')), s.child.pid, 'the hook ran in the server')
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecision, 'deny', r.out + r.err)
  const seen = readFileSync(p.path('proj/hook.env'), 'utf8')
  assert.match(seen, /^HOOK_SAFETY_LEVEL=strict$/m)
  assert.match(seen, /^CLAUDE_PROJECT_DIR=/m, "the harness's variables are added")
  for (const v of ['OPENAI_API_KEY', 'SERVER_ONLY', 'HOOKRT_TOKEN']) assert.doesNotMatch(seen, new RegExp(`^${v}=`, 'm'), `${v} reached the hook`)
  // The same hook in-process: the same answer.
  s.child.kill('SIGKILL')
  await s.exited
  const inproc = hook(p, { ...env, HOOK_SAFETY_LEVEL: 'strict', HOOKRT_TOKEN: 'token-for-claude' }, call(p))
  assert.equal(JSON.parse(inproc.out).hookSpecificOutput.permissionDecision, 'deny')
  assert.doesNotMatch(readFileSync(p.path('proj/hook.env'), 'utf8'), /^HOOKRT_TOKEN=/m)
})

test('the socket door takes only what install writes; the HTTP door only /hook/claude', async (t) => {
  const { p, env, socket } = setup(t)
  server(t, p, env)
  await listening(socket)
  const history = p.path('elsewhere.jsonl')
  const req = { argv: ['hook', 'claude', '--history', history, '--config', p.path('x.json')], env: {}, cwd: p.path('proj'), stdin: call(p) }
  const lines = await rawCall(socket, JSON.stringify(req) + '\n')
  assert.equal(JSON.parse(lines.at(-1)).stderr.trim(), 'hookrt serve: not an installed hookrt hook command line (hookrt serve takes only install\'s flags)')
  assert.equal(existsSync(history), false)
  // A client with such flags answers in-process instead of asking the server.
  const r = spawnSync(native, ['hook', 'claude', '--history', history], { cwd: p.path('proj'), env, input: call(p), encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.ok(existsSync(history), 'in-process, the flag is honoured')
})

test('the HTTP door answers only /hook/claude, and doctor tells serve from a squatter on its port', async (t) => {
  const { p, env } = setup(t)
  const inst = spawnSync(native, ['install', 'claude', '--http', '--cwd', p.path('proj'), '--home', p.path('home')], { env, encoding: 'utf8' })
  assert.equal(inst.status, 0, inst.stderr)
  const { port, token } = JSON.parse(readFileSync(p.path('home/.local/state/hookrt/serve-http.json'), 'utf8'))
  const doctor = () => spawnSync(native, ['doctor', '--cwd', p.path('proj'), '--home', p.path('home')], { env, encoding: 'utf8' }).stdout

  // Someone else holds the port: serve refuses to start, doctor names the squatter.
  const squatter = net.createServer((c) => c.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'))
  await new Promise((r) => squatter.listen(port, '127.0.0.1', r))
  const refused = server(t, p, env)
  assert.equal(await refused.exited, 1)
  assert.match(refused.log(), /cannot listen on 127\.0\.0\.1:\d+/)
  assert.equal(existsSync(p.path('run/hookrt/serve.sock')), false, 'no half-started server')
  assert.match(doctor(), new RegExp(`PROBLEM\\thttp hooks endpoint 127\\.0\\.0\\.1:${port}: held by another program`))
  await new Promise((r) => squatter.close(r))

  const s = server(t, p, env)
  await listening(p.path('run/hookrt/serve.sock'))
  assert.match(doctor(), new RegExp(`ok\\thttp hooks endpoint 127\\.0\\.0\\.1:${port}: answering \\(hookrt serve\\)`))
  const post = (path) => fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: call(p) })
  assert.equal((await post('/hook/codex')).status, 404)
  assert.equal((await post('/hook/claude')).status, 200)
  s.child.kill('SIGTERM')
})

test('serve needs a home for its socket: never a shared temp folder', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const tmp = mkdtempSync(join(tmpdir(), 'hookrt-tmpdir-'))
  t.after(() => rmSync(tmp, { recursive: true, force: true }))
  const env = { PATH: process.env.PATH, TMPDIR: tmp }
  const r = spawnSync(native, ['serve'], { env, encoding: 'utf8', timeout: 10000 })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /no place for the socket: set HOME, XDG_RUNTIME_DIR or HOOKRT_SOCKET/)
  assert.equal(existsSync(join(tmp, 'hookrt')), false)
})

test('connections are bounded: an over-long request and an idle connection are dropped, a flood of descriptors backs off', async (t) => {
  const { p, env, socket } = setup(t)
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "echo 'served' >&2; exit 2" }] })
  // Few descriptors, so the idle connections below exhaust them.
  const limited = spawn('sh', ['-c', `ulimit -n 48; exec "$0" serve`, native], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  limited.stderr.on('data', (d) => (log += d))
  t.after(() => limited.kill('SIGKILL'))
  await listening(socket)

  // Over 16 MiB without a newline: dropped, never acknowledged.
  const big = await new Promise((resolve) => {
    const c = net.connect(socket)
    let got = ''
    c.on('data', (d) => (got += d))
    c.on('close', () => resolve(got))
    c.on('error', () => resolve(got))
    c.on('connect', () => c.write('x'.repeat(17 << 20)))
  })
  assert.equal(big, '')

  // 200 idle connections: the server runs out of descriptors, backs off instead of spinning.
  const idle = []
  for (let i = 0; i < 200; i++) {
    const c = net.connect(socket)
    c.on('error', () => {})
    idle.push(c)
  }
  await sleep(2000)
  assert.ok(log.length < 20_000, `the log grew ${log.length} bytes in 2 s:\n${log.slice(0, 2000)}`)
  // An idle connection is closed by the server once its request is overdue (10 s).
  const closed = await Promise.race([new Promise((r) => idle[0].once('close', () => r(true))), sleep(30_000).then(() => false)])
  assert.ok(closed, 'the server never dropped an idle connection')
  for (const c of idle) c.destroy()
  await sleep(500)
  const r = hook(p, env, call(p))
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, 'served', r.err)
})

test('a socket served by another user, or in a folder that is not the user\'s own, is not asked', { skip: asRoot ? false : 'needs root to act as a second user' }, async (t) => {
  const { p, env } = setup(t)
  chmodSync(p.dir, 0o755)
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "echo 'in-process answer' >&2; exit 2" }] })
  // Another user's listener, its socket moved into a folder that is this user's own and private.
  const theirs = mkdtempSync(join(tmpdir(), 'hookrt-other-'))
  t.after(() => rmSync(theirs, { recursive: true, force: true }))
  chmodSync(theirs, 0o755)
  chownSync(theirs, NOBODY, NOBODY)
  const got = join(theirs, 'got.txt')
  writeFileSync(join(theirs, 'fake.js'), `require('net').createServer((c) => c.on('data', (d) => require('fs').appendFileSync(${JSON.stringify(got)}, d))).listen(${JSON.stringify(join(theirs, 's.sock'))})`)
  const fake = spawn(process.execPath, [join(theirs, 'fake.js')], { uid: NOBODY, gid: NOBODY, stdio: 'ignore' })
  t.after(() => fake.kill('SIGKILL'))
  await listening(join(theirs, 's.sock'))
  mkdirSync(p.path('mine'), { mode: 0o700 })
  renameSync(join(theirs, 's.sock'), p.path('mine/serve.sock'))
  const r = hook(p, { ...env, HOOKRT_SOCKET: p.path('mine/serve.sock'), SECRET_OF_SESSION: 'x' }, call(p))
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, 'in-process answer', r.err)
  await sleep(200)
  assert.equal(existsSync(got), false, "the session's environment and stdin went to another user's process")

  // A folder owned by another user: neither end uses it.
  const shared = mkdtempSync(join(tmpdir(), 'hookrt-shared-'))
  t.after(() => rmSync(shared, { recursive: true, force: true }))
  chownSync(shared, NOBODY, NOBODY)
  const s = server(t, p, { ...env, HOOKRT_SOCKET: join(shared, 'serve.sock') })
  assert.equal(await s.exited, 1)
  assert.match(s.log(), new RegExp(`refusing to listen: ${shared} belongs to user ${NOBODY}`))

  // The server drops a connection from another user even where one can reach the socket.
  const socket = p.path('run/hookrt/serve.sock')
  const q = server(t, p, env)
  await listening(socket)
  chmodSync(join(socket, '..'), 0o711)
  chmodSync(socket, 0o777)
  const probe = join(theirs, 'probe.js')
  writeFileSync(probe, `const c = require('net').connect(${JSON.stringify(socket)}); let b = ''; c.on('data', (d) => (b += d)); const done = () => { console.log(JSON.stringify(b)); process.exit(0) }; c.on('close', done); c.on('error', done); c.on('connect', () => c.write(${JSON.stringify(JSON.stringify({ argv: ['hook', 'claude'], env: {}, cwd: '/', stdin: '{}' }) + '\n')}))`)
  const out = spawnSync(process.execPath, [probe], { uid: NOBODY, gid: NOBODY, encoding: 'utf8', timeout: 10000 })
  assert.equal(out.stdout.trim(), '""', `another user got an answer: ${out.stdout}${out.stderr}`)
  q.child.kill('SIGTERM')
  assert.equal(statSync(p.path('run/hookrt')).mode & 0o777, 0o711)
})
