// The consumer test: what `npm run package` wrote into dist/, installed the way a user gets it.
// A fresh project outside the repository, with `cargo` and `rustc` absent from PATH, installs
// both tarballs with scripts ignored; then the addon, the `hookrt` command, the `hookrt/dsh`
// plugin and the real dsh all run from that installed copy. Also checks the glibc floor of the
// packed binaries. Run with `npm run test:package` after `npm run package`.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname, delimiter } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const dist = join(repo, 'dist')
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
const platforms = { 'linux-x64': 'linux-x64-gnu', 'linux-arm64': 'linux-arm64-gnu', 'darwin-x64': 'darwin-x64', 'darwin-arm64': 'darwin-arm64' }
const platform = platforms[`${process.platform}-${process.arch}`]
const rootTgz = join(dist, `hookrt-${pkg.version}.tgz`)
const platformTgz = join(dist, `hookrt-${platform}-${pkg.version}.tgz`)
if (!existsSync(rootTgz) || !existsSync(platformTgz)) {
  throw new Error(`run \`npm run package\` first: ${rootTgz} and ${platformTgz} are expected`)
}

/** PATH without any directory that holds cargo or rustc: a user's machine without Rust. */
const PATH = process.env.PATH.split(delimiter)
  .filter((d) => d && !existsSync(join(d, 'cargo')) && !existsSync(join(d, 'rustc')))
  .join(delimiter)
const env = { ...process.env, PATH }
for (const k of Object.keys(env)) if (k.startsWith('CARGO') || k.startsWith('RUSTUP') || k.startsWith('HOOKRT_') || k.startsWith('NAPI_RS')) delete env[k]

let dir
let app
const proj = () => join(dir, 'proj')
const home = () => join(dir, 'home')

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookrt-consumer-'))
  app = join(dir, 'app')
  for (const d of [app, proj(), home()]) mkdirSync(d, { recursive: true })
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }))
  // A guard every test dispatches against.
  mkdirSync(join(proj(), '.claude'))
  writeFileSync(
    join(proj(), '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "no shell here" >&2; exit 2' }] }] } }),
  )
  assert.notEqual(spawnSync('sh', ['-c', 'command -v cargo || command -v rustc'], { env }).status, 0, 'cargo/rustc still on PATH')
  const r = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', rootTgz, platformTgz], {
    cwd: app,
    env,
    encoding: 'utf8',
  })
  assert.equal(r.status, 0, `npm install failed:\n${r.stdout}\n${r.stderr}`)
})

after(() => rmSync(dir, { recursive: true, force: true }))

/** Runs a script with node in the consumer project; returns its stdout. */
function nodeIn(args, input) {
  const r = spawnSync(process.execPath, args, { cwd: app, env, input, encoding: 'utf8' })
  assert.equal(r.status, 0, `node ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`)
  return r.stdout
}

/** The highest `GLIBC_x.y` version a binary needs, from its dynamic symbol table. */
function glibcFloor(file) {
  const r = spawnSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.equal(r.status, 0, `objdump -T ${file}: ${r.stderr}`)
  const versions = [...r.stdout.matchAll(/GLIBC_(\d+)\.(\d+)(?:\.(\d+))?/g)].map((m) => [+m[1], +m[2], +(m[3] ?? 0)])
  assert.ok(versions.length > 0, `${file} has no GLIBC symbol versions (not a glibc binary?)`)
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
  return versions.at(-1)
}

test('the packed root package has no install script and no binaries', () => {
  const root = join(app, 'node_modules', 'hookrt')
  const installed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  assert.equal(installed.scripts?.install, undefined)
  assert.equal(installed.scripts?.postinstall, undefined)
  assert.equal(installed.optionalDependencies[`hookrt-${platform}`], pkg.version)
  assert.deepEqual(readdirSync(root).filter((f) => f.endsWith('.node')), [])
  assert.ok(!existsSync(join(root, 'bin', 'hookrt-native')))
  const plat = join(app, 'node_modules', `hookrt-${platform}`)
  assert.ok(existsSync(join(plat, `hookrt.${platform}.node`)))
  assert.ok(existsSync(join(plat, 'hookrt')))
})

test('the packed .node and executable need at most GLIBC_2.17', { skip: process.platform !== 'linux' }, () => {
  const plat = join(app, 'node_modules', `hookrt-${platform}`)
  for (const f of [`hookrt.${platform}.node`, 'hookrt']) {
    const v = glibcFloor(join(plat, f))
    assert.ok(v[0] < 2 || (v[0] === 2 && v[1] <= 17), `${f} needs GLIBC_${v.join('.')}, above the 2.17 floor`)
  }
})

