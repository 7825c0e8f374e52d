// `npm test`: the Rust core's tests, a fresh build of the addon, the node:test suites of the
// JS API and the `hookrt` command, and the public conformance suite when it sits beside us.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { buildEnv } from './cargo-env.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const times = []
const table = () => {
  if (times.length) console.log(`\nnpm test steps:\n${times.map(([n, s]) => `  ${n.padEnd(64)} ${String(s).padStart(5)}s`).join('\n')}`)
}
const step = (name, cmd, args, opts = {}) => {
  console.log(`\n== ${name}: ${cmd} ${args.join(' ')}`)
  const start = Date.now()
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts })
  times.push([name, Math.round((Date.now() - start) / 1000)])
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal})`)
    table()
    process.exit(r.status || 1)
  }
}
const only = process.argv[2]
if (!only || only === 'rust') {
  const { env, target } = buildEnv()
  // `cli,fuzzing`: the executable's features plus the fuzz entry points, so the library and the
  // `hookrt` executable built here are the ones scripts/build.mjs and the CI package reuse.
  step('cargo test', 'cargo', ['test', '--profile', 'ci', ...target, '--no-default-features', '--features', 'cli,fuzzing'], { env })
}
if (!only || only === 'node') {
  step('build addon and executable', process.execPath, [join(root, 'scripts', 'build.mjs')])
  step('node tests', process.execPath, ['--test', '--test-concurrency=2', '__test__/'])
  const conform = join(root, '..', 'shared', 'conformance')
  if (existsSync(join(conform, 'conform.mjs'))) {
    const env = { ...process.env }
    for (const k of Object.keys(env)) if (k.startsWith('HOOKRT_') || k === 'HOOKS') delete env[k]
    step('conformance (node bin/hookrt.js, the addon)', process.execPath, [join(conform, 'conform.mjs'), join(conform, 'cases')], { env })
    step('conformance (bin/hookrt.js as a program, the native executable)', process.execPath, [join(conform, 'conform.mjs'), '--impl', join(root, 'bin', 'hookrt.js'), join(conform, 'cases')], { env })
  } else {
    console.log('\n(conformance suite not found beside the project; skipped)')
  }
}
table()
