// Webhook, oracle, proxy and Hermes outbound handlers against real servers on 127.0.0.1 that
// the tests start themselves.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { createRequire } from 'node:module'
import { project, sleep, root } from './helpers.mjs'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

/** Starts an HTTP server on 127.0.0.1; `handler(req, res, body)`. */
async function server(t, handler) {
  const sockets = new Set()
  const requests = []
  const srv = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ url: req.url, method: req.method, headers: req.headers, body })
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
  return { url: `http://127.0.0.1:${srv.address().port}`, requests, sockets }
}

const json = (res, status, obj, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type })
  res.end(typeof obj === 'string' ? obj : JSON.stringify(obj))
}

async function freePort() {
  const s = net.createServer()
  await new Promise((r) => s.listen(0, '127.0.0.1', r))
  const port = s.address().port
  await new Promise((r) => s.close(r))
  return port
}

function nativeRt(p, hooks, extra = {}) {
  p.write('proj/.dsh-hooks.json', { version: 1, events: hooks })
  return createRuntime(p.options(extra))
}

test('webhook: answers, headers, content type, body shape', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const s = await server(t, (req, res, body) => {
    if (req.url === '/decide') return json(res, 200, { decision: 'block', reason: 'webhook says no' })
    if (req.url === '/plain') return json(res, 200, 'hello from webhook\n', 'text/plain')
    if (req.url === '/empty') return res.writeHead(204).end()
    if (req.url === '/echo')
      return json(res, 200, { systemMessage: `ct=${req.headers['content-type']} tok=${req.headers['x-token']} nl=${body.endsWith('\n')} ev=${JSON.parse(body).event}` })
    json(res, 404, 'nope', 'text/plain')
  })
  process.env.HOOKRT_TEST_TOKEN = 'secret-1'
  const rt = nativeRt(p, {
    'tool:before': [
      { matcher: 'A', hooks: [{ type: 'webhook', url: `${s.url}/decide` }] },
      { matcher: 'B', hooks: [{ type: 'http', url: `${s.url}/echo`, headers: { 'X-Token': 'Bearer $HOOKRT_TEST_TOKEN', 'Content-Type': 'text/x-hook' } }] },
      { matcher: 'C', hooks: [{ type: 'http', url: `${s.url}/empty` }] },
    ],
    'session:start': [{ hooks: [{ type: 'http', url: `${s.url}/plain` }] }],
  })
  let r = await rt.dispatch('PreToolUse', { tool_name: 'A' })
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'webhook says no')
  assert.equal(r.runs[0].outcome.exitCode, 0)
  r = await rt.dispatch('PreToolUse', { tool_name: 'B' })
  assert.deepEqual(r.outcome.messages, ['ct=text/x-hook tok=Bearer secret-1 nl=false ev=tool:before'])
  r = await rt.dispatch('PreToolUse', { tool_name: 'C' })
  assert.equal(r.runs[0].outcome.stdout, '')
  r = await rt.dispatch('SessionStart', {})
  assert.deepEqual(r.outcome.contexts, ['hello from webhook'])
  assert.equal(s.requests.find((q) => q.url === '/decide').method, 'POST')
  assert.equal(s.requests.find((q) => q.url === '/decide').headers['content-type'], 'application/json')
})

