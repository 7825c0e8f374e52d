// Claude Code's handler types and per-hook fields (issue 12): `http` with Claude's rules,
// `prompt` with {ok, reason, impossible} and per-hook models, `mcp_tool` through the host's
// mcpCall, `if`, `async` / `asyncRewake`, `once`, `statusMessage` and onProgress. Real hook
// processes, real HTTP servers on 127.0.0.1, the shipped mock model.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { project, sleep, root, bin, answer } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

async function server(t, handler) {
  const requests = []
  const sockets = new Set()
  const srv = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      requests.push({ url: req.url, headers: req.headers, body })
      handler(req, res, body)
    })
  })
  srv.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise((r) => srv.listen(0, '127.0.0.1', r))
  t.after(() => {
    for (const s of sockets) s.destroy()
    srv.close()
  })
  return { url: `http://127.0.0.1:${srv.address().port}`, requests }
}

const send = (res, status, body, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

test('http hooks: 2xx JSON decides, 2xx plain decides nothing, 500, refused, timeout', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const s = await server(t, (req, res) => {
    if (req.url === '/deny') return send(res, 200, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'http says no' } })
    if (req.url === '/plain') return send(res, 200, 'just text, not a decision\n', 'text/plain')
    if (req.url === '/fail') return send(res, 500, 'boom', 'text/plain')
    if (req.url === '/slow') return setTimeout(() => send(res, 200, {}), 3000)
  })
  const refused = await new Promise((r) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = srv.address().port
      srv.close(() => r(`http://127.0.0.1:${port}`))
    })
  })
  const hook = (path, extra = {}) => ({ type: 'http', url: `${s.url}${path}`, ...extra })
  p.claude({
    PreToolUse: [
      { matcher: 'Bash', hooks: [hook('/deny')] },
      { matcher: 'Read', hooks: [hook('/plain')] },
      { matcher: 'Write', hooks: [hook('/fail'), hook('/fail', { onError: 'block' })] },
      { matcher: 'Grep', hooks: [{ type: 'http', url: `${refused}/x` }] },
      { matcher: 'Glob', hooks: [hook('/slow', { timeout: 0.3 })] },
    ],
    SessionStart: [{ hooks: [hook('/plain')] }],
  })
  const rt = createRuntime(p.options())
  let r = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'http says no'])
  assert.equal(r.runs[0].hook.kind, 'webhook')
  assert.equal(JSON.parse(s.requests[0].body).tool_name, 'Bash')
  assert.equal(s.requests[0].headers['content-type'], 'application/json')
  r = await rt.dispatch('PreToolUse', { tool_name: 'Read' })
  assert.equal(r.outcome.decision, 'none')
  assert.equal(r.runs[0].error, undefined)
  r = await rt.dispatch('SessionStart', { source: 'startup' })
  assert.deepEqual(r.outcome.contexts, [], 'a plain 2xx body is not context')
  r = await rt.dispatch('PreToolUse', { tool_name: 'Write' })
  assert.equal(r.runs[0].error, `webhook ${s.url}/fail answered HTTP 500: boom`)
  assert.equal(r.runs[0].outcome.decision, undefined)
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', `hook failed: webhook ${s.url}/fail answered HTTP 500: boom`])
  r = await rt.dispatch('PreToolUse', { tool_name: 'Grep' })
  assert.equal(r.runs[0].error, `webhook ${refused}/x failed: connection refused`)
  assert.equal(r.outcome.decision, 'none')
  r = await rt.dispatch('PreToolUse', { tool_name: 'Glob' })
  assert.equal(r.runs[0].error, `webhook ${s.url}/slow timed out after 0.3s`)
  assert.equal(r.outcome.decision, 'none')
})

