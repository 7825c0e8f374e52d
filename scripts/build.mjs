// Builds the native addon (hookrt.<platform>.node) and the standalone `hookrt` executable
// (bin/hookrt-native) in a clone, where the loader and bin/hookrt.js find them before any
// installed platform package. `--release`: LTO release profile instead of the faster non-LTO
// `ci` profile. Packages for users are made by `npm run package` (scripts/package.mjs). In CI
// both share the one build configuration of scripts/cargo-env.mjs with the tests and the package.
import { existsSync, copyFileSync, chmodSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { buildEnv, outDir } from './cargo-env.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const profile = args.includes('--release') ? 'release' : 'ci'
const exe = join(root, 'bin', 'hookrt-native')
const { env, target, triple } = buildEnv()

function run(cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const napi = join(root, 'node_modules', '.bin', 'napi')
if (!existsSync(napi)) {
  console.error('hookrt: @napi-rs/cli is not installed; run `npm ci` in the clone first')
  process.exit(1)
}
run(napi, ['build', '--platform', '--profile', profile, ...target])
// `cli,fuzzing` as `npm test` compiles it, so the executable the tests built is this one (the
// fuzz entry points are a module the executable never calls; a release package builds `cli`).
run('cargo', ['build', '--profile', profile, ...target, '--no-default-features', '--features', 'cli,fuzzing', '--bin', 'hookrt'])
copyFileSync(join(outDir(profile, triple), 'hookrt'), exe)
chmodSync(exe, 0o755)