test('webhook failures are infrastructure errors with plain causes', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const long = 'x'.repeat(300)
  const s = await server(t, (req, res) => {
    if (req.url === '/fail') return json(res, 500, long, 'text/plain')
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' })
      return res.end()
    }
    if (req.url === '/reset') return req.socket.resetAndDestroy()
    if (req.url === '/hang') return // accept, never answer
    if (req.url === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const timer = setInterval(() => res.write('.'), 100)
      res.on('close', () => clearInterval(timer))
    }
  })
  const closed = `http://127.0.0.1:${await freePort()}/hook`
  const rt = nativeRt(p, {
    'tool:before': [
      { matcher: 'fail', hooks: [{ type: 'webhook', url: `${s.url}/fail`, onError: 'block' }] },
      { matcher: 'loop', hooks: [{ type: 'webhook', url: `${s.url}/loop` }] },
      { matcher: 'reset', hooks: [{ type: 'webhook', url: `${s.url}/reset` }] },
      { matcher: 'refused', hooks: [{ type: 'webhook', url: closed }] },
      { matcher: 'hang', hooks: [{ type: 'webhook', url: `${s.url}/hang`, timeout: 0.5 }] },
      { matcher: 'trickle', hooks: [{ type: 'webhook', url: `${s.url}/trickle`, timeout: 0.7 }] },
    ],
  })
  const err = async (tool) => (await rt.dispatch('PreToolUse', { tool_name: tool })).runs[0]
  let run = await err('fail')
  assert.equal(run.error, `webhook ${s.url}/fail answered HTTP 500: ${'x'.repeat(200)}`)
  assert.equal(run.outcome.decision, 'deny')
  assert.equal(run.outcome.exitCode, undefined)
  assert.equal((await err('loop')).error, `webhook ${s.url}/loop failed: too many redirects`)
  assert.equal((await err('reset')).error, `webhook ${s.url}/reset failed: connection reset`)
  assert.equal((await err('refused')).error, `webhook ${closed} failed: connection refused`)
  const started = Date.now()
  run = await err('hang')
  assert.equal(run.error, `webhook ${s.url}/hang timed out after 0.5s`)
  assert.ok(Date.now() - started < 20_000, 'the hanging webhook was cut')
  assert.equal(s.requests.filter((q) => q.url === '/loop').length, 11) // the first + 10 redirects
  // A body that trickles forever is cut at the deadline.
  assert.equal((await err('trickle')).error, `webhook ${s.url}/trickle timed out after 0.7s`)
})

test('webhook: an abort cancels the request at once; a 100 MB body is capped', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  let sent = 0
  const s = await server(t, (req, res) => {
    if (req.url === '/hang') return
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const chunk = Buffer.alloc(1024 * 1024, 'a')
      const pump = () => {
        while (sent < 100) {
          sent++
          if (!res.write(chunk)) return res.once('drain', pump)
        }
        res.end()
      }
      res.on('close', () => {})
      pump()
    }
  })
  const rt = nativeRt(p, {
    'tool:before': [
      { matcher: 'hang', hooks: [{ type: 'webhook', url: `${s.url}/hang` }] },
      { matcher: 'huge', hooks: [{ type: 'webhook', url: `${s.url}/huge` }] },
    ],
  })
  const ac = new AbortController()
  const pr = rt.dispatch('PreToolUse', { tool_name: 'hang' }, ac.signal)
  while (s.requests.length === 0) await sleep(10)
  ac.abort()
  await assert.rejects(pr, { name: 'AbortError' })
  for (let i = 0; i < 500 && s.sockets.size > 0; i++) await sleep(10)
  assert.equal(s.sockets.size, 0, 'the aborted request still holds a connection')

  const r = await rt.dispatch('PreToolUse', { tool_name: 'huge' })
  assert.equal(r.runs[0].outcome.truncated, true)
  assert.equal(r.runs[0].outcome.stdout.length, 1024 * 1024)
  assert.ok(sent < 100, `the whole body was pulled (${sent} MB)`)
})

/** Starts the shipped mock model as a real process; resolves with its base URL. */
async function mockLlm(t, extra = []) {
  const child = spawn(process.execPath, [join(root, 'examples', 'mock-llm.mjs'), '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => child.kill())
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())))
    child.once('exit', () => reject(new Error('mock LLM exited')))
  })
  return `http://127.0.0.1:${port}/v1`
}