test('http headers expand only allowedEnvVars; URLs outside allowedHttpHookUrls are not contacted', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const s = await server(t, (req, res) => send(res, 200, {}))
  process.env.HOOKRT_TEST_TOKEN = 'tok-123'
  process.env.HOOKRT_TEST_SECRET = 'do-not-send'
  t.after(() => {
    delete process.env.HOOKRT_TEST_TOKEN
    delete process.env.HOOKRT_TEST_SECRET
  })
  p.claude({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'http',
            url: `${s.url}/ok`,
            headers: { Authorization: 'Bearer $HOOKRT_TEST_TOKEN', 'X-Secret': '[${HOOKRT_TEST_SECRET}]' },
            allowedEnvVars: ['HOOKRT_TEST_TOKEN'],
          },
        ],
      },
      { matcher: 'Read', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/elsewhere' }] },
      { matcher: 'Edit', hooks: [{ type: 'http', url: 'ftp://example.com/x' }, { type: 'http', url: `${s.url}/h`, headers: { 'X-N': 5 } }] },
    ],
  })
  const rt = createRuntime(p.options({ allowedHttpHookUrls: [`${s.url}/*`] }))
  await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.equal(s.requests.length, 1)
  assert.equal(s.requests[0].headers.authorization, 'Bearer tok-123')
  assert.equal(s.requests[0].headers['x-secret'], '[]')
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Read' })
  assert.equal(s.requests.length, 1, 'the URL outside the allowlist was not contacted')
  assert.match(r.runs[0].error, /not in allowedHttpHookUrls/)
  const msgs = rt.diagnostics.map((d) => d.message)
  assert.ok(msgs.some((m) => m.includes('http://127.0.0.1:9/elsewhere matches no allowedHttpHookUrls pattern')), msgs.join('\n'))
  assert.ok(msgs.some((m) => m.endsWith('url must be http:// or https://: "ftp://example.com/x"')), msgs.join('\n'))
  assert.ok(msgs.some((m) => m.endsWith('headers must be a string map')), msgs.join('\n'))
  // httpHookAllowedEnvVars bounds every hook's allowedEnvVars.
  const bounded = createRuntime(p.options({ httpHookAllowedEnvVars: ['OTHER'] }))
  await bounded.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.equal(s.requests.at(-1).headers.authorization, 'Bearer', 'the variable became empty (HTTP trims the space)')
})

async function mockLlm(t, extra = []) {
  const child = spawn(process.execPath, [join(root, 'examples', 'mock-llm.mjs'), '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => child.kill())
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())))
    child.once('exit', () => reject(new Error('mock LLM exited')))
  })
  return `http://127.0.0.1:${port}/v1`
}

test('prompt hooks: ok:false denies with the reason, per-hook model, impossible lets Stop end', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const base = await mockLlm(t, ['--impossible-on', 'NEVER'])
  p.claude({
    PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Judge this call', model: 'echo-haiku' }] }],
    Stop: [{ hooks: [{ type: 'prompt', prompt: 'Should it stop? $ARGUMENTS' }] }],
  })
  const rt = createRuntime(p.options({ llm: { baseUrl: base, model: 'echo-default' } }))
  // No $ARGUMENTS: the input JSON is appended (it holds the trigger word), as in Claude.
  let r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'DENY' } })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'mock denied (echo-haiku)'])
  r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })
  assert.equal(r.outcome.decision, 'none')
  r = await rt.dispatch('Stop', { session_id: 'p1', note: 'DENY' })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'mock denied (echo-default)'])
  r = await rt.dispatch('Stop', { session_id: 'p2', note: 'NEVER' })
  assert.equal(r.outcome.decision, 'none', 'impossible: the turn may end')
})

test('mcp_tool hooks run through mcpCall with placeholders filled', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PostToolUse: [
      { matcher: 'Write', hooks: [{ type: 'mcp_tool', server: 'scanner', tool: 'scan', input: { file: '${tool_input.file_path}', who: '${payload.session_id}', n: 3 } }] },
      { matcher: 'Edit', hooks: [{ type: 'mcp_tool', server: 'scanner', tool: 'explode' }] },
      { matcher: 'Read', hooks: [{ type: 'mcp_tool', server: 'scanner', tool: 'hang', timeout: 0.3 }] },
    ],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'check' }] }],
  })
  const calls = []
  let aborted = 0
  const rt = createRuntime(
    p.options({
      mcpCall: async (server, tool, input, signal) => {
        calls.push({ server, tool, input })
        if (tool === 'explode') throw new Error('server not connected')
        if (tool === 'hang') {
          signal.addEventListener('abort', () => aborted++)
          return new Promise(() => {})
        }
        if (tool === 'check') return { content: [{ type: 'text', text: JSON.stringify({ decision: 'block', reason: 'mcp guard says no' }) }] }
        return { content: 'scan failed', isError: true }
      },
    }),
  )
  assert.deepEqual(rt.diagnostics, [])
  let r = await rt.dispatch('PostToolUse', { session_id: 's9', tool_name: 'Write', tool_input: { file_path: '/p/a.ts' } })
  assert.deepEqual(calls[0], { server: 'scanner', tool: 'scan', input: { file: '/p/a.ts', who: 's9', n: 3 } })
  assert.deepEqual([r.runs[0].outcome.exitCode, r.runs[0].outcome.stderr], [1, 'scan failed'])
  r = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'mcp guard says no'])
  r = await rt.dispatch('PostToolUse', { tool_name: 'Edit' })
  assert.match(r.runs[0].error, /^mcp_tool scanner\/explode failed: .*server not connected/)
  r = await rt.dispatch('PostToolUse', { tool_name: 'Read' })
  assert.equal(r.runs[0].error, 'mcp_tool scanner/hang timed out after 0.3s')
  await sleep(50)
  assert.equal(aborted, 1, 'the host call was told to give up')
  // Without a callback: a load diagnostic and an error when it matches (listen, CLI, no mcpCall).
  const bare = createRuntime(p.options())
  assert.ok(bare.diagnostics.some((d) => d.message.includes("mcp_tool hooks need the host's mcpCall callback")))
  r = await bare.dispatch('PreToolUse', { tool_name: 'Bash' })
  assert.match(r.runs[0].error, /mcpCall callback/)
  const cli = spawnSync(process.execPath, [bin, 'run', '--event', 'PreToolUse', '--payload', '-', '--cwd', p.path('proj'), '--home', p.path('home')], {
    input: '{"tool_name":"Bash"}',
    encoding: 'utf8',
  })
  assert.match(JSON.parse(cli.stdout).runs[0].error, /mcpCall callback/)
})

