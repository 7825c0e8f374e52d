// `npm run package`: the release addon and `hookrt` executable for this machine's platform,
// put into its platform package by `napi artifacts`, checked by `napi prepublish --dry-run`,
// and both packages packed into dist/:
//   dist/hookrt-<version>.tgz                 the root package (JS, types, bin launcher)
//   dist/hookrt-<platform>-<version>.tgz      npm/<platform>/: hookrt.<platform>.node + hookrt
// On Linux the build links against glibc 2.17 through napi-rs's cross toolchain (an npm
// package, `--use-napi-cross`), so the result loads on Ubuntu 20.04, Debian 11, RHEL 8,
// Amazon Linux 2 and anything newer. `--profile P` builds another Cargo profile (e.g. `ci`,
// for a quick local check); the default is `release`.
import { spawnSync } from 'node:child_process'
import { copyFileSync, chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { buildEnv } from './cargo-env.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const profile = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : 'release'

/** napi-rs platform names and Rust triples of the targets we ship. */
const TARGETS = {
  'linux-x64': ['linux-x64-gnu', 'x86_64-unknown-linux-gnu'],
  'linux-arm64': ['linux-arm64-gnu', 'aarch64-unknown-linux-gnu'],
  'darwin-x64': ['darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['darwin-arm64', 'aarch64-apple-darwin'],
}
const here = TARGETS[`${process.platform}-${process.arch}`]
if (!here) {
  console.error(`hookrt: no package target for ${process.platform}-${process.arch}`)
  process.exit(1)
}
const [platform, triple] = here
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const napi = join(root, 'node_modules', '.bin', 'napi')
const artifacts = join(root, 'target', 'package-artifacts')
const dist = join(root, 'dist')
const npmDir = join(root, 'npm', platform)

// In CI the builds share the tests' configuration (scripts/cargo-env.mjs: the same toolchain
// variables `--use-napi-cross` sets), so with `--profile ci` nothing already built is rebuilt.
const { env } = buildEnv()

function run(cmd, argv, opts = {}) {
  console.log(`\n$ ${cmd} ${argv.join(' ')}`)
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env, ...opts })
  if (r.status !== 0) {
    console.error(`\nhookrt package: ${cmd} failed (exit ${r.status ?? r.signal})`)
    process.exit(r.status || 1)
  }
}

rmSync(artifacts, { recursive: true, force: true })
mkdirSync(artifacts, { recursive: true })
const common = ['--target', triple, '--profile', profile, '--output-dir', artifacts]
// The glibc 2.17 toolchain (gcc, binutils and a glibc 2.17 sysroot) only exists for Linux.
if (process.platform === 'linux') common.push('--use-napi-cross')
// The addon. `--no-js`: the committed loader (index.js) already knows every platform package;
// the .d.ts goes to the artifacts folder so the committed one is left alone.
run(napi, ['build', '--platform', '--no-js', '--dts', 'index.d.ts', ...common])
// The standalone executable, same toolchain. A release builds the `cli` feature alone; another
// profile (CI's) builds it with the tests' features, so the executable `npm test` compiled is
// reused (the fuzz entry points are a module the executable never calls).
const binFeatures = profile === 'release' ? 'cli' : 'cli,fuzzing'
run(napi, ['build', '--bin', 'hookrt', '--no-default-features', '--features', binFeatures, ...common])

// napi's commands check every configured target; here only this machine's is built (the
// others are built on their own runners by .github/workflows/release.yml).
const config = join(artifacts, 'napi-config.json')
writeFileSync(config, JSON.stringify({ binaryName: pkg.napi.binaryName, targets: [triple] }))
// hookrt.<platform>.node -> npm/<platform>/
run(napi, ['artifacts', '--config-path', config, '--output-dir', artifacts, '--npm-dir', 'npm'])
const exe = join(artifacts, 'hookrt')
if (!existsSync(exe)) {
  console.error(`hookrt package: the executable was not built (${exe} missing)`)
  process.exit(1)
}
copyFileSync(exe, join(npmDir, 'hookrt'))
chmodSync(join(npmDir, 'hookrt'), 0o755)

// Validate the platform package as a release would.
run(napi, ['pre-publish', '--config-path', config, '--npm-dir', 'npm', '--skip-optional-publish', '--dry-run'])

// The root package is staged with `optionalDependencies` naming every platform package at the
// same version, as `napi prepublish` writes them at release time. They are not in the
// committed package.json: `npm ci` in a clone would look them up in the registry's lockfile
// view before they are published.
const stage = join(root, 'target', 'package-root')
rmSync(stage, { recursive: true, force: true })
mkdirSync(stage, { recursive: true })
for (const f of [...pkg.files, 'README.md', 'LICENSE']) {
  if (existsSync(join(root, f))) cpSync(join(root, f), join(stage, f), { recursive: true })
}
const optionalDependencies = Object.fromEntries(
  pkg.napi.targets.map((t) => [`${pkg.name}-${Object.values(TARGETS).find(([, tr]) => tr === t)[0]}`, pkg.version]),
)
writeFileSync(join(stage, 'package.json'), JSON.stringify({ ...pkg, optionalDependencies }, null, 2) + '\n')

rmSync(dist, { recursive: true, force: true })
mkdirSync(dist, { recursive: true })
run('npm', ['pack', '--pack-destination', dist, npmDir])
run('npm', ['pack', '--pack-destination', dist, stage])
console.log(`\nhookrt package: dist/hookrt-${pkg.version}.tgz and dist/hookrt-${platform}-${pkg.version}.tgz (${profile} profile)`)
