// Load and resource exhaustion: many concurrent dispatches through the API and through listen,
// and `listen` starved of file descriptors. Every request gets an answer; nothing is left.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { project, bin } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

/** Processes still carrying a hookrt run marker of `pid`. */
function leftovers(pid) {
  const needle = Buffer.from(`HOOKRT_RUN=${pid}-`)
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        return readFileSync(`/proc/${n}/environ`).includes(needle)
      } catch {
        return false
      }
    })
}

function listenBatch(p, lines, shellPrefix = '') {
  return new Promise((resolve) => {
    const cmd = `${shellPrefix}exec '${process.execPath}' '${bin}' listen --cwd '${p.path('proj')}' --home '${p.path('home')}'`
    const child = spawn('sh', ['-c', cmd], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.resume()
    child.on('close', (code) => resolve({ code, pid: child.pid, answers: out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) }))
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  })
}

test('1000 concurrent dispatches through the API, each running a hook', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: 'read -r line; echo "${#line}"' }] }] })
  const rt = createRuntime(p.options({ reapOrphans: true }))
  const rs = await Promise.all(Array.from({ length: 1000 }, (_, i) => rt.dispatch('PreToolUse', { tool_name: `T${i}` })))
  assert.equal(rs.length, 1000)
  assert.ok(rs.every((r) => r.runs[0].outcome.exitCode === 0 && Number(r.runs[0].outcome.stdout) > 50))
  assert.deepEqual(leftovers(process.pid), [])
})

test('1000 concurrent id-tagged dispatches through listen', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: 'cat > /dev/null; echo done' }] }] })
  const lines = Array.from({ length: 1000 }, (_, i) => ({ op: 'dispatch', id: i, event: 'PreToolUse', payload: { tool_name: 'Bash', n: i } }))
  const r = await listenBatch(p, [...lines, { op: 'ping' }])
  assert.equal(r.code, 0)
  assert.equal(r.answers.length, 1001)
  const ids = new Set(r.answers.filter((a) => 'id' in a).map((a) => a.id))
  assert.equal(ids.size, 1000)
  assert.ok(r.answers.filter((a) => 'id' in a).every((a) => a.runs[0].outcome.stdout === 'done'))
})

test('listen with `ulimit -n 64` and 200 dispatches in flight answers every request', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ PreToolUse: [{ hooks: [{ command: 'sleep 0.05; echo ok' }] }] })
  const lines = Array.from({ length: 200 }, (_, i) => ({ op: 'dispatch', id: i, event: 'PreToolUse', payload: { tool_name: 'Bash' } }))
  const r = await listenBatch(p, [...lines, { op: 'ping' }], 'ulimit -n 64; ')
  assert.equal(r.code, 0)
  assert.equal(r.answers.length, 201)
  const runs = r.answers.filter((a) => 'id' in a).map((a) => a.runs[0])
  const failed = runs.filter((x) => x.error)
  // Spawns that find no free descriptor wait for some to free up instead of failing.
  assert.deepEqual(failed, [])
  assert.ok(runs.every((x) => x.outcome.stdout === 'ok'))
  assert.ok(r.answers.some((a) => a.pong === true))
  assert.deepEqual(leftovers(r.pid), [])
})
