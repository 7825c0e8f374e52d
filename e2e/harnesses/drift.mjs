#!/usr/bin/env node
// `npm run harnesses:drift`: the report a maintainer reads before moving a kit's pin. For each kit
// (and each dialect built without one) it prints the pinned release, the newest release its
// package registry offers, and the newest tagged release of its public source where that is
// reachable from here. With --record it installs the newer release of each kit that has one (or
// the release --to names) beside the pinned one, records the kit's scenarios with it, and prints,
// scenario by scenario, what changed against the committed recordings.
//
//   node e2e/harnesses/drift.mjs [--npm-registry URL] [--pypi URL] [--no-source] [--json]
//   node e2e/harnesses/drift.mjs --record [--kits a,b] [--to VERSION] [--scenarios S1,S2]
//
// The registries are the ones this machine's package managers use (npm's configured registry,
// PyPI); the source tags come from `git ls-remote`, which answers "not reachable here" offline.
// Exit code 0 whatever drifted: it is a report, not a gate.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { KITS, UNKITTED } from './kits.mjs'
import { RECORDINGS, recordOne, installDir } from './record.mjs'
import { drift } from './live.mjs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}
const npmRegistry = arg('--npm-registry', process.env.npm_config_registry || 'https://registry.npmjs.org').replace(/\/$/, '')
const pypi = arg('--pypi', 'https://pypi.org').replace(/\/$/, '')
const withSource = !process.argv.includes('--no-source')

/** Numeric parts of a release (`v0.21.3` → [0, 21, 3]); pre-releases sort below. */
const parts = v => String(v).replace(/^[^\d]*/, '').split(/[.+-]/).map(x => (/^\d+$/.test(x) ? Number(x) : -1))
export function compare(a, b) {
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0)
    if (d) return Math.sign(d)
  }
  return 0
}

async function json(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(20_000), headers: { accept: 'application/json' } })
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`)
  return res.json()
}

/** The newest release the registry offers for `{npm}` or `{pypi}`. */
async function newestPublished(registry) {
  if (registry.npm) {
    const tags = await json(`${npmRegistry}/-/package/${registry.npm.replace('/', '%2f')}/dist-tags`)
    return tags.latest
  }
  return (await json(`${pypi}/pypi/${registry.pypi}/json`)).info.version
}

/** The newest release tag of a public GitHub repository, or why there is none. */
function newestTag(repo) {
  try {
    const out = execFileSync('git', ['ls-remote', '--tags', '--refs', `https://github.com/${repo}`], {
      encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    })
    const tags = out.split('\n').map(l => l.split('refs/tags/')[1]).filter(t => t && /\d+\.\d+/.test(t) && !/-(alpha|beta|rc|preview|nightly)/i.test(t))
    return tags.sort(compare).at(-1) ?? 'no release tags'
  } catch {
    return 'not reachable here'
  }
}

/** One row per kit and per dialect without a kit. */
export async function rows() {
  const all = [
    ...Object.entries(KITS).map(([name, k]) => ({ name, kit: true, ...k })),
    ...Object.entries(UNKITTED).map(([name, k]) => ({ name, kit: false, ...k })),
  ]
  return Promise.all(all.map(async k => {
    const pkg = k.registry.npm ? `npm ${k.registry.npm}` : `PyPI ${k.registry.pypi}`
    let published
    try {
      published = await newestPublished(k.registry)
    } catch (e) {
      published = `unknown (${e.message})`
    }
    const source = !k.source ? 'closed source' : withSource ? newestTag(k.source) : 'not asked'
    const behind = /^\d/.test(published) && compare(published, k.version) > 0
    const sourceAhead = /^v?\d/.test(source) && compare(source, k.version) > 0 && (!/^\d/.test(published) || compare(source, published) > 0)
    const state = behind ? 'newer release published' : sourceAhead ? 'source ahead of the registry' : "pin is the registry's newest"
    return { name: k.name, kit: k.kit, package: pkg, pinned: k.version, published, source, state }
  }))
}

function table(list) {
  const head = ['harness', 'kit', 'package', 'pinned', 'registry newest', 'source newest', 'state']
  const cells = list.map(r => [r.name, r.kit ? 'yes' : 'no (docs/source)', r.package, r.pinned, r.published, r.source, r.state])
  const width = head.map((h, i) => Math.max(h.length, ...cells.map(c => String(c[i]).length)))
  const line = c => `| ${c.map((x, i) => String(x).padEnd(width[i])).join(' | ')} |`
  return [line(head), `|${width.map(w => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n')
}

/**
 * Records `kit`'s scenarios with release `version` (installed by its setup.sh beside the pinned one
 * unless it is the pinned one) and returns, per scenario, what changed against the committed recording.
 */
export function recordRelease(kit, version, scenarios = KITS[kit].scenarios) {
  const k = KITS[kit]
  const pinned = k.version
  const dir = version === pinned ? installDir(kit) : `${installDir(kit)}-${version}`
  const here = path.dirname(fileURLToPath(import.meta.url))
  const r = spawnSync('bash', [path.join(here, kit, 'setup.sh'), dir], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, KIT_VERSION: version } })
  if (r.status !== 0) throw new Error(`${kit} ${version}: setup.sh failed (${r.status ?? r.signal})`)
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), `hookrt-drift-${kit}-`))
  const saved = process.env[k.installVar]
  process.env[k.installVar] = dir
  k.version = version
  try {
    return scenarios.map(sc => {
      recordOne(kit, sc, fresh)
      return { scenario: sc, changes: drift(path.join(RECORDINGS, kit, sc), path.join(fresh, kit, sc)).filter(d => !d.startsWith('version:')) }
    })
  } finally {
    k.version = pinned
    if (saved === undefined) delete process.env[k.installVar]
    else process.env[k.installVar] = saved
    fs.rmSync(fresh, { recursive: true, force: true })
  }
}

async function record() {
  const to = arg('--to')
  const only = arg('--kits')?.split(',')
  const scenarios = arg('--scenarios')?.split(',')
  const list = (await rows()).filter(r => r.kit && (!only || only.includes(r.name)))
  for (const r of list) {
    const version = to ?? (r.state === 'newer release published' ? r.published : null)
    if (!version) {
      console.log(`${r.name}: ${r.pinned} is the registry's newest; nothing to record (--to names a release)`)
      continue
    }
    console.log(`== ${r.name}: recording ${version} (pinned ${r.pinned})`)
    const chosen = KITS[r.name].scenarios.filter(s => !scenarios || scenarios.includes(s))
    for (const { scenario, changes } of recordRelease(r.name, version, chosen)) {
      console.log(changes.length ? `${r.name} ${scenario}: ${changes.length} changes\n  ${changes.join('\n  ')}` : `${r.name} ${scenario}: as recorded`)
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--record')) await record()
  else {
    const list = await rows()
    console.log(process.argv.includes('--json') ? JSON.stringify(list, null, 2) : table(list))
  }
}
