#!/usr/bin/env node
// `npm run record:harnesses`: runs every scenario of every kit in the real harness (installed by the
// kit's setup.sh, by default under ~/.cache/harness-e2e/<kit>), offline inside `unshare -n`, and writes
// the normalised recordings the replay tests read:
//   e2e/recordings/<kit>/<scenario>/scenario.json   the hook files, the recorder's control, the facts
//   e2e/recordings/<kit>/<scenario>/NN-<event>[.<tag>].json   one per hook call: stdin, env, argv, cwd, shell
// Usage: node e2e/harnesses/record.mjs [--kits a,b] [--scenarios S1,S2] [--out DIR] [--raw DIR] [--setup]
//        node e2e/harnesses/record.mjs --from RAW_DIR [--out DIR]     (normalise earlier raw logs again)
//   --setup installs missing harnesses first (npm registry / PyPI only); --raw keeps each session's
//   raw logs and hook files (default ${TMPDIR:-/tmp}/hookrt-recordings-raw) so --from can redo the
//   normalisation without running the harnesses again.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { KITS, KIT_NAMES } from './kits.mjs'
import { normaliser, shellOf, argvOf } from './normalize.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
export const RECORDINGS = path.join(HERE, '..', 'recordings')
// what a recorder answer (or, Kimi's, a harness's words for an answer without a reason) can put in front of the model
const MARKERS = /\brecorder\b|CONTEXT-FROM-HOOK|hook exited|keep going|SYSTEM-MESSAGE|\boops\b|Blocked by \w+ hook/

const readLines = f => {
  try {
    return fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).flatMap(l => { try { return [JSON.parse(l)] } catch { return [] } })
  } catch { return [] }
}

export function installDir(kit) {
  const k = KITS[kit]
  return process.env[k.installVar] ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'harness-e2e', kit)
}

export function setup(kit) {
  const r = spawnSync('bash', [path.join(HERE, kit, 'setup.sh'), installDir(kit)], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`${kit}: setup.sh failed (${r.status ?? r.signal})`)
}

/** Runs one scenario in the real harness; returns the session folder and the run.sh printout. */
export function runScenario(kit, scenario, tmp, extraEnv = {}) {
  const k = KITS[kit]
  const v = k.variant(scenario)
  // the recordings are of a developer's session: CI=true changes what some harnesses do
  const { CI, ...outer } = process.env
  const env = {
    // Hermes hands its own environment on to its hooks, SHELL included; a CI runner may have none
    // set, so every session gets the login shell the recordings were made with.
    ...outer, SHELL: '/bin/bash', ...k.netns, ...(v.env ?? {}), ...extraEnv,
    [k.installVar]: installDir(kit), [k.runsVar]: path.join(tmp, 'runs'), CAPTURES: path.join(tmp, 'captures'),
  }
  const r = spawnSync('bash', [path.join(HERE, kit, 'run.sh'), v.scenario ?? scenario], {
    cwd: path.join(HERE, kit), env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20,
  })
  const printout = (r.stdout ?? '') + (r.stderr ?? '')
  const runs = path.join(tmp, 'runs')
  const dirs = fs.existsSync(runs) ? fs.readdirSync(runs).map(d => path.join(runs, d)).filter(d => fs.statSync(d).isDirectory()) : []
  if (dirs.length !== 1) throw new Error(`${kit} ${scenario}: expected one session folder under ${runs}, found ${dirs.length}\n${printout.slice(-3000)}`)
  return { run: dirs[0], printout, status: r.status }
}

