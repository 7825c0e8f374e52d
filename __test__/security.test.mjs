// Installing hookrt must not make a setup less safe than the harness alone (docs/security.md,
// "Threat model"). One test per way it could: a cloned repository's hooks running inside a
// harness that does not trust it, install writing through planted links or loosening modes,
// approvals that outlive what was approved, `hookrt serve` running hooks in the wrong
// environment or talking to the wrong process, and skipped guards nobody hears of. Real
// processes: the native executable, `sh -c` entries as harnesses run them, a second user.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync, existsSync, statSync, symlinkSync, mkdirSync, chmodSync, readdirSync, renameSync, rmSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { project, root, sleep, TRUST } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

const native = join(root, 'bin', 'hookrt-native')
const mode = (f) => statSync(f).mode & 0o777

function baseEnv(p, env = {}) {
  return {
    ...process.env, HOME: p.path('home'), CODEX_HOME: p.path('home/.codex'), HERMES_HOME: p.path('home/.hermes'),
    COPILOT_HOME: p.path('home/.copilot'), XDG_STATE_HOME: '', XDG_RUNTIME_DIR: '', HOOKRT_SOCKET: p.path('no-server.sock'),
    GEMINI_CLI_TRUST_WORKSPACE: '', COPILOT_ALLOW_ALL: '', CLAUDE_CONFIG_DIR: '', ...env,
  }
}

function run(p, args, { input = '', env = {}, cwd } = {}) {
  const r = spawnSync(native, args, { cwd: cwd ?? p.path('proj'), encoding: 'utf8', input, env: baseEnv(p, env) })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** A repository as cloned: a guard in every dialect hookrt reads for a tool call, each noting it ran. */
function clonedRepository(p) {
  const mark = (name) => `echo ${name} >> "${p.path('ran.log')}"`
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: mark('agents') }] })
  p.write('proj/.cursor/hooks.json', { version: 1, hooks: { beforeShellExecution: [{ command: mark('cursor') }] } })
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: mark('claude') }] }] } })
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:before': [{ hooks: [{ type: 'shell', command: mark('native') }] }] } })
  p.write('proj/.github/hooks/repo.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: mark('copilot') }] } })
  p.write('proj/.gemini/settings.json', { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: mark('gemini') }] }] } })
  p.write('proj/.codex/hooks.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: mark('codex') }] }] } })
}
const ran = (p) => (existsSync(p.path('ran.log')) ? readFileSync(p.path('ran.log'), 'utf8').trim().split('\n').sort() : [])

