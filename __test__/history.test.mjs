// Execution history through the JS API and the `hookrt history` command: secrets, filters,
// --json, --follow, broken lines, and the timeline page rendered by headless Chromium.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFileSync, appendFileSync, existsSync } from 'node:fs'
import { project, answer, bin } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

function hookrt(args, opts = {}) {
  const r = spawnSync(bin, args, { encoding: 'utf8', ...opts })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

async function filled(p) {
  p.claude({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'echo no shell >&2; exit 2' }, { command: 'sleep 0.2; echo slow' }] }],
    Stop: [{ hooks: [{ command: answer({ decision: 'approve' }) }] }],
  })
  const file = p.path('history.jsonl')
  const rt = createRuntime(p.options({ history: { path: file } }))
  await rt.dispatch('PreToolUse', { tool_name: 'Bash', session_id: 'a' })
  await rt.dispatch('Stop', { session_id: 'b' })
  await rt.dispatch('PreToolUse', { tool_name: 'Bash', session_id: 'b' })
  rt.close()
  return file
}

test('secrets removed by stripSecrets never reach the history, even with payloads on', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const secret = 'sk-test-' + Math.random().toString(36).slice(2)
  process.env.HOOKRT_TEST_API_KEY = secret
  t.after(() => delete process.env.HOOKRT_TEST_API_KEY)
  p.claude({ PreToolUse: [{ hooks: [{ command: 'cat; echo "key=$HOOKRT_TEST_API_KEY"' }] }] })
  const file = p.path('h.jsonl')
  const rt = createRuntime(p.options({ stripSecrets: true, history: { path: file, payloads: true } }))
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { note: `the key is ${secret}` } })
  assert.match(r.runs[0].outcome.stdout, new RegExp(secret), 'the hook echoed the payload')
  assert.match(r.runs[0].outcome.stdout, /key=$/, 'and did not get the variable')
  rt.close()
  const text = readFileSync(file, 'utf8')
  assert.equal(text.includes(secret), false, text)
  const line = JSON.parse(text.trim())
  assert.equal(line.payload.tool_input.note, 'the key is [secret]')
})

test('hookrt history: table, filters, --json, --limit, broken lines skipped and counted', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const file = await filled(p)
  let r = hookrt(['history', '--file', file])
  assert.equal(r.code, 0, r.err)
  const rows = r.out.trim().split('\n')
  assert.match(rows[0], /^time\s+event\s+hook\s+.*decision\s+exit\s+ms\s+file\s+reason$/)
  assert.equal(rows.length, 1 + 5)
  // The reason column: the deny's own reason.
  assert.match(rows[1], /PreToolUse\s+claude:settings.json:PreToolUse:0:0\s+deny\s+2\s+\d+\s+\S+settings.json\s+no shell$/)
  assert.equal(r.out.includes('\x1b['), false, 'no colours when stdout is not a terminal')

  r = hookrt(['history', '--file', file, '--json', '--session', 'b'])
  const sel = r.out.trim().split('\n').map((l) => JSON.parse(l))
  assert.deepEqual(sel.map((x) => x.event), ['Stop', 'PreToolUse'])
  assert.equal(sel[0].decision, 'allow')
  r = hookrt(['history', '--file', file, '--json', '--decision', 'deny', '--limit', '1'])
  assert.deepEqual(r.out.trim().split('\n').map((l) => JSON.parse(l).session_id), ['b'])
  // Only the runs that denied: the slow hook of the same dispatch answered none.
  assert.deepEqual(JSON.parse(r.out).runs.map((x) => [x.id, x.decision]), [['claude:settings.json:PreToolUse:0:0', 'deny']])
  r = hookrt(['history', '--file', file, '--decision', 'deny'])
  assert.equal(r.out.trim().split('\n').length, 1 + 2, 'a row per denying run, none for the runs that answered none')
  r = hookrt(['history', '--file', file, '--json', '--hook', 'PreToolUse:0:1', '--event', 'tool:before'])
  const hooks = r.out.trim().split('\n').map((l) => JSON.parse(l).runs.map((x) => x.id))
  assert.deepEqual(hooks, [['claude:settings.json:PreToolUse:0:1'], ['claude:settings.json:PreToolUse:0:1']])

  appendFileSync(file, '{"ts":"2026-12-01T00:00:00.000Z","event":"Sto\n\x00garbage\n')
  r = hookrt(['history', '--file', file, '--json'])
  assert.equal(r.code, 0)
  assert.equal(r.out.trim().split('\n').length, 3)
  assert.match(r.err, /skipped 2 broken line\(s\)/)
})

test('hookrt history --follow prints a dispatch written after it started', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'echo followed' }] }] })
  const file = p.path('follow.jsonl')
  const child = spawn(bin, ['history', '--follow', '--json', '--file', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => child.kill('SIGKILL'))
  await new Promise((resolve) => child.stderr.once('data', resolve)) // "following …"
  const line = new Promise((resolve) => {
    let buf = ''
    child.stdout.on('data', (d) => {
      buf += d
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]))
    })
  })
  const r = hookrt(['run', '--event', 'Stop', '--cwd', p.path('proj'), '--home', p.path('home'), '--managed-settings', p.path('m.json'), '--history', file])
  assert.equal(r.code, 0, r.err)
  const got = await line
  assert.equal(got.event, 'Stop')
  assert.equal(got.runs[0].stdout, 'followed')
})

function chromium() {
  for (const c of ['chromium', 'chromium-browser', 'google-chrome']) {
    if (spawnSync('sh', ['-c', `command -v ${c}`]).status === 0) return c
  }
  return null
}

test('hookrt history --html: headless Chromium renders one bar per run', async (t) => {
  const browser = chromium()
  if (!browser && process.env.CI !== 'true') return t.skip('no chromium here (CI installs it)')
  assert.ok(browser, 'chromium is installed by .ci/run')
  const p = project()
  t.after(() => p.cleanup())
  const file = await filled(p)
  const page = p.path('timeline.html')
  const r = hookrt(['history', '--file', file, '--html', page])
  assert.equal(r.code, 0, r.err)
  const html = readFileSync(page, 'utf8')
  assert.equal(/(src|href)=["']?https?:/.test(html), false, 'self-contained')
  const runs = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).runs.length).reduce((a, b) => a + b)
  const dom = spawnSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--dump-dom', `file://${page}`], { encoding: 'utf8', timeout: 60000 })
  assert.equal(dom.status, 0, dom.stderr)
  assert.equal((dom.stdout.match(/class="bar /g) ?? []).length, runs)
  assert.match(dom.stdout, new RegExp(`data-bars="${runs}"`))
  assert.equal((dom.stdout.match(/class="bar deny"/g) ?? []).length, 2)
  assert.ok(existsSync(page))
})
