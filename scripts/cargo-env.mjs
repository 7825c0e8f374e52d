// The one build configuration every CI compile shares, so Cargo compiles the dependencies once
// and reuses them for the tests, the addon, the executable and the packaged artefacts:
//   - every build names the host triple (`--target`), as `napi build` does, so all of them land in
//     target/<triple>/<profile>/;
//   - on Linux every build links through napi-rs's glibc 2.17 toolchain (the package step's
//     `--use-napi-cross`): the same linker and C compiler for all, so nothing is rebuilt for the
//     package (Cargo rebuilds every unit when the linker changes);
//   - with `HOOKRT_LINT=1` clippy runs inside those same compiles (`RUSTC_WORKSPACE_WRAPPER`:
//     scripts/lint-rustc, clippy with warnings denied), instead of two compiles of its own.
// It is on when `CI` is set (`.ci/run`) or `HOOKRT_SHARED_BUILD=1`; elsewhere a build is a plain
// Cargo build.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// The toolchain package napi's CLI itself loads (a dependency of @napi-rs/cli, nested under it).
const require = createRequire(join(root, 'node_modules', '@napi-rs', 'cli', 'package.json'))

/** Whether builds share the one configuration. */
export const shared = Boolean(process.env.CI) || process.env.HOOKRT_SHARED_BUILD === '1'

/** The host's Rust triple. */
export function hostTriple() {
  const r = spawnSync('rustc', ['-vV'], { encoding: 'utf8' })
  return /^host: (\S+)$/m.exec(r.stdout ?? '')?.[1] ?? ''
}

/**
 * The variables napi-rs's `--use-napi-cross` sets for a build of the host's own triple (its
 * `napiCrossToolchainEnvs`), after unpacking the toolchain as it does.
 */
function crossEnv(triple) {
  if (process.platform !== 'linux' || !/-linux-gnu$/.test(triple)) return {}
  const { version, download } = require('@napi-rs/cross-toolchain')
  const dir = join(homedir(), '.napi-rs', 'cross-toolchain', version, triple)
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true })
    download(process.arch, triple).unpack(dir)
  }
  const tool = (name) => join(dir, 'bin', `${triple}-${name}`)
  const upper = triple.toUpperCase().replaceAll('-', '_')
  const under = triple.replaceAll('-', '_')
  const sysroot = join(dir, triple, 'sysroot')
  // Every variable napi sets for a host build, as it sets them (only where not set already): a
  // build script that reads one (cc-rs reads CC/AR/RANLIB_<triple>) reruns when it changes.
  const envs = {
    [`CARGO_TARGET_${upper}_LINKER`]: tool('gcc'),
    TARGET_SYSROOT: sysroot,
    TARGET_AR: tool('ar'),
    TARGET_RANLIB: tool('ranlib'),
    TARGET_READELF: tool('readelf'),
    TARGET_C_INCLUDE_PATH: join(sysroot, 'usr', 'include/'),
    TARGET_CC: tool('gcc'),
    TARGET_CXX: tool('g++'),
    BINDGEN_EXTRA_CLANG_ARGS: `--sysroot=${sysroot}`,
    [`CC_${under}`]: tool('gcc'),
    [`CXX_${under}`]: tool('g++'),
    [`AR_${under}`]: tool('ar'),
    [`RANLIB_${under}`]: tool('ranlib'),
  }
  for (const k of Object.keys(envs)) if (process.env[k]) delete envs[k]
  return { ...envs, PATH: `${join(dir, 'bin')}:${process.env.PATH}` }
}

/** The environment and the `--target` arguments of every Cargo (and napi) build. */
export function buildEnv() {
  if (!shared) return { env: { ...process.env }, target: [] }
  const triple = hostTriple()
  const env = { ...process.env, ...crossEnv(triple) }
  if (process.env.HOOKRT_LINT === '1') env.RUSTC_WORKSPACE_WRAPPER = join(root, 'scripts', 'lint-rustc')
  return { env, target: ['--target', triple], triple }
}

/** Where a build of `profile` puts its artefacts. */
export function outDir(profile, triple) {
  return join(root, 'target', ...(triple ? [triple] : []), profile)
}