const TOOL_CALL = {
  claude: { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } },
  codex: { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } },
  gemini: { hook_event_name: 'BeforeTool', session_id: 's', tool_name: 'run_shell_command', tool_input: { command: 'ls' } },
  copilot: { sessionId: 's', toolName: 'bash', toolArgs: '{"command":"ls"}' },
  hermes: { hook_event_name: 'pre_tool_call', session_id: 's', tool_name: 'terminal', tool_input: { command: 'ls' } },
}
const EVENT = { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', copilot: 'preToolUse', hermes: 'pre_tool_call' }

for (const host of Object.keys(TOOL_CALL)) {
  test(`inside ${host}: a cloned repository's hooks run only once ${host} trusts the project (or the user approves them), and each skip is said`, (t) => {
    const p = project()
    t.after(() => p.cleanup())
    clonedRepository(p)
    p.write('home/.config/hookrt/hooks.json', { version: 1, events: { 'tool:before': [{ hooks: [{ type: 'shell', command: `echo user >> "${p.path('ran.log')}"` }] }] } })
    const call = (cwd) => run(p, ['hook', host, '--event', EVENT[host]], { input: JSON.stringify({ ...TOOL_CALL[host], cwd: cwd ?? p.path('proj') }) })

    let r = call()
    assert.equal(r.code, 0, r.err)
    assert.deepEqual(ran(p), ['user'], "only the user's own file ran")
    // One line per skipped hook, naming the file, the rule and the command that approves it.
    const lines = r.err.split('\n').filter((l) => l.startsWith('hookrt: skipped '))
    assert.ok(lines.length >= 2, r.err)
    assert.ok(lines.some((l) => l.includes(p.path('proj/.agents/hooks.json'))), r.err)
    assert.ok(lines.every((l) => l.includes(`to run it: hookrt trust approve --cwd ${p.path('proj')} `)), r.err)
    // ... and a history line with the skipped hooks.
    const hist = readFileSync(p.path('home/.local/state/hookrt/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert.ok(hist.at(-1).skipped.some((s) => s.file === p.path('proj/.agents/hooks.json')), JSON.stringify(hist.at(-1)))
    assert.equal(mode(p.path('home/.local/state/hookrt/history.jsonl')), 0o600)
    assert.equal(mode(p.path('home/.local/state/hookrt')), 0o700)

    // Trusted by the host (or, for Hermes, which keeps no record, approved): they run.
    rmSync(p.path('ran.log'))
    TRUST[host](p)
    r = call()
    assert.equal(r.code, 0, r.err)
    const got = ran(p)
    assert.ok(got.includes('agents') && got.includes('native') && got.includes('user'), `${got}\n${r.err}`)
    assert.ok(!got.includes(host === 'claude' ? 'claude' : host), `${host}'s own files are left to ${host}: ${got}`)
  })
}

test('inside Codex: a trusted project runs the other files; a file the model writes later needs no less', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  TRUST.codex(p)
  // The model, inside Codex's sandbox, writes a hooks file into an untrusted project.
  const other = p.path('elsewhere')
  mkdirSync(join(other, '.agents'), { recursive: true })
  writeFileSync(join(other, '.agents', 'hooks.json'), JSON.stringify({ PreToolUse: [{ command: `touch "${p.path('escaped')}"` }] }))
  const r = run(p, ['hook', 'codex'], { input: JSON.stringify({ ...TOOL_CALL.codex, cwd: other }), cwd: other })
  assert.equal(r.code, 0, r.err)
  assert.equal(existsSync(p.path('escaped')), false, 'a hook of an untrusted folder ran outside the sandbox')
  assert.match(r.err, /Codex does not trust the project/)
})

test('createRuntime({harness}) and SessionStart: the host applies its trust, and the user is told once per session', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  clonedRepository(p)
  const r = run(p, ['hook', 'claude', '--event', 'SessionStart'], { input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', source: 'startup', cwd: p.path('proj') }) })
  const message = JSON.parse(r.out).systemMessage
  assert.match(message, /^hookrt skipped \d+ hook\(s\) of this project that nothing trusts yet/)
  assert.match(message, new RegExp(`hookrt trust approve --all --scope project --cwd ${p.path('proj')}`))
  // Later events say it on stderr only, not to the user again.
  const later = run(p, ['hook', 'claude'], { input: JSON.stringify({ ...TOOL_CALL.claude, cwd: p.path('proj') }) })
  assert.equal(later.out, '')

  const rt = createRuntime(p.options({ requireHookApproval: 'harness', harness: 'codex' }))
  t.after(() => rt.close())
  const res = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })
  assert.deepEqual(res.runs, [])
  assert.ok(rt.diagnostics.some((d) => /Codex does not trust the project/.test(d.message)), JSON.stringify(rt.diagnostics))
})

test('install writes no file through a planted link, keeps the modes it finds, and keeps its records private', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const bashrc = p.write('home/.bashrc', 'precious\n')
  mkdirSync(p.path('proj/.claude'), { recursive: true })
  // Links at every temporary name the old scheme could use, in the project.
  for (let pid = 1; pid < 4096; pid++) symlinkSync(bashrc, p.path(`proj/.claude/settings.hookrt-${pid}.tmp`))
  p.write('proj/.claude/settings.json', '{}')
  let r = run(p, ['install', 'claude'])
  assert.equal(r.code, 0, r.err)
  assert.equal(readFileSync(bashrc, 'utf8'), 'precious\n')
  assert.match(readFileSync(p.path('proj/.claude/settings.json'), 'utf8'), /hook claude --event PreToolUse/)
  assert.equal(mode(p.path('home/.local/state/hookrt')), 0o700)
  for (const f of readdirSync(p.path('home/.local/state/hookrt/installs'))) assert.equal(mode(p.path(`home/.local/state/hookrt/installs/${f}`)), 0o600)
  assert.equal(mode(p.path('home/.local/state/hookrt/installs')), 0o700)

  // A project file that is a link to the user's own settings: refused, nothing copied.
  const q = project()
  t.after(() => q.cleanup())
  const mine = q.write('home/.claude/settings.json', '{"env": {"SECRET": "s3cr3t"}}')
  chmodSync(mine, 0o600)
  mkdirSync(q.path('proj/.claude'), { recursive: true })
  symlinkSync(mine, q.path('proj/.claude/settings.json'))
  r = run(q, ['install', 'claude'])
  assert.equal(r.code, 1)
  assert.match(r.err, /is a symbolic link: hookrt does not write a project's files through links/)
  assert.equal(readFileSync(mine, 'utf8'), '{"env": {"SECRET": "s3cr3t"}}')
  // ... and so is a linked folder.
  rmSync(q.path('proj/.claude'), { recursive: true })
  symlinkSync(q.path('home/.claude'), q.path('proj/.claude'))
  assert.equal(run(q, ['install', 'claude']).code, 1)

  // The user's 0600 files stay 0600 through install and uninstall.
  const cfg = p.write('home/.codex/config.toml', 'model = "o3"\n')
  chmodSync(cfg, 0o600)
  const yaml = p.write('home/.hermes/config.yaml', 'model:\n  default: x\n')
  chmodSync(yaml, 0o600)
  for (const [h, f] of [['codex', cfg], ['hermes', yaml]]) {
    assert.equal(run(p, ['install', h, '--scope', 'user']).code, 0)
    assert.equal(mode(f), 0o600, `${f} after install`)
    assert.equal(run(p, ['uninstall', h, '--scope', 'user']).code, 0)
    assert.equal(mode(f), 0o600, `${f} after uninstall`)
  }
})

test("install and uninstall touch only hookrt's own entries; trust never lists them", (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const mine = { type: 'command', command: 'hookrt-guard hook claude --event PreToolUse' }
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ hooks: [mine] }] } })
  assert.equal(run(p, ['install', 'claude']).code, 0)
  assert.equal(run(p, ['install', 'claude']).code, 0)
  const after = JSON.parse(readFileSync(p.path('proj/.claude/settings.json'), 'utf8'))
  assert.deepEqual(after.hooks.PreToolUse[0].hooks[0], mine, "the user's hookrt-named hook is kept")
  assert.equal(after.hooks.PreToolUse.length, 2, 'one hookrt entry, not two')
  const list = run(p, ['trust', 'list'])
  assert.doesNotMatch(list.out, /hookrt-native hook claude/, list.out)
  assert.match(list.out, /hookrt-guard hook claude/)
  assert.doesNotMatch(list.err, /over 4 MiB/)
  assert.equal(run(p, ['uninstall', 'claude']).code, 0)
  assert.deepEqual(JSON.parse(readFileSync(p.path('proj/.claude/settings.json'), 'utf8')), { hooks: { PreToolUse: [{ hooks: [mine] }] } })
})

