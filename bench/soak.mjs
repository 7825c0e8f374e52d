// `node --expose-gc bench/soak.mjs [N]`: memory across many dispatches. Runs N (default
// 100 000; 1 000 000 for the long soak) dispatches, 64 in flight at a time, half of them running
// a `true` hook and half matching nothing, and prints the RSS after warm-up, every 100 000
// dispatches and at the end, then the open file descriptors and hook processes left. RSS also
// holds V8's heap, whose reserved size (the young generation's semi-spaces in particular) grows in
// steps of several MB under a high allocation rate while the live JS heap stays flat; so each
// figure also gives the V8 heap and the memory outside it (the addon's Rust side, libuv, Node's
// own native allocations). `--max-semi-space-size=1` pins the young generation, if you want RSS
// alone to be flat.
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
/** RSS outside V8's heap, in MB. */
const native = () => {
  const u = process.memoryUsage()
  return ((u.rss - u.heapTotal) / 1048576).toFixed(1)
}
const heap = () => {
  const u = process.memoryUsage()
  return `V8 heap ${(u.heapUsed / 1048576).toFixed(1)} used / ${(u.heapTotal / 1048576).toFixed(1)} reserved, outside it ${native()} MB`
}
const payload = (i) => ({ session_id: 's', tool_name: i % 2 ? 'Bash' : 'Read', tool_input: { command: 'true', i } })

// Warm up, then measure.
for (let i = 0; i < 2000; i += 64) await Promise.all(Array.from({ length: 64 }, (_, k) => rt.dispatch('PreToolUse', payload(i + k))))
globalThis.gc?.()
const fds = () => readdirSync('/proc/self/fd').length
const fdsBefore = fds()
const before = mb()
const nativeBefore = native()
const t0 = Date.now()
let mid = before
const marks = []
let next = 100_000
for (let i = 0; i < n; i += 64) {
  await Promise.all(Array.from({ length: Math.min(64, n - i) }, (_, k) => rt.dispatch('PreToolUse', payload(i + k))))
  if (i === Math.floor(n / 2 / 64) * 64) mid = mb()
  if (i + 64 >= next) {
    globalThis.gc?.()
    marks.push(`${next / 1000}k: ${mb()} MB`)
    console.log(`  ${next} dispatches: RSS ${mb()} MB (${heap()}), fds ${fds()}`)
    next += 100_000
  }
}
globalThis.gc?.()
const after = mb()
const nativeAfter = native()
const secs = (Date.now() - t0) / 1000
const needle = Buffer.from(`HOOKRT_RUN=${process.pid}-`)
const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
  try {
    return readFileSync(`/proc/${p}/environ`).includes(needle)
  } catch {
    return false
  }
}).length
rt.close()
console.log(`soak: ${n} dispatches (${n / 2} running a hook) in ${secs.toFixed(1)} s; RSS after warm-up ${before} MB, middle ${mid} MB, after ${after} MB (growth ${(after - before).toFixed(1)} MB); outside the V8 heap ${nativeBefore} -> ${nativeAfter} MB (growth ${(nativeAfter - nativeBefore).toFixed(1)} MB); file descriptors ${fdsBefore} before, ${fds()} after; processes left: ${left}`)
rmSync(dir, { recursive: true, force: true })