test('if: only matching tool calls run the hook; never on other events; a bad rule runs always', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { if: 'Bash(git push:*)', command: 'echo push guard' },
          { if: 'Bash(rm *)', command: 'echo rm guard' },
          { if: 'Bash(oops', command: 'echo bad rule runs' },
        ],
      },
      { matcher: 'Edit|Write', hooks: [{ if: 'Edit(src/**/*.ts)', command: 'echo ts edit' }] },
    ],
    UserPromptSubmit: [{ hooks: [{ if: 'Bash(git push:*)', command: 'echo never' }] }],
  })
  const rt = createRuntime(p.options())
  assert.ok(rt.diagnostics.some((d) => d.severity === 'error' && d.message.includes('invalid if rule "Bash(oops"')))
  const outs = (r) => r.runs.map((x) => x.outcome.stdout)
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'FOO=1 git push origin' } })), ['push guard', 'bad rule runs'])
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo "git push" && ls' } })), ['bad rule runs'])
  // Claude: a pattern naming more than the command (git push) runs on any $(), backticks or $VAR.
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo $(rm -rf /)' } })), ['push guard', 'rm guard', 'bad rule runs'])
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls -la' } })), ['bad rule runs'])
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Write', tool_input: { file_path: p.path('proj/src/a/b.ts') } })), ['ts edit'])
  assert.deepEqual(outs(await rt.dispatch('PreToolUse', { tool_name: 'Write', tool_input: { file_path: p.path('proj/docs/b.ts') } })), [])
  assert.deepEqual(outs(await rt.dispatch('UserPromptSubmit', { prompt: 'git push' })), [])
})

test('if rules in listen: ignored with a warning by default (drop-in), evaluated with --if-rules evaluate or HOOKRT_IF_RULES', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ if: 'Bash(rm *)', command: 'cat >/dev/null; echo rm guard' }] }] })
  const lines = '{"op":"reload"}\n{"op":"dispatch","event":"PreToolUse","payload":{"tool_name":"Bash","tool_input":{"command":"ls"}}}\n'
  const listen = (args, env = {}) => {
    const r = spawnSync(process.execPath, [bin, 'listen', '--cwd', p.path('proj'), '--home', p.path('home'), ...args], {
      input: lines,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    })
    const [reload, dispatch] = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    return { warned: reload.diagnostics.some((d) => d.message.includes('"if" filters are not evaluated')), ran: dispatch.runs.map((x) => x.outcome.stdout) }
  }
  assert.deepEqual(listen([]), { warned: true, ran: ['rm guard'] })
  assert.deepEqual(listen(['--if-rules', 'evaluate']), { warned: false, ran: [] })
  assert.deepEqual(listen([], { HOOKRT_IF_RULES: 'evaluate' }), { warned: false, ran: [] })
  const ignoring = createRuntime({ ...p.options(), ifRules: 'ignore' })
  assert.deepEqual((await ignoring.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })).runs.map((x) => x.outcome.stdout), ['rm guard'])
  assert.deepEqual((await createRuntime(p.options()).dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })).runs, [])
})