test('a trusted Codex hash does not stand for fields it does not cover (env, args, worker)', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const command = 'echo codex ran'
  p.write('proj/.codex/hooks.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, env: { BASH_ENV: p.path('proj/evil.sh') } }] }] } })
  p.write('proj/evil.sh', `touch "${p.path('evil-ran')}"\n`)
  // What Codex records when its user trusts this hook: the hash of its identity, env not in it.
  const identity = JSON.stringify({ event_name: 'pre_tool_use', hooks: [{ async: false, command, timeout: 600, type: 'command' }], matcher: 'Bash' })
  const hash = 'sha256:' + createHash('sha256').update(identity).digest('hex')
  p.write('home/.codex/config.toml', `[projects."${p.path('proj')}"]\ntrust_level = "trusted"\n\n[hooks.state."${p.path('proj/.codex/hooks.json')}:pre_tool_use:0:0"]\ntrusted_hash = "${hash}"\n`)
  const r = run(p, ['run', '--event', 'PreToolUse', '--payload', '-', '--require-hook-approval=harness'], { input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }) })
  assert.equal(r.code, 0, r.err)
  assert.deepEqual(JSON.parse(r.out).runs, [])
  assert.equal(existsSync(p.path('evil-ran')), false)
  const list = run(p, ['trust', 'list'])
  assert.match(list.out, /fields Codex's trusted hash does not cover \(env\)/, list.out)
  // The same hook without the field: the trusted hash stands, it runs.
  p.write('proj/.codex/hooks.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } })
  const ok = run(p, ['run', '--event', 'PreToolUse', '--payload', '-', '--require-hook-approval=harness'], { input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }) })
  assert.equal(JSON.parse(ok.out).runs[0].outcome.stdout, 'codex ran')
})

