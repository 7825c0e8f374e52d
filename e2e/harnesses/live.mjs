#!/usr/bin/env node
// `npm run test:harnesses`: installs the pinned harnesses (cached under ~/.cache/harness-e2e), runs
// every scenario in the real harness, offline, and compares what each one did with the committed
// recordings (e2e/recordings/). Any drift — a hook call more or less, another stdin field, another
// variable, another decision by the harness — fails with a readable list of differences.
//
// Calls are matched by event, tag and how many times that hook was called before, not by their
// position: the order of hooks of different events that a harness starts at the same moment is
// chance (Copilot's sessionStart and userPromptSubmitted). A scenario that drifts is run once more,
// and reported only if it drifts again (a machine busy enough to trip a harness's own timers).
//
// Then, for Codex, Gemini CLI, Copilot CLI and Hermes, an untrusted and a trusted session each
// (trust.mjs): hookrt's verdict on the same files must be the harness's. Last, one session of each
// harness with hookrt installed into it (inside.mjs): hookrt's guards block the tool there, its
// context reaches the model, and `hookrt uninstall` leaves the harness's files as they were.
//
// By default each kit runs its smoke set (kits.mjs `smoke`: a whole session and the common guard
// answer), as CI does; every recording is replayed in `npm test` anyway. `--all` runs every
// scenario: what a change to a kit, a pinned version or a recording must run.
//
// Usage: node e2e/harnesses/live.mjs [--all] [--kits a,b] [--scenarios S1,S2] [--keep DIR]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { KITS, KIT_NAMES } from './kits.mjs'
import { RECORDINGS, recordOne, setup, installDir } from './record.mjs'
import { trustChecks } from './trust.mjs'
import { insideChecks } from './inside.mjs'

const args = process.argv.slice(2)
const opt = k => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined }
const kits = opt('--kits')?.split(',') ?? KIT_NAMES
const only = opt('--scenarios')?.split(',')
const all = args.includes('--all')
const keep = opt('--keep')

const PATHS = /\{(kit|kits|project|run|home|install|tmp|node)\}/
const read = (dir, f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))

function load(dir) {
  const scenario = read(dir, 'scenario.json')
  const seen = new Map()
  const calls = new Map()
  for (const f of scenario.calls) {
    const c = read(dir, f)
    const key = `${c.event} ${c.tag ?? ''}`
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    calls.set(`${key} #${n + 1}`, c)
  }
  return { scenario, calls }
}

const show = v => {
  const s = JSON.stringify(v)
  return s === undefined ? 'nothing' : s.length > 200 ? s.slice(0, 200) + '…' : s
}

/** The paths at which two values differ, with both values. */
function differences(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return []
  // The mock models cut what they echo at a fixed length; a text holding a path placeholder then
  // ends earlier or later depending on where the clone lives. Such texts agree up to the shorter.
  if (typeof a === 'string' && typeof b === 'string' && PATHS.test(a) && (a.startsWith(b) || b.startsWith(a))) return []
  const objects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)
  if (!objects) return [`${at || '.'}: recorded ${show(a)}, now ${show(b)}`]
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
  const out = keys.flatMap(k => differences(a[k], b[k], `${at}.${k}`))
  if (!out.length && !Array.isArray(a) && Object.keys(a).join() !== Object.keys(b).join()) out.push(`${at || '.'} key order: recorded ${Object.keys(a)}, now ${Object.keys(b)}`)
  return out
}

/** What differs between the committed recording of a scenario and a fresh one. */
export function drift(committedDir, freshDir) {
  const was = load(committedDir)
  const now = load(freshDir)
  // (hooks the harness fires without waiting and may cancel log or not by chance)
  const racy = new Set(KITS[was.scenario.kit]?.racy ?? [])
  for (const m of [was.calls, now.calls]) for (const [key, c] of m) if (racy.has(c.event)) m.delete(key)
  const out = []
  for (const [key, c] of was.calls) {
    const n = now.calls.get(key)
    if (!n) out.push(`${key}: the harness no longer calls this hook`)
    else out.push(...differences(c, n).map(d => `${key} ${d}`))
  }
  for (const key of now.calls.keys()) if (!was.calls.has(key)) out.push(`${key}: a hook call that was not recorded`)
  for (const part of ['facts', 'files', 'recorderEnv', 'version']) {
    out.push(...differences(was.scenario[part], now.scenario[part], part))
  }
  return out
}

async function main() {
  const fresh = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'hookrt-live-'))
  let failed = 0
  let compared = 0
  for (const kit of kits) {
    if (!KITS[kit]) throw new Error(`unknown kit ${kit} (known: ${KIT_NAMES.join(' ')})`)
    console.log(`== ${kit} ${KITS[kit].version} (install: ${installDir(kit)})`)
    setup(kit)
    const chosen = only ?? (all ? KITS[kit].scenarios : KITS[kit].smoke)
    for (const sc of KITS[kit].scenarios.filter(s => chosen.includes(s))) {
      const committed = path.join(RECORDINGS, kit, sc)
      if (!fs.existsSync(path.join(committed, 'scenario.json'))) {
        console.log(`${kit} ${sc}: no committed recording (npm run record:harnesses)`)
        failed++
        continue
      }
      let found = []
      for (let attempt = 1; attempt <= 2; attempt++) {
        console.log(recordOne(kit, sc, fresh))
        found = drift(committed, path.join(fresh, kit, sc))
        if (!found.length) break
        if (attempt === 1) console.log(`${kit} ${sc}: ${found.length} differences; running it once more`)
      }
      compared++
      if (found.length) {
        failed++
        console.log(`${kit} ${sc}: the harness behaves differently from its recording:\n  ${found.join('\n  ')}`)
      }
    }
  }
  console.log(`\n${compared} scenarios run (${only ? 'as named' : all ? 'every scenario' : 'the smoke set; --all runs every one'}), ${failed} drifted from e2e/recordings${keep ? `; fresh recordings in ${fresh}` : ''}`)
  if (!keep) fs.rmSync(fresh, { recursive: true, force: true })
  // Trust: an untrusted and a trusted setup per gating harness; hookrt's verdict must be theirs.
  const distrust = only ? [] : trustChecks(kits)
  console.log(`trust: ${distrust.length ? `hookrt's verdicts differ:\n  ${distrust.join('\n  ')}` : 'hookrt agrees with every harness'}`)
  // Inside: hookrt installed into each harness, guarding a real session.
  const inside = only ? [] : await insideChecks(kits)
  console.log(`inside: ${inside.length ? `problems:\n  ${inside.join('\n  ')}` : 'hookrt guarded a real session of every harness, and uninstalled cleanly'}`)
  process.exit(failed || distrust.length || inside.length ? 1 : 0)
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) await main()