const answerSequence = calls => {
  const used = new Set()
  return calls.map(c => {
    const mode = String(c.effective ?? c.mode ?? 'allow').replace(/\(.*$/, '')
    if (/^(stop-block|stop-block-alias|exit2-once)$/.test(mode)) {
      const key = `${mode}:${c.event}`
      if (used.has(key)) return 'allow'
      used.add(key)
    }
    return mode
  })
}

const commandOf = stdin => {
  const input = stdin?.tool_input ?? stdin?.toolArgs ?? stdin?.toolInput ?? stdin?.tool_result?.input
  const args = typeof input === 'string' ? (() => { try { return JSON.parse(input) } catch { return {} } })() : input
  return args?.command ?? args?.cmd ?? args?.commands?.[0] ?? null
}

function snippets(value, out = new Set()) {
  if (typeof value === 'string') {
    // long texts are system prompts and whole requests, not what a hook's answer became
    if (value.length <= 1500 && MARKERS.test(value)) out.add(value)
  } else if (Array.isArray(value)) value.forEach(v => snippets(v, out))
  else if (value && typeof value === 'object') Object.values(value).forEach(v => snippets(v, out))
  return out
}

/** What the harness did, derived from its hook calls and from what its model was sent. */
function factsOf(k, calls, others, mock, norm) {
  // Hermes reports a blocked tool call to post_tool_call too, with status "blocked"
  // (Cline also reports its own `submit_and_exit`, which is no tool the model asked to run)
  const post = calls.filter(c => k.postTool.includes(c.event) && c.stdin?.extra?.status !== 'blocked'
    && !(k.ignoreTools ?? []).includes(c.stdin?.postToolUse?.toolName))
  const slept = calls.some(c => /^sleep/.test(String(c.effective ?? c.mode)))
  const woke = others.some(o => /sleep|after-sleep/.test(String(o.note ?? o.phase ?? '')))
  const saw = new Set()
  for (const req of mock) for (const s of snippets(req.body ?? req)) saw.add(norm.text(s))
  // (a kit whose harness may cancel its after-tool hooks says from the model's requests what ran)
  const ran = k.ranCommands ? k.ranCommands(mock) : post.map(c => commandOf(c.stdin))
  return {
    toolRan: ran.length > 0,
    commands: ran,
    stops: calls.filter(c => k.stop.includes(c.event)).length,
    hookKilled: slept ? !woke : null,
    modelRequests: mock.length,
    modelSaw: [...saw].sort(),
  }
}

const fileName = (i, c) => {
  const tag = c.tag ?? c.label
  const safe = s => String(s).replace(/[^A-Za-z0-9_.=*^$|-]+/g, '_').slice(0, 60)
  return `${String(i + 1).padStart(2, '0')}-${safe(c.event)}${tag && tag !== c.event && tag !== 'project' ? '.' + safe(tag) : ''}.json`
}

/** Copies what normalisation needs out of a session folder (it is deleted afterwards). */
function keepRaw(kit, scenario, run, tmp, rawDir) {
  const k = KITS[kit]
  fs.rmSync(rawDir, { recursive: true, force: true })
  fs.mkdirSync(rawDir, { recursive: true })
  for (const rel of [k.log, k.mock, ...k.files]) {
    const f = path.join(run, rel)
    if (fs.existsSync(f)) {
      fs.mkdirSync(path.dirname(path.join(rawDir, 'run', rel)), { recursive: true })
      fs.copyFileSync(f, path.join(rawDir, 'run', rel))
    }
  }
  const meta = { kit, scenario, run, tmp, kitDir: path.join(HERE, kit), node: process.execPath, osTmp: os.tmpdir(), install: installDir(kit) }
  fs.writeFileSync(path.join(rawDir, 'meta.json'), JSON.stringify(meta, null, 2))
}

/**
 * The calls in a stable order: hooks a harness runs side by side for one moment (consecutive
 * calls of one event) are sorted by tag, since the order they happened to log in is chance.
 */
function inOrder(calls, sequential) {
  if (sequential) return calls
  const out = []
  let group = []
  const flush = () => { out.push(...group.sort((a, b) => String(a.tag ?? a.label).localeCompare(String(b.tag ?? b.label)))); group = [] }
  for (const c of calls) {
    if (group.length && (group[0].event !== c.event || group.some(g => (g.tag ?? g.label) === (c.tag ?? c.label)))) flush()
    group.push(c)
  }
  flush()
  return out
}

/** Normalises the raw logs of one session into the recording of its scenario. */
export function normaliseRaw(rawDir) {
  const meta = JSON.parse(fs.readFileSync(path.join(rawDir, 'meta.json'), 'utf8'))
  const { kit, scenario, run } = meta
  const k = KITS[kit]
  const norm = normaliser({
    paths: {
      [path.join(run, 'proj')]: '{project}', [path.join(run, 'home')]: '{home}', [run]: '{run}',
      [meta.kitDir]: '{kit}', [path.dirname(meta.kitDir)]: '{kits}', [meta.node]: '{node}', [meta.install]: '{install}', [meta.tmp]: '{tmp}', [meta.osTmp]: '{tmp}',
    },
  })
  const raw = rel => path.join(rawDir, 'run', rel)
  const files = {}
  for (const rel of k.files) {
    if (fs.existsSync(raw(rel))) files[rel] = norm.text(fs.readFileSync(raw(rel), 'utf8'), { whole: true })
  }
  const sequential = k.sequential || Object.values(files).some(t => /"sequential":\s*true/.test(t))
  const lines = readLines(raw(k.log))
  const calls = inOrder(lines.filter(l => 'stdin' in l || 'stdinRaw' in l), sequential)
  const others = lines.filter(l => !('stdin' in l || 'stdinRaw' in l))
  const answers = answerSequence(calls)
  // the recording run's own variables (the kit's install folder) are not the harness's
  const own = new RegExp(`^(RECORDER_|MOCK_|${k.installVar}$)`)
  const recs = calls.map((c, i) => ({
    file: fileName(i, c),
    body: {
      event: c.event,
      tag: c.tag ?? c.label ?? null,
      answer: answers[i],
      stdin: norm.value(c.stdin ?? c.stdinRaw ?? null),
      stdinNewline: c.stdinNewline ?? null,
      argv: norm.value(argvOf(c)),
      cwd: norm.text(c.cwd ?? ''),
      shell: shellOf(c),
      env: norm.value(Object.fromEntries(Object.entries(c.env ?? {}).filter(([n]) => !own.test(n)).sort())),
    },
  }))
  const mock = readLines(raw(k.mock))
  const scenarioJson = {
    kit, harness: k.harness, version: k.version, scenario,
    recorderEnv: norm.value(calls[0]?.recorderEnv ?? {}),
    launchEnv: k.launchEnv,
    files,
    facts: factsOf(k, calls, others, mock, norm),
    calls: recs.map(r => r.file),
  }
  return { scenarioJson, recs }
}

export function writeRecording(dir, { scenarioJson, recs }) {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenarioJson, null, 2) + '\n')
  for (const r of recs) fs.writeFileSync(path.join(dir, r.file), JSON.stringify(r.body, null, 2) + '\n')
}