test('oracle against the shipped mock model', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const base = await mockLlm(t)
  p.claude({
    PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Judge: $ARGUMENTS' }] }],
    UserPromptSubmit: [{ hooks: [{ type: 'prompt', prompt: 'Is this fine? $ARGUMENTS' }] }],
  })
  const rt = createRuntime(p.options({ llm: { baseUrl: base + '/', model: 'mock' } }))
  let r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'DENY everything' } })
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'mock denied')
  assert.equal(r.runs[0].outcome.stdout, '{"ok":false,"reason":"mock denied"}')
  r = await rt.dispatch('UserPromptSubmit', { prompt: 'hello' })
  assert.equal(r.outcome.decision, 'none')
  assert.equal(r.runs[0].outcome.stdout, '{"ok":true}')
  const other = await mockLlm(t, ['--deny-on', 'hello'])
  const rt2 = createRuntime(p.options({ llm: { baseUrl: other, model: 'mock' } }))
  assert.equal((await rt2.dispatch('UserPromptSubmit', { prompt: 'hello' })).outcome.decision, 'deny')
})

test('oracle: request shape and every failure mode', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const answer = (res, content) => json(res, 200, { choices: [{ message: { role: 'assistant', content } }] })
  const s = await server(t, (req, res, body) => {
    const b = JSON.parse(body)
    const prompt = b.messages[0].content
    if (prompt.includes('META')) return answer(res, '```Json\n' + JSON.stringify({ ok: true, systemMessage: `${b.model}|${b.temperature}|${b.messages[0].role}|${req.headers.authorization}|${req.url}` }) + '\n```')
    if (prompt.includes('HTTP')) return json(res, 503, 'maintenance', 'text/plain')
    if (prompt.includes('SHAPE')) return json(res, 200, { nope: true })
    if (prompt.includes('GARBAGE')) return answer(res, 'I think it is fine')
    if (prompt.includes('ARRAY')) return answer(res, '[1,2]')
    if (prompt.includes('SLOW')) return
    answer(res, '{"ok":true}')
  })
  p.claude({
    PreToolUse: ['META', 'HTTP', 'SHAPE', 'GARBAGE', 'ARRAY', 'SLOW'].map((w) => ({ matcher: w, hooks: [{ type: 'prompt', prompt: `${w} $ARGUMENTS`, timeout: 0.5 }] })),
  })
  const rt = createRuntime(p.options({ llm: { baseUrl: s.url + '/v1', model: 'judge-1', apiKey: 'k-123' } }))
  const run = async (w) => (await rt.dispatch('PreToolUse', { tool_name: w })).runs[0]
  assert.deepEqual((await run('META')).outcome.messages, ['judge-1|0|user|Bearer k-123|/v1/chat/completions'])
  assert.equal((await run('HTTP')).error, 'oracle endpoint answered HTTP 503: maintenance')
  assert.equal((await run('SHAPE')).error, 'oracle endpoint answered an unexpected response shape')
  assert.equal((await run('GARBAGE')).error, 'oracle answer is not valid JSON: I think it is fine')
  assert.equal((await run('ARRAY')).error, 'oracle answer is not a JSON object: [1,2]')
  assert.equal((await run('SLOW')).error, 'oracle request timed out after 0.5s')
  // An abort mid-request rejects at once.
  const ac = new AbortController()
  const pending = rt.dispatch('PreToolUse', { tool_name: 'SLOW' }, ac.signal)
  setTimeout(() => ac.abort(), 100)
  // (A timeout would resolve with a run error; only the abort rejects.)
  await assert.rejects(pending, { name: 'AbortError' })
  const payload = JSON.parse(s.requests[0].body).messages[0].content.slice('META '.length)
  assert.equal(JSON.parse(payload).hook_event_name, 'PreToolUse')
  const none = createRuntime(p.options())
  assert.equal((await none.dispatch('PreToolUse', { tool_name: 'META' })).runs[0].error, 'oracle handler: no LLM endpoint configured (set llm.baseUrl and llm.model)')
})