test('an approval is bound to the expanded script, its hash and its project, or to the file', (t) => {
  const a = project()
  const b = project()
  t.after(() => { a.cleanup(); b.cleanup() })
  const command = 'sh $CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.sh'
  for (const [p, said] of [[a, 'A says no'], [b, 'B says no']]) {
    p.write('proj/.claude/hooks/pre_tool_use.sh', `echo '${said}' >&2; exit 2\n`)
    p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }, { type: 'command', command: 'make -s guard' }] }] } })
    p.write('proj/Makefile', 'guard:\n\t@echo made >> ran.log\n')
  }
  // Both projects share one home: approvals given in A must not admit B's hooks.
  const home = { HOME: a.path('home') }
  const approve = run(a, ['trust', 'approve', command, 'make -s guard', '--home', a.path('home'), '--require-hook-approval=project'], { env: home })
  assert.equal(approve.code, 0, approve.err)
  const store = JSON.parse(readFileSync(a.path('home/.config/hookrt/approvals.json'), 'utf8')).approved
  assert.equal(mode(a.path('home/.config/hookrt/approvals.json')), 0o600)
  const script = store.find((e) => e.command === command)
  assert.equal(script.script, a.path('proj/.claude/hooks/pre_tool_use.sh'), 'the variable is expanded: the script is found')
  assert.match(script.sha256, /^[0-9a-f]{64}$/)
  assert.equal(script.project, a.path('proj'))
  assert.equal(store.find((e) => e.command === 'make -s guard').file, a.path('proj/.claude/settings.json'))

  const call = (p) => run(p, ['run', '--event', 'PreToolUse', '--payload', '-', '--require-hook-approval=project', '--home', a.path('home')], { env: home, input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }) })
  let r = call(a)
  assert.equal(JSON.parse(r.out).outcome.reason, 'A says no', r.out + r.err)
  assert.equal(readFileSync(a.path('proj/ran.log'), 'utf8'), 'made\n')
  r = call(b)
  assert.deepEqual(JSON.parse(r.out).runs, [], 'the same commands in another project are not approved')
  assert.equal(existsSync(b.path('proj/ran.log')), false)
})

test('hookrt doctor counts skipped hooks as problems, says how to approve them, and finds ~/ scripts', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('home/hooks/ok.sh', 'exit 0\n')
  p.write('home/.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh ~/hooks/ok.sh' }] }] } })
  p.write('proj/.codex/hooks.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo guard' }] }] } })
  const r = run(p, ['doctor', '--home', p.path('home'), '--managed-settings', p.path('m.json'), '--system-dir', p.path('etc')])
  assert.equal(r.code, 1, r.out)
  assert.doesNotMatch(r.out, /ok\.sh does not exist/, 'the ~/ path is the home directory')
  assert.match(r.out, /PROBLEM\tskipped "echo guard"/)
  assert.match(r.out, new RegExp(`to run it: hookrt trust approve --cwd ${p.path('proj')} 'echo guard'`))
  assert.match(r.out, /\(1 skipped for trust\)/)
})