export const RAW = path.join(os.tmpdir(), 'hookrt-recordings-raw')

/** Records one scenario into `outRoot/<kit>/<scenario>`; returns a one-line summary. */
export function recordOne(kit, scenario, outRoot, rawRoot = RAW) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hookrt-rec-${kit}-${scenario}-`))
  try {
    const { run, status } = runScenario(kit, scenario, tmp)
    const rawDir = path.join(rawRoot, kit, scenario)
    keepRaw(kit, scenario, run, tmp, rawDir)
    const rec = normaliseRaw(rawDir)
    writeRecording(path.join(outRoot, kit, scenario), rec)
    const f = rec.scenarioJson.facts
    return `${kit.padEnd(12)} ${scenario.padEnd(10)} run.sh ${status}  ${String(rec.recs.length).padStart(2)} hook calls  tool ran: ${f.toolRan}  stops: ${f.stops}`
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

function main() {
  const args = process.argv.slice(2)
  const opt = k => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined }
  const kits = opt('--kits')?.split(',') ?? KIT_NAMES
  const only = opt('--scenarios')?.split(',')
  const out = path.resolve(opt('--out') ?? RECORDINGS)
  const from = opt('--from')
  if (from) {
    for (const kit of fs.readdirSync(from).filter(k => kits.includes(k))) {
      for (const sc of fs.readdirSync(path.join(from, kit)).filter(s => !only || only.includes(s))) {
        writeRecording(path.join(out, kit, sc), normaliseRaw(path.join(from, kit, sc)))
      }
    }
    return
  }
  const raw = path.resolve(opt('--raw') ?? RAW)
  for (const kit of kits) {
    if (!KITS[kit]) throw new Error(`unknown kit ${kit} (known: ${KIT_NAMES.join(' ')})`)
    if (args.includes('--setup')) setup(kit)
    for (const sc of KITS[kit].scenarios.filter(s => !only || only.includes(s))) console.log(recordOne(kit, sc, out, raw))
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
