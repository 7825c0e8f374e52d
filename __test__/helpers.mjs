// Shared helpers for the node:test suites: temporary projects with real hook files.
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const bin = join(root, 'bin', 'hookrt.js')

export function project() {
  const dir = mkdtempSync(join(tmpdir(), 'hookrt-test-'))
  mkdirSync(join(dir, 'home'))
  mkdirSync(join(dir, 'proj'))
  return {
    dir,
    path: (rel) => join(dir, rel),
    write(rel, text) {
      const p = join(dir, rel)
      mkdirSync(dirname(p), { recursive: true })
      writeFileSync(p, typeof text === 'string' ? text : JSON.stringify(text, null, 2))
      return p
    },
    claude(hooks) {
      return this.write('proj/.claude/settings.json', { hooks })
    },
    options(extra = {}) {
      return { cwd: join(dir, 'proj'), homeDir: join(dir, 'home'), managedSettingsPath: join(dir, 'managed-settings.json'), systemDir: join(dir, 'etc'), requireHookApproval: false, ...extra }
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A shell command printing a JSON answer. */
export const answer = (v) => `printf '%s\\n' '${JSON.stringify(v).replaceAll("'", "'\\''")}'`

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

export async function waitForFile(p, ms = 5000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (existsSync(p)) {
      const t = readFileSync(p, 'utf8').trim()
      if (t) return t
    }
    await sleep(10)
  }
  throw new Error(`timed out waiting for ${p}`)
}

/** True while /proc has the pid (running or zombie). */
export const exists = (pid) => existsSync(`/proc/${pid}`)

export async function assertGone(pid, ms = 10000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (!exists(pid)) return
    await sleep(10)
  }
  let stat = ''
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {}
  throw new Error(`process ${pid} is still there: ${stat}`)
}

/** A hook whose grandchild ignores SIGTERM and keeps stdout open; pids go to files. */
export function stubbornTree(p) {
  return `echo $$ > ${p.path('parent.pid')}; (trap '' TERM; exec sh -c 'echo $$ > ${p.path('grand.pid')}; trap "" TERM; while :; do sleep 1; done') & until [ -s ${p.path('grand.pid')} ]; do sleep 0.01; done; wait`
}

/**
 * Per harness: the record by which it trusts `p`'s project, as a user who trusted it has it (a
 * project's other hook files run inside a harness only when the harness trusts the project).
 * Hermes keeps none: its user approves the project's hooks with hookrt.
 */
export const TRUST = {
  claude: (p) => p.write('home/.claude.json', { projects: { [p.path('proj')]: { hasTrustDialogAccepted: true } } }),
  codex: (p) => p.write('home/.codex/config.toml', `[projects."${p.path('proj')}"]\ntrust_level = "trusted"\n`),
  gemini: (p) => p.write('home/.gemini/trustedFolders.json', { [p.path('proj')]: 'TRUST_FOLDER' }),
  copilot: (p) => p.write('home/.copilot/config.json', { trusted_folders: [p.path('proj')] }),
  hermes: (p) => {
    const r = spawnSync(join(root, 'bin', 'hookrt-native'), ['trust', 'approve', '--all', '--scope', 'project', '--cwd', p.path('proj'), '--home', p.path('home')], { encoding: 'utf8', env: { ...process.env, HOME: p.path('home') } })
    if (r.status !== 0) throw new Error(`hookrt trust approve: ${r.stderr}`)
  },
}
