// `hookrt serve`: `hookrt hook` answered by a warm runtime over a private Unix socket — the same
// answer as in-process, reloaded when a hook file changes, worker hooks kept across calls, and the
// in-process fallback when the server is gone or killed in the middle of a call.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, statSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { project, root, waitForFile, sleep } from './helpers.mjs'

const native = join(root, 'bin', 'hookrt-native')

/** Claude Code's record that its user trusted the project (a project's hook files run inside it only then). */
const trustProject = (p) => p.write('home/.claude.json', { projects: { [p.path('proj')]: { hasTrustDialogAccepted: true } } })

function setup(t) {
  const p = project()
  trustProject(p)
  const env = { ...process.env, HOME: p.path('home'), XDG_RUNTIME_DIR: p.path('run'), XDG_STATE_HOME: '', HOOKRT_SOCKET: '' }
  const server = spawn(native, ['serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  server.stderr.on('data', (d) => (log += d))
  t.after(() => {
    server.kill('SIGKILL')
    p.cleanup()
  })
  return { p, env, server, log: () => log }
}

const call = (cmd) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: cmd } })

function hook(p, env, input) {
  const r = spawnSync(native, ['hook', 'claude'], { cwd: p.path('proj'), env, input, encoding: 'utf8' })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

async function listening(p) {
  for (let i = 0; i < 200 && !existsSync(p.path('run/hookrt/serve.sock')); i++) await sleep(25)
  assert.ok(existsSync(p.path('run/hookrt/serve.sock')), 'hookrt serve is listening')
}

test('serve answers hook calls from a warm runtime on a socket only this user can use, and reloads on edits', async (t) => {
  const { p, env, server } = setup(t)
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "echo $PPID > parent.pid; grep -q 'rm -rf' && { echo 'v1: no' >&2; exit 2; } || exit 0" }] })
  await listening(p)
  assert.equal(statSync(p.path('run/hookrt')).mode & 0o777, 0o700)
  assert.equal(statSync(p.path('run/hookrt/serve.sock')).mode & 0o777, 0o600)

  let r = hook(p, env, call('rm -rf x'))
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, 'v1: no')
  assert.equal(Number(readFileSync(p.path('proj/parent.pid'), 'utf8')), server.pid, 'the hook ran in the server')
  assert.equal(hook(p, env, call('ls')).out, '')

  // Editing the file reloads the server's runtime before the next call.
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "grep -q 'rm -rf' && { echo 'v2: still no' >&2; exit 2; } || exit 0" }] })
  r = hook(p, env, call('rm -rf x'))
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, 'v2: still no')

  // A history line per call, naming the harness, written by the server.
  const hist = readFileSync(p.path('home/.local/state/hookrt/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  assert.ok(hist.length >= 2 && hist.every((h) => h.host === 'claude'))

  // SIGTERM: the socket goes away.
  server.kill('SIGTERM')
  await new Promise((r) => server.once('exit', r))
  assert.equal(existsSync(p.path('run/hookrt/serve.sock')), false)
  // ... and hook answers in-process, the same.
  r = hook(p, env, call('rm -rf x'))
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, 'v2: still no')
})

test('a worker hook stays alive in the server across calls', async (t) => {
  const { p, env } = setup(t)
  p.write('proj/w.js', `require(${JSON.stringify(join(root, 'worker'))}).serveWorker(() => ({ hookSpecificOutput: { additionalContext: 'worker ' + process.pid } }))`)
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:before': [{ hooks: [{ type: 'worker', command: 'node w.js' }] }] } })
  await listening(p)
  const contexts = [0, 1].map(() => JSON.parse(hook(p, env, call('ls')).out).hookSpecificOutput.additionalContext)
  assert.match(contexts[0], /^worker \d+$/)
  assert.equal(contexts[1], contexts[0], 'the same worker process answered both calls')
})

test('a server killed in the middle of a call: hook answers in-process', async (t) => {
  const { p, env, server } = setup(t)
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "touch started.$PPID; sleep 1; echo 'slow no' >&2; exit 2" }] })
  await listening(p)
  const child = spawn(native, ['hook', 'claude'], { cwd: p.path('proj'), env, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stdin.end(call('ls'))
  for (let i = 0; i < 200 && !existsSync(p.path(`proj/started.${server.pid}`)); i++) await sleep(25)
  assert.ok(existsSync(p.path(`proj/started.${server.pid}`)), `the hook runs in the server: ${readdirSync(p.path('proj'))}`)
  server.kill('SIGKILL')
  const code = await new Promise((r) => child.once('exit', r))
  assert.equal(code, 0)
  assert.equal(JSON.parse(out).hookSpecificOutput.permissionDecisionReason, 'slow no')
  await sleep(10)
})

test('install claude --http: http entries to serve\'s loopback endpoint, which wants the token; uninstall removes them', async (t) => {
  const p = project()
  const env = { ...process.env, HOME: p.path('home'), XDG_RUNTIME_DIR: p.path('run'), XDG_STATE_HOME: '', HOOKRT_SOCKET: '' }
  t.after(() => p.cleanup())
  trustProject(p)
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: "grep -q 'rm -rf' && { echo 'no' >&2; exit 2; } || exit 0" }] })
  const inst = spawnSync(native, ['install', 'claude', '--http', '--cwd', p.path('proj'), '--home', p.path('home')], { env, encoding: 'utf8' })
  assert.equal(inst.status, 0, inst.stderr)
  const hooks = JSON.parse(readFileSync(p.path('proj/.claude/settings.json'), 'utf8')).hooks
  const h = hooks.PreToolUse[0].hooks[0]
  assert.equal(h.type, 'http')
  assert.match(h.url, /^http:\/\/127\.0\.0\.1:\d+\/hook\/claude$/)
  assert.deepEqual([h.headers.Authorization, h.allowedEnvVars], ['Bearer $HOOKRT_TOKEN', ['HOOKRT_TOKEN']])
  const config = readFileSync(p.path('home/.local/state/hookrt/serve-http.json'), 'utf8')
  assert.equal(statSync(p.path('home/.local/state/hookrt/serve-http.json')).mode & 0o777, 0o600)
  const token = spawnSync(native, ['serve', '--print-token', '--home', p.path('home')], { env, encoding: 'utf8' }).stdout.trim()
  assert.equal(token, JSON.parse(config).token)
  assert.ok(!readFileSync(p.path('proj/.claude/settings.json'), 'utf8').includes(token), 'the token is not in the project')

  const server = spawn(native, ['serve'], { env, stdio: 'ignore' })
  t.after(() => server.kill('SIGKILL'))
  await listening(p)
  const post = (auth) => fetch(h.url, { method: 'POST', headers: auth ? { authorization: auth } : {}, body: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, cwd: p.path('proj') }) })
  assert.equal((await post()).status, 401)
  assert.equal((await post('Bearer ' + token.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).status, 401)
  const ok = await post('Bearer ' + token)
  assert.equal(ok.status, 200)
  assert.equal((await ok.json()).hookSpecificOutput.permissionDecision, 'deny')

  assert.equal(spawnSync(native, ['uninstall', 'claude', '--cwd', p.path('proj'), '--home', p.path('home')], { env }).status, 0)
  assert.equal(existsSync(p.path('proj/.claude/settings.json')), false)
})
