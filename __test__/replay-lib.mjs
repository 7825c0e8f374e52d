// Replays the committed harness recordings (e2e/recordings/, written by `npm run record:harnesses`)
// through hookrt: the same hook files, the same recorder, a host dispatch carrying the same
// information, and compares what each hook received with what the real harness gave it.
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { createRequire } from 'node:module'
import { root } from './helpers.mjs'
import { KITS } from '../e2e/harnesses/kits.mjs'

export const NOT_REPRODUCED = Object.fromEntries(Object.entries(KITS).map(([k, v]) => [k, v.notReproduced]))
import { normaliser, shellOf, argvOf, materialise, claudeSlug } from '../e2e/harnesses/normalize.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

export const RECORDINGS = join(root, 'e2e', 'recordings')
const KIT_ROOT = join(root, 'e2e', 'harnesses')

// variables of the test's own environment that would leak into what hooks see
const HARNESS_VARS = /^(CLAUDE|GEMINI|CODEX|HERMES|COPILOT|ANTHROPIC|OPENAI|GITHUB_|GH_|GIT_CONFIG_|TERMINAL_|RECORDER_|MOCK_|HOOKRT_)|^(CLAUDECODE|AI_AGENT|HOOKS)$/

// REPLAY_ONLY="codex,gemini-cli:S2" narrows a run to some kits or scenarios while working on them
const only = (process.env.REPLAY_ONLY ?? '').split(',').filter(Boolean).map(s => s.split(':'))
const wanted = (kit, sc) => !only.length || only.some(([k, s]) => k === kit && (!s || !sc || s === sc))

export function kits() {
  return existsSync(RECORDINGS) ? readdirSync(RECORDINGS).filter(k => KITS[k] && wanted(k)).sort() : []
}

export function scenarios(kit) {
  const dir = join(RECORDINGS, kit)
  return readdirSync(dir)
    .filter(s => existsSync(join(dir, s, 'scenario.json')) && wanted(kit, s))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
}

/** A recorded scenario: its setup and its hook calls, in the order the harness made them. */
export function load(kit, sc) {
  const dir = join(RECORDINGS, kit, sc)
  const scenario = JSON.parse(readFileSync(join(dir, 'scenario.json'), 'utf8'))
  const calls = scenario.calls.map(f => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), 'utf8')) }))
  return { scenario, calls }
}

/**
 * One dispatch per moment: consecutive calls of one event, until a hook (tag) repeats, are the
 * hooks the harness ran for one occurrence of that event.
 */
export function occurrences(calls) {
  const out = []
  for (const c of calls) {
    const last = out.at(-1)
    if (last && last[0].event === c.event && !last.some(x => x.tag === c.tag)) last.push(c)
    else out.push([c])
  }
  return out
}

/** Lays a scenario's hook files out in a fresh session folder; returns the placeholder map. */
export function layout(kit, scenario) {
  const run = mkdtempSync(join(tmpdir(), `hookrt-replay-${kit}-`))
  const project = join(run, 'proj')
  const home = join(run, 'home')
  mkdirSync(project, { recursive: true })
  mkdirSync(home, { recursive: true })
  mkdirSync(join(run, 'tmp'))
  const paths = {
    [project]: '{project}', [home]: '{home}', [run]: '{run}', [join(KIT_ROOT, kit)]: '{kit}',
    [KIT_ROOT]: '{kits}', [process.execPath]: '{node}', [tmpdir()]: '{tmp}',
  }
  const back = { ...paths, [claudeSlug(project)]: '{project-slug}', '9': '{port}' }
  for (const [rel, text] of Object.entries(scenario.files)) {
    const f = join(run, rel)
    mkdirSync(dirname(f), { recursive: true })
    writeFileSync(f, materialise(text, back))
  }
  return { run, project, home, paths, back, cleanup: () => rmSync(run, { recursive: true, force: true }) }
}

/** Sets the process environment a host running this harness's hooks would have. */
export function hostEnv(scenario, place) {
  const saved = { ...process.env }
  for (const k of Object.keys(process.env)) if (HARNESS_VARS.test(k)) delete process.env[k]
  const put = vars => { for (const [k, v] of Object.entries(vars ?? {})) process.env[k] = materialise(v, place.back) }
  put(scenario.launchEnv)
  put(scenario.recorderEnv)
  // `_` tells a replayed hook's recorder that no bash exec'd it (bash sets `_` to the command)
  process.env._ = '/replay/no-shell'
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
    Object.assign(process.env, saved)
  }
}

// complete lines only: a hook the harness runs detached may be writing its line while this reads
const readCalls = f => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').slice(0, -1).filter(Boolean).map(l => JSON.parse(l)) : [])
  .filter(l => 'stdin' in l || 'stdinRaw' in l)

/** A runtime over the laid-out session, and a function dispatching one event that returns the new calls. */
export function replayer(kit, scenario, place, options = {}) {
  const rt = createRuntime({
    cwd: place.project, homeDir: place.home, managedSettingsPath: join(place.run, 'managed.json'),
    systemDir: join(place.run, 'etc'), requireHookApproval: false,
    // the recordings hold the kit's release: its rules, where they changed since
    harnessVersions: { [KITS[kit].harness]: KITS[kit].version }, ...options,
  })
  const log = join(place.run, KITS[kit].log)
  const norm = normaliser({ paths: place.paths })
  let seen = 0
  return {
    rt,
    norm,
    async dispatch(event, payload, expected = 0) {
      const result = await rt.dispatch(event, payload)
      // hooks a harness runs detached (Cline's TaskStart) may log after the dispatch returned
      for (let waited = 0; readCalls(log).length - seen < expected && waited < 5000; waited += 20) {
        await new Promise(r => setTimeout(r, 20))
      }
      const all = readCalls(log)
      const fresh = all.slice(seen)
      seen = all.length
      return { result, calls: fresh.map(c => received(c, norm, kit)) }
    },
  }
}

/** A replayed hook call in the recordings' normalised form. */
function received(c, norm, kit) {
  const drop = new Set(NOT_REPRODUCED[kit])
  return {
    event: c.event,
    tag: c.tag ?? c.label ?? null,
    stdin: norm.value(c.stdin ?? c.stdinRaw ?? null),
    stdinNewline: c.stdinNewline ?? null,
    argv: norm.value(argvOf(c)),
    cwd: norm.text(c.cwd ?? ''),
    shell: shellOf(c),
    env: harnessEnv(norm.value(Object.fromEntries(Object.entries(c.env ?? {}).filter(([n]) => !/^(RECORDER_|MOCK_)/.test(n)).sort())), drop),
  }
}

export const harnessEnv = (env, drop) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !drop.has(k) && ![...drop].some(d => d.endsWith('*') && k.startsWith(d.slice(0, -1)))))

/** Puts this session's paths back into a recorded payload. */
export const payloadOf = (stdin, place) => (stdin && typeof stdin === 'object' ? JSON.parse(materialise(JSON.stringify(stdin), place.back)) : {})

/** Key order of every object in a value, for comparing shapes key by key. */
export function keyOrder(v, at = '') {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return []
  return [[at || '.', Object.keys(v).join(',')], ...Object.entries(v).flatMap(([k, x]) => keyOrder(x, `${at}.${k}`))]
}

/** The JSON type of every field, recursively: what "the same shape" means. */
export function shape(v) {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : []
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
  return v === null ? 'null' : typeof v
}