test('proxy: runtime runner, prompt on stdin and in HOOK_PROMPT', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const runner = p.write(
    'runner.cjs',
    `let raw = ''
process.stdin.on('data', (d) => (raw += d))
process.stdin.on('end', () => {
  require('node:fs').writeFileSync(${JSON.stringify(p.path('stdin.json'))}, raw)
  console.log(JSON.stringify({ systemMessage: 'env=' + process.env.HOOK_PROMPT }))
})`,
  )
  p.claude({ PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'Review $ARGUMENTS' }] }] })
  const rt = createRuntime(p.options({ proxy: { command: `node ${runner}` } }))
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash' })
  const msg = r.outcome.messages[0]
  assert.ok(msg.startsWith('env=Review {'), msg)
  const stdin = JSON.parse(require('node:fs').readFileSync(p.path('stdin.json'), 'utf8'))
  assert.equal(stdin.tool_name, 'Bash')
  assert.ok(stdin.prompt.startsWith('Review {"session_id":""'))
  const none = createRuntime(p.options())
  assert.equal((await none.dispatch('PreToolUse', { tool_name: 'Bash' })).runs[0].error, 'proxy handler: no subagent runner configured (set proxy.command or a per-hook command)')
})

test('Hermes outbound webhooks: signed, off the decision path, retried once', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  let calls = 0
  // /slow answers only once the test lets it: a dispatch that waited for it would never return.
  let release
  const released = new Promise((resolve) => (release = resolve))
  const s = await server(t, (req, res) => {
    calls++
    if (req.url === '/flaky' && calls === 1) return json(res, 500, 'try again', 'text/plain')
    if (req.url === '/slow') return void released.then(() => json(res, 200, {}))
    json(res, 200, {})
  })
  process.env.HOOKRT_TEST_SECRET = 's3cret'
  p.write(
    'home/.hermes/config.yaml',
    `hooks:
  pre_tool_call:
    - command: "printf '{\\"decision\\":\\"block\\",\\"reason\\":\\"hermes\\"}'"
  outbound:
    - url: "${s.url}/flaky"
      events: [pre_tool_call]
      secret_env: HOOKRT_TEST_SECRET
    - url: "${s.url}/slow"
      events: [on_session_end]
`,
  )
  // The hook as Hermes would run it once approved (its allowlist, as Hermes writes it).
  p.write('home/.hermes/shell-hooks-allowlist.json', {
    approvals: [{ event: 'pre_tool_call', command: `printf '{"decision":"block","reason":"hermes"}'`, approved_at: '2026-12-01T00:00:00Z' }],
  })
  const rt = createRuntime(p.options())
  const r = await rt.dispatch('PreToolUse', { tool_name: 'terminal', session_id: 's9' })
  assert.equal(r.outcome.reason, 'hermes')
  for (let i = 0; i < 300 && s.requests.length < 2; i++) await sleep(10)
  const [first, second] = s.requests
  assert.equal(s.requests.length, 2)
  assert.equal(first.headers['x-hermes-delivery'], second.headers['x-hermes-delivery'])
  assert.equal(first.headers['x-hermes-event'], 'pre_tool_call')
  const expected = 'sha256=' + createHmac('sha256', 's3cret').update(second.body).digest('hex')
  assert.equal(second.headers['x-hermes-signature-256'], expected)
  const body = JSON.parse(second.body)
  assert.equal(body.event, 'pre_tool_call')
  assert.equal(body.payload.tool_name, 'terminal')
  assert.equal(body.payload.session_id, 's9')

  // A slow endpoint does not delay the dispatch (nothing else runs on session end).
  const end = await rt.dispatch('SessionEnd', {})
  assert.equal(end.runs.length, 0)
  for (let i = 0; i < 500 && s.requests.length < 3; i++) await sleep(20)
  assert.equal(s.requests.at(-1).url, '/slow')
  release()
  assert.equal(s.requests.at(-1).headers['x-hermes-signature-256'], undefined)
})
