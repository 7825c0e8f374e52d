// `node bench/soak.mjs [N]`: memory across many dispatches. Runs N (default 100 000)
// dispatches, 64 in flight at a time, half of them running a `true` hook and half matching
// nothing, and prints the process RSS before, in the middle and after, plus leftover processes.
import { mkdtempSync, mkdirSync, writeFileSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { createRuntime } = require(join(root, 'wrapper.js'))
const n = Number(process.argv[2] ?? 100_000)

const dir = mkdtempSync(join(tmpdir(), 'hookrt-soak-'))
mkdirSync(join(dir, 'home'))
mkdirSync(join(dir, 'proj', '.claude'), { recursive: true })
writeFileSync(join(dir, 'proj', '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'true' }] }] } }))
const rt = createRuntime({ cwd: join(dir, 'proj'), homeDir: join(dir, 'home'), reapOrphans: true })
const mb = () => (process.memoryUsage().rss / 1048576).toFixed(1)
const payload = (i) => ({ session_id: 's', tool_name: i % 2 ? 'Bash' : 'Read', tool_input: { command: 'true', i } })

// Warm up, then measure.
for (let i = 0; i < 2000; i += 64) await Promise.all(Array.from({ length: 64 }, (_, k) => rt.dispatch('PreToolUse', payload(i + k))))
globalThis.gc?.()
const before = mb()
const t0 = Date.now()
let mid = before
for (let i = 0; i < n; i += 64) {
  await Promise.all(Array.from({ length: Math.min(64, n - i) }, (_, k) => rt.dispatch('PreToolUse', payload(i + k))))
  if (i === Math.floor(n / 2 / 64) * 64) mid = mb()
}
globalThis.gc?.()
const after = mb()
const secs = (Date.now() - t0) / 1000
const needle = Buffer.from(`HOOKRT_RUN=${process.pid}-`)
const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
  try {
    return readFileSync(`/proc/${p}/environ`).includes(needle)
  } catch {
    return false
  }
}).length
console.log(`soak: ${n} dispatches (${n / 2} running a hook) in ${secs.toFixed(1)} s; RSS before ${before} MB, middle ${mid} MB, after ${after} MB; processes left: ${left}`)
rmSync(dir, { recursive: true, force: true })
