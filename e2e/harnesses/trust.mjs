// The trust half of `npm run test:harnesses`: for Codex, Gemini CLI, Copilot CLI and Hermes, one
// session in a setup the harness does not trust and one in a setup it does, each run for real
// (scenario S1, every event). Whether the harness ran its hooks (its recorder log) must equal
// hookrt's verdict on the same files (`hookrt dump --require-hook-approval=harness` over the
// session's project and home, with the harness's environment): hooks loaded, or every one skipped.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { KITS } from './kits.mjs'
import { runScenario, installDir } from './record.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const BIN = path.join(HERE, '..', '..', 'bin', 'hookrt.js')

/**
 * Per kit: the two setups (run.sh's knobs) and what the harness's own process had in its
 * environment that bears on trust (hookrt gets the same).
 */
export const SETUPS = {
  codex: [
    { name: 'no trusted hash', env: { TRUST: 'none' }, hookrt: {} },
    { name: 'hashes trusted through codex app-server (/hooks)', env: { TRUST: 'persist' }, hookrt: {} },
  ],
  'gemini-cli': [
    { name: 'untrusted folder', env: { TRUST: '0' }, hookrt: {} },
    { name: 'folder trusted in trustedFolders.json', env: { TRUST: '0', TRUSTED_FOLDERS: '1' }, hookrt: {} },
  ],
  'copilot-cli': [
    { name: 'untrusted folder', env: { TRUST: '0' }, hookrt: {} },
    { name: 'folder trusted in config.json', env: { TRUST: 'persist' }, hookrt: {} },
  ],
  hermes: [
    { name: 'never approved, no terminal', env: { ACCEPT: 'none' }, hookrt: {} },
    { name: 'HERMES_ACCEPT_HOOKS=1', env: { ACCEPT: 'env' }, hookrt: { HERMES_ACCEPT_HOOKS: '1' } },
  ],
}

const lines = f => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(l => l.includes('"stdin')).length : 0)

/** The hooks of the kit's harness that hookrt would run over a session folder. */
function hookrtVerdict(kit, run, extra) {
  const k = KITS[kit]
  const home = path.join(run, 'home')
  const env = { PATH: process.env.PATH, HOME: home, ...extra }
  for (const [name, value] of Object.entries(k.launchEnv)) {
    if (/_HOME$|^HOME$/.test(name)) env[name] = value.replaceAll('{home}', home).replaceAll('{run}', run)
  }
  const r = spawnSync(process.execPath, [BIN, 'dump', '--require-hook-approval=harness', '--cwd', path.join(run, 'proj'), '--home', home,
    '--system-dir', path.join(run, 'etc'), '--managed-settings', path.join(run, 'managed.json')], { env, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`hookrt dump failed (${r.status}): ${r.stderr}`)
  const dump = JSON.parse(r.stdout)
  const hooks = dump.hooks.filter(h => h.dialect === k.harness)
  const skipped = (dump.diagnostics ?? []).filter(d => /skipped/.test(d.message)).map(d => d.message)
  return { hooks: hooks.length, skipped }
}

/** Runs every setup of the kits; returns the lines of differences (empty: hookrt agrees). */
export function trustChecks(kits) {
  const out = []
  for (const kit of kits.filter(k => SETUPS[k])) {
    for (const setup of SETUPS[kit]) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hookrt-trust-${kit}-`))
      try {
        const { run } = runScenario(kit, 'S1', tmp, setup.env)
        const ran = lines(path.join(run, KITS[kit].log))
        const v = hookrtVerdict(kit, run, setup.hookrt)
        const agree = (ran > 0) === (v.hooks > 0)
        console.log(`${kit.padEnd(12)} trust: ${setup.name.padEnd(48)} harness ran ${String(ran).padStart(2)} hook calls; hookrt would run ${v.hooks} hook(s), skip ${v.skipped.length}${agree ? '' : '  <-- DIFFERS'}`)
        if (ran && v.skipped.length) console.log(`${" ".repeat(13)}skipped: ${v.skipped.join("; ")}`)
        if (!agree) out.push(`${kit} (${setup.name}): the harness ${ran ? 'ran' : 'skipped'} its hooks, hookrt would ${v.hooks ? 'run' : 'skip'} them${v.skipped.length ? `: ${v.skipped[0]}` : ''}`)
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true })
      }
    }
  }
  return out
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kits = process.argv[2]?.split(',') ?? Object.keys(SETUPS)
  for (const kit of kits) if (!fs.existsSync(installDir(kit))) throw new Error(`${kit} is not installed (npm run record:harnesses)`)
  const found = trustChecks(kits)
  if (found.length) console.log(`hookrt's trust verdicts differ from the harnesses':\n  ${found.join('\n  ')}`)
  process.exit(found.length ? 1 : 0)
}