test('async hooks: the dispatch does not wait; results arrive with the session\'s next dispatch', { timeout: 60_000 }, async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  // The background hooks wait for a gate file the test creates, so a dispatch that waited
  // for them would never return: no timing is assumed.
  const gate = (name) => `until [ -e ${p.path(name)} ]; do sleep 0.02; done`
  const waitSeen = async (n) => {
    for (let i = 0; i < 1000 && seen.length < n; i++) await sleep(20)
    assert.equal(seen.length, n)
  }
  p.claude({
    PostToolUse: [{ hooks: [{ type: 'command', async: true, command: `${gate('lint.go')}; ${answer({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: 2 warnings' }, systemMessage: 'lint done' })}` }] }],
    Stop: [{ hooks: [{ command: 'echo own context >&2; exit 0' }] }],
    UserPromptSubmit: [{ hooks: [{ asyncRewake: true, command: `${gate('tests.go')}; echo tests failed >&2; exit 2` }] }],
  })
  const rt = createRuntime(p.options())
  const seen = []
  const off = rt.on('async', (f) => seen.push(f))
  t.after(() => rt.close())
  let r = await rt.dispatch('PostToolUse', { session_id: 'a', tool_name: 'Write' })
  assert.equal(r.runs.length, 1)
  assert.equal(r.runs[0].async, true)
  assert.equal(r.runs[0].outcome, undefined)
  assert.deepEqual(r.outcome.contexts, [])
  assert.equal(seen.length, 0)
  p.write('lint.go', '')
  await waitSeen(1)
  assert.equal(seen[0].sessionId, 'a')
  // Another session's dispatch does not get it.
  r = await rt.dispatch('Stop', { session_id: 'b' })
  assert.deepEqual(r.outcome.contexts, [])
  r = await rt.dispatch('Stop', { session_id: 'a' })
  assert.deepEqual(r.outcome.contexts, ['lint: 2 warnings'])
  assert.deepEqual(r.outcome.messages, ['lint done'])
  assert.deepEqual(r.runs.map((x) => [x.hook.event, !!x.async]), [['Stop', false], ['PostToolUse', true]])
  r = await rt.dispatch('Stop', { session_id: 'a' })
  assert.deepEqual(r.outcome.contexts, [], 'delivered once')
  // asyncRewake: exit 2 puts rewake on the next outcome.
  await rt.dispatch('UserPromptSubmit', { session_id: 'w', prompt: 'hi' })
  p.write('tests.go', '')
  await waitSeen(2)
  r = await rt.dispatch('Stop', { session_id: 'w' })
  assert.deepEqual(r.outcome.rewake, { reason: 'tests failed' })
  assert.equal(r.outcome.decision, 'none', 'a background exit 2 blocks nothing')
  off()
})

test('close() kills a running async hook at once', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ async: true, command: `echo $$ > ${p.path('async.pid')}; exec sleep 30` }] }] })
  const rt = createRuntime(p.options({ reapOrphans: true }))
  await rt.dispatch('Stop', { session_id: 'c' })
  let pid
  for (let i = 0; i < 100 && !pid; i++) {
    await sleep(20)
    try {
      pid = Number(require('node:fs').readFileSync(p.path('async.pid'), 'utf8'))
    } catch {}
  }
  assert.ok(pid > 0)
  rt.close()
  const { assertGone } = await import('./helpers.mjs')
  await assertGone(pid, 2000)
})

test('once runs a hook once per session; statusMessage and onProgress in order', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    // The first hook takes a while too: both start before either ends, even on a loaded machine.
    SessionStart: [{ hooks: [{ once: true, command: 'sleep 0.2; echo welcome', statusMessage: 'Greeting' }, { command: 'sleep 0.4; echo always' }] }],
  })
  const rt = createRuntime(p.options())
  const events = []
  const onProgress = (e) => events.push(e)
  let r = await rt.dispatch('SessionStart', { session_id: 's1' }, undefined, { onProgress })
  assert.deepEqual(r.outcome.contexts, ['welcome', 'always'])
  assert.equal(r.runs[0].hook.statusMessage, 'Greeting')
  assert.equal(r.runs[1].hook.statusMessage, undefined)
  assert.deepEqual(
    events.map((e) => [e.phase, e.hookId, e.statusMessage ?? null]),
    [
      ['start', 'claude:settings.json:SessionStart:0:0', 'Greeting'],
      ['start', 'claude:settings.json:SessionStart:0:1', null],
      ['end', 'claude:settings.json:SessionStart:0:0', 'Greeting'],
      ['end', 'claude:settings.json:SessionStart:0:1', null],
    ],
  )
  assert.ok(events[3].elapsedMs >= 350, `elapsed ${events[3].elapsedMs}`)
  r = await rt.dispatch('SessionStart', { session_id: 's1' })
  assert.deepEqual(r.outcome.contexts, ['always'])
  r = await rt.dispatch('SessionStart', { session_id: 's2' })
  assert.deepEqual(r.outcome.contexts, ['welcome', 'always'])
})