test("require('hookrt') dispatches a matching hook from the platform package's addon", () => {
  const out = nodeIn([
    '-e',
    `const { createRuntime } = require('hookrt')
     const rt = createRuntime({ cwd: ${JSON.stringify(proj())}, homeDir: ${JSON.stringify(home())} })
     rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }).then((r) => {
       console.log(JSON.stringify({ outcome: r.outcome, exit: r.runs[0].outcome.exitCode, addon: require.resolve('hookrt-${platform}') }))
     })`,
  ])
  const r = JSON.parse(out)
  assert.equal(r.outcome.decision, 'deny')
  assert.equal(r.outcome.reason, 'no shell here')
  assert.equal(r.exit, 2)
  assert.ok(r.addon.startsWith(join(app, 'node_modules', `hookrt-${platform}`)), r.addon)
})

/** Starts a `hookrt listen` through `cmd`, sends lines, returns the parsed answers. */
async function listen(cmd, args, lines) {
  const child = spawn(cmd, [...args, 'listen', '--cwd', proj(), '--home', home()], { cwd: app, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (err += d))
  const exe = await new Promise((r) => setTimeout(() => r(process.platform === 'linux' ? safeReadlink(`/proc/${child.pid}/exe`) : null), 300))
  for (const l of lines) child.stdin.write(JSON.stringify(l) + '\n')
  child.stdin.end()
  const code = await new Promise((r) => child.on('close', r))
  assert.equal(code, 0, `listen exited ${code}: ${err}`)
  return { answers: out.trim().split('\n').map((l) => JSON.parse(l)), exe }
}

function safeReadlink(p) {
  try {
    return realpathSync(p)
  } catch {
    return null
  }
}

const requests = [
  { op: 'ping', id: 1 },
  { op: 'dispatch', id: 2, event: 'PreToolUse', payload: { tool_name: 'Bash', tool_input: { command: 'ls' } } },
  { op: 'dispatch', id: 3, event: 'PreToolUse', payload: { tool_name: 'Read' } },
]

function checkAnswers(answers) {
  assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2, 3])
  const by = Object.fromEntries(answers.map((a) => [a.id, a]))
  assert.equal(by[1].pong, true)
  assert.equal(by[2].outcome.decision, 'deny')
  assert.equal(by[2].outcome.reason, 'no shell here')
  assert.equal(by[3].outcome.decision, 'none')
}

test('npx hookrt listen answers a ping and dispatches', async () => {
  const { answers } = await listen('npx', ['--no-install', 'hookrt'], requests)
  checkAnswers(answers)
})

test("the hookrt command runs the platform package's native executable", { skip: process.platform !== 'linux' }, async () => {
  const { answers, exe } = await listen(join(app, 'node_modules', '.bin', 'hookrt'), [], requests)
  checkAnswers(answers)
  assert.equal(exe, realpathSync(join(app, 'node_modules', `hookrt-${platform}`, 'hookrt')))
})

test("import('hookrt/dsh') resolves inside the installed package", () => {
  const out = nodeIn(['--input-type=module', '-e', `const m = await import('hookrt/dsh'); console.log(JSON.stringify({ url: import.meta.resolve('hookrt/dsh'), keys: Object.keys(m) }))`])
  const r = JSON.parse(out)
  assert.equal(fileURLToPath(r.url), join(realpathSync(app), 'node_modules', 'hookrt', 'dsh', 'index.mjs'))
  assert.ok(r.keys.includes('apply'), `exports: ${r.keys}`)
})

test('the real dsh runs the installed hookrt/dsh plugin', { skip: process.env.HOOKRT_SKIP_DSH ? 'HOOKRT_SKIP_DSH is set' : false }, () => {
  const plugin = join(realpathSync(app), 'node_modules', 'hookrt', 'dsh', 'index.mjs')
  // Without NODE_TEST_CONTEXT, or the inner `node --test` thinks it is nested and runs nothing.
  const { NODE_TEST_CONTEXT, ...outer } = env
  const r = spawnSync(process.execPath, [join(repo, 'e2e', 'dsh', 'run.mjs')], {
    env: { ...outer, HOOKRT_DSH_PLUGIN: plugin },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const out = `${r.stdout}\n${r.stderr}`
  assert.equal(r.status, 0, `dsh e2e scenarios against the installed package failed:\n${out}`)
  const passed = Number(/^# pass (\d+)$/m.exec(r.stdout)?.[1] ?? 0)
  assert.ok(passed >= 7, `expected the dsh scenarios to run, got:\n${out}`)
  assert.match(r.stdout, /^# fail 0$/m)
})

test('the installed package ships a JSON Schema per dialect that has one, with its $id', () => {
  const dir = join(app, 'node_modules', 'hookrt', 'schemas')
  const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort()
  assert.ok(files.includes('claude.schema.json'), files.join(', '))
  for (const f of files) {
    const s = JSON.parse(readFileSync(join(dir, f), 'utf8'))
    assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema')
    assert.equal(s.$id, `https://hookrt.dev/schemas/${f}`)
  }
})