test('convert --to native: a Claude hook receives what it received before', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const record = (name) => `cat > "${p.path(name)}"; echo "$CLAUDECODE" >> "${p.path(name)}"`
  p.write('proj/.claude/settings.json', {
    hooks: {
      PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: record('claude.in') }] }],
      PostToolUseFailure: [{ matcher: 'Bash', hooks: [{ type: 'command', command: record('claude-fail.in') }] }],
    },
  })
  const conv = spawnSync(native, ['convert', '--from', 'claude', '--to', 'native', p.path('proj/.claude/settings.json')], { encoding: 'utf8' })
  assert.equal(conv.status, 0, conv.stderr)
  const converted = JSON.parse(conv.stdout)
  assert.deepEqual(Object.keys(converted.events).sort(), ['PermissionRequest', 'PostToolUseFailure'])
  p.write('other/.dsh-hooks.json', JSON.stringify(converted).replaceAll('claude.in', 'native.in').replaceAll('claude-fail.in', 'native-fail.in'))
  const env = { HOME: p.path('home') }
  const payload = JSON.stringify({ session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, permission_suggestions: [] })
  for (const dir of ['proj', 'other']) {
    run(p, ['run', '--event', 'PermissionRequest', '--payload', '-', '--require-hook-approval=off', '--cwd', p.path(dir)], { env, input: payload, cwd: p.path(dir) })
    // A successful tool call: the failure-only hook must not run.
    run(p, ['run', '--event', 'PostToolUse', '--payload', '-', '--require-hook-approval=off', '--cwd', p.path(dir)], { env, input: JSON.stringify({ tool_name: 'Bash', tool_input: {}, tool_response: 'ok' }), cwd: p.path(dir) })
  }
  const strip = (text) => text.replace(/"(cwd|transcript_path)":"[^"]*"/g, '')
  assert.equal(strip(readFileSync(p.path('native.in'), 'utf8')), strip(readFileSync(p.path('claude.in'), 'utf8')))
  assert.match(readFileSync(p.path('native.in'), 'utf8'), /"hook_event_name":"PermissionRequest"[\s\S]*\n1\n$/)
  assert.equal(existsSync(p.path('native-fail.in')), false, 'PostToolUseFailure stays failure-only')
  assert.equal(existsSync(p.path('claude-fail.in')), false)
})

test('install writes entries that start a program that exists: through the addon `node bin/hookrt.js`, never a bare hookrt missing from PATH', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  // A user guard in the user's Claude settings, reached through the installed entry.
  p.write('home/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no shell here" >&2; exit 2' }] }] } })
  // The addon path, as a host without the executable runs it, with no hookrt on PATH.
  const env = baseEnv(p, { PATH: '/usr/bin:/bin' })
  const viaAddon = spawnSync(process.execPath, [join(root, 'bin', 'hookrt.js'), 'install', 'codex', '--scope', 'user'], { cwd: p.path('proj'), encoding: 'utf8', env })
  assert.equal(viaAddon.status, 0, viaAddon.stderr)
  const hooks = JSON.parse(readFileSync(p.path('home/.codex/hooks.json'), 'utf8')).hooks
  const entry = hooks.PreToolUse.at(-1).hooks[0].command
  assert.ok(entry.startsWith(`${process.execPath} ${join(root, 'bin', 'hookrt.js')} hook codex --event PreToolUse`), entry)
  // The harness runs it with sh -c and the same PATH: the user's guard is reached and blocks.
  const call = JSON.stringify({ ...TOOL_CALL.codex, cwd: p.path('proj'), transcript_path: null, model: 'm', permission_mode: 'default', turn_id: 't', tool_use_id: 'u' })
  const r = spawnSync('sh', ['-c', entry], { cwd: p.path('proj'), input: call, encoding: 'utf8', env })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', r.stdout)
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason, /no shell here/)

  // A program that cannot start is refused, and nothing is written: exit 127 fails open.
  for (const program of ['hookrt-not-installed', p.path('gone/hookrt')]) {
    const refused = run(p, ['install', 'claude', '--program', program])
    assert.equal(refused.code, 1)
    assert.match(refused.err, /the entries would start `.*`, but .*(is not on PATH|does not exist): every event would fail with exit 127/)
    assert.equal(existsSync(p.path('proj/.claude/settings.json')), false)
  }
})
