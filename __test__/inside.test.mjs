// hookrt inside a harness: `hookrt install <harness>` writes entries in the harness's own file
// (and its trust step), the entries run `hookrt hook <harness>`, which answers in that harness's
// format, and `hookrt uninstall` gives the files back byte for byte. Real processes throughout:
// the native executable, the installed commands run through `sh -c` as the harnesses run them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, existsSync, readdirSync, chmodSync, rmSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { project, root, TRUST } from './helpers.mjs'

const native = join(root, 'bin', 'hookrt-native')

function run(p, args, { input = '', env = {} } = {}) {
  const r = spawnSync(native, [...args, '--cwd', p.path('proj'), '--home', p.path('home')], {
    encoding: 'utf8',
    input,
    env: { ...process.env, HOME: p.path('home'), CODEX_HOME: p.path('home/.codex'), HERMES_HOME: p.path('home/.hermes'), COPILOT_HOME: p.path('home/.copilot'), XDG_STATE_HOME: '', HOOKRT_SOCKET: p.path('no-server.sock'), ...env },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** Runs an installed entry's command the way a harness does: `sh -c` with the event on stdin. */
function runEntry(p, command, stdin) {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: p.path('proj'),
    encoding: 'utf8',
    input: JSON.stringify(stdin),
    env: { ...process.env, HOME: p.path('home'), CODEX_HOME: p.path('home/.codex'), HERMES_HOME: p.path('home/.hermes'), XDG_STATE_HOME: '', HOOKRT_SOCKET: p.path('no-server.sock') },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

const GUARD = { PreToolUse: [{ matcher: 'Bash', command: "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; } || exit 0" }] }
const CONTEXT = {
  version: 1,
  events: { 'prompt:submit': [{ hooks: [{ type: 'shell', command: `printf '%s' '{"hookSpecificOutput":{"additionalContext":"CONTEXT-FROM-HOOKRT"}}'` }] }] },
}

// Per harness: where install writes, its pre-existing file, how to find the entry for an event,
// and the stdin of a shell call to `rm -rf` and of a prompt, as the harness sends them.
const HARNESSES = {
  claude: {
    file: 'proj/.claude/settings.json', scope: 'project', existing: '{\n  "permissions": {"allow": ["Bash"]},\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}\n}\n',
    entry: (root, ev) => root.hooks[ev].at(-1).hooks[0].command, tool: 'PreToolUse', prompt: 'UserPromptSubmit',
    call: { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ./x' } },
    ask: { session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 'hi' },
    denied: (o) => o.hookSpecificOutput.permissionDecision === 'deny' && o.hookSpecificOutput.permissionDecisionReason,
    context: (o) => o.hookSpecificOutput.additionalContext,
  },
  codex: {
    file: 'proj/.codex/hooks.json', scope: 'project', existing: '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
    entry: (root, ev) => root.hooks[ev].at(-1).hooks[0].command, tool: 'PreToolUse', prompt: 'UserPromptSubmit',
    call: { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ./x' } },
    ask: { session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 'hi' },
    denied: (o) => o.hookSpecificOutput.permissionDecision === 'deny' && o.hookSpecificOutput.permissionDecisionReason,
    context: (o) => o.hookSpecificOutput.additionalContext,
  },
  gemini: {
    file: 'proj/.gemini/settings.json', scope: 'project', existing: '{\n  // comments are allowed here\n  "general": {"vimMode": true}\n}\n',
    entry: (root, ev) => root.hooks[ev].at(-1).hooks[0].command, tool: 'BeforeTool', prompt: 'BeforeAgent',
    call: { session_id: 's', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf ./x' } },
    ask: { session_id: 's', hook_event_name: 'BeforeAgent', prompt: 'hi' },
    denied: (o) => o.decision === 'deny' && o.reason,
    context: (o) => o.hookSpecificOutput.additionalContext,
  },
  copilot: {
    file: 'proj/.github/hooks/hookrt.json', scope: 'project', existing: null,
    entry: (root, ev) => root.hooks[ev].at(-1).bash, tool: 'preToolUse', prompt: 'userPromptSubmitted',
    call: { sessionId: 's', toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf ./x' }) },
    ask: { sessionId: 's', prompt: 'hi' },
    denied: (o) => o.permissionDecision === 'deny' && o.permissionDecisionReason,
    context: (o) => o.additionalContext,
  },
  hermes: {
    file: 'home/.hermes/config.yaml', scope: 'user', existing: '# my Hermes\nmodel:\n  default: mock\n',
    entry: (root, ev) => root.hooks[ev].at(-1).command, tool: 'pre_tool_call', prompt: 'pre_llm_call',
    call: { session_id: 's', hook_event_name: 'pre_tool_call', tool_name: 'terminal', tool_input: { command: 'rm -rf ./x' } },
    ask: { session_id: 's', hook_event_name: 'pre_llm_call', user_message: 'hi' },
    denied: (o) => o.decision === 'block' && o.reason,
    context: (o) => o.context,
  },
}

/** The installed file's entries (Hermes' YAML: its `command:` lines, one list per event). */
function entries(p, h, file) {
  const text = readFileSync(p.path(file), 'utf8')
  if (!file.endsWith('.yaml')) return JSON.parse(text)
  const hooks = {}
  for (const [, cmd, ev] of text.matchAll(/command: ['"]?(\S+ hook hermes --event (\w+))['"]?$/gm)) (hooks[ev] ??= []).push({ command: cmd })
  return { hooks }
}

for (const [name, h] of Object.entries(HARNESSES)) {
  test(`${name}: install writes entries that run hookrt, which answers in ${name}'s format; uninstall gives the files back byte for byte`, (t) => {
    const p = project()
    t.after(() => p.cleanup())
    if (h.existing !== null) p.write(h.file, h.existing)
    p.write('proj/.agents/hooks.json', GUARD)
    p.write('proj/.dsh-hooks.json', CONTEXT)
    TRUST[name](p)
    const before = existsSync(p.path(h.file)) ? readFileSync(p.path(h.file)) : null
    const trustFiles = { codex: ['home/.codex/config.toml'], hermes: ['home/.hermes/shell-hooks-allowlist.json'] }[name] ?? []
    const trustBefore = trustFiles.map((f) => (existsSync(p.path(f)) ? readFileSync(p.path(f)) : null))

    const dry = run(p, ['install', name, '--scope', h.scope, '--dry-run'])
    assert.equal(dry.code, 0, dry.err)
    assert.match(dry.out, new RegExp(`hook ${name} --event ${h.tool}`))
    assert.deepEqual(existsSync(p.path(h.file)) ? readFileSync(p.path(h.file)) : null, before, '--dry-run wrote nothing')

    let r = run(p, ['install', name, '--scope', h.scope])
    assert.equal(r.code, 0, r.err)
    const once = readFileSync(p.path(h.file), 'utf8')
    assert.equal(run(p, ['install', name, '--scope', h.scope]).code, 0)
    assert.equal(readFileSync(p.path(h.file), 'utf8'), once, 'installing again changes nothing')

    const installed = entries(p, h, h.file)
    const deny = runEntry(p, h.entry(installed, h.tool), h.call)
    assert.equal(deny.code, 0, deny.err)
    const reason = h.denied(JSON.parse(deny.out))
    assert.ok(reason, deny.out)
    assert.match(reason, /no rm -rf here/)
    const ctx = runEntry(p, h.entry(installed, h.prompt), h.ask)
    assert.equal(h.context(JSON.parse(ctx.out)), 'CONTEXT-FROM-HOOKRT')

    // The history says where each run came from.
    const hist = run(p, ['history', '--json'], { env: { XDG_STATE_HOME: '' } })
    assert.equal(hist.code, 0, hist.err)
    const lines = hist.out.trim().split('\n').map((l) => JSON.parse(l))
    assert.deepEqual([...new Set(lines.map((l) => l.host))], [name])

    r = run(p, ['uninstall', name, '--scope', h.scope])
    assert.equal(r.code, 0, r.err)
    if (before === null) assert.equal(existsSync(p.path(h.file)), false, 'the file install created is gone')
    else assert.deepEqual(readFileSync(p.path(h.file)), before, 'byte-identical after uninstall')
    trustFiles.forEach((f, i) => {
      if (trustBefore[i] === null) assert.equal(existsSync(p.path(f)), false, `${f}, written only for hookrt's entries, is gone`)
      else assert.deepEqual(readFileSync(p.path(f)), trustBefore[i], `${f} is back byte for byte`)
    })
    if (name === 'copilot') assert.equal(existsSync(p.path('proj/.github')), false, 'the folders install made are gone')
  })
}

test('uninstall keeps what the user added meanwhile; the trust step trusts only hookrt entries', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.codex/hooks.json', '{"hooks": {}}')
  const config = `# mine\nmodel = "o3"\n\n[projects."${p.path('proj')}"]\ntrust_level = "trusted"\n`
  p.write('home/.codex/config.toml', config)
  assert.equal(run(p, ['install', 'codex']).code, 0)
  const toml = readFileSync(p.path('home/.codex/config.toml'), 'utf8')
  assert.ok(toml.startsWith(config), 'the user\'s config.toml is kept as it was, the block appended')
  const keys = [...toml.matchAll(/\[hooks\.state\."([^"]+)"\]\ntrusted_hash = "(sha256:[0-9a-f]{64})"/g)]
  const installed = JSON.parse(readFileSync(p.path('proj/.codex/hooks.json'), 'utf8'))
  assert.equal(keys.length, Object.keys(installed.hooks).length, 'one trusted hash per hookrt entry')
  // Codex's own hash (sorted-key JSON of the hook's identity), computed here independently.
  const [key, hash] = keys.find(([, k]) => k.includes(':pre_tool_use:')).slice(1)
  const handler = installed.hooks.PreToolUse[0].hooks[0]
  const identity = JSON.stringify({ event_name: 'pre_tool_use', hooks: [{ async: false, command: handler.command, timeout: 600, type: 'command' }] })
  assert.equal(hash, 'sha256:' + createHash('sha256').update(identity).digest('hex'))
  assert.equal(key, `${p.path('proj/.codex/hooks.json')}:pre_tool_use:0:0`)
  // hookrt's own reading of Codex's trust agrees: its entries run, a user hook added later does not.
  installed.hooks.PreToolUse.push({ hooks: [{ type: 'command', command: 'echo mine' }] })
  p.write('proj/.codex/hooks.json', JSON.stringify(installed, null, 2))
  const list = run(p, ['trust', 'list', '--require-hook-approval=harness'])
  assert.doesNotMatch(list.out, /hook codex --event/, "hookrt's own entries are not hooks to approve")
  assert.match(list.out, /echo mine.*harness: skips/)
  // Uninstall: hookrt's entries go, the user's stays; config.toml is back byte for byte.
  assert.equal(run(p, ['uninstall', 'codex']).code, 0)
  assert.deepEqual(JSON.parse(readFileSync(p.path('proj/.codex/hooks.json'), 'utf8')), { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } })
  assert.equal(readFileSync(p.path('home/.codex/config.toml'), 'utf8'), config)
  assert.deepEqual(readdirSync(p.path('home/.local/state/hookrt/installs')), [])
})

test('hook: the harness\'s own files are left to it; past the budget the hooks are killed and --fail-closed decides', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch ran-by-hookrt; exit 2' }] }] } })
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:before': [{ hooks: [{ type: 'shell', command: 'echo $$ > sleeper.pid; exec sleep 30' }] }] } })
  TRUST.claude(p)
  const call = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })
  let r = run(p, ['hook', 'claude', '--budget', '0.5'], { input: call })
  assert.equal(r.code, 0)
  assert.equal(r.out, '', 'fails open by default: the harness goes on')
  assert.match(r.err, /did not finish within/)
  assert.equal(existsSync(p.path('proj/ran-by-hookrt')), false, "Claude's own settings.json is Claude's to run")
  const pid = Number(readFileSync(p.path('proj/sleeper.pid'), 'utf8'))
  assert.equal(existsSync(`/proc/${pid}`), false, 'the sleeping hook was killed')

  r = run(p, ['hook', 'claude', '--budget', '0.5', '--fail-closed', 'PreToolUse'], { input: call })
  assert.equal(JSON.parse(r.out).hookSpecificOutput.permissionDecision, 'deny')
  assert.match(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason, /hookrt failed closed/)

  r = run(p, ['hook', 'claude', '--budget', '0.5', '--include-own'], { input: call })
  assert.equal(existsSync(p.path('proj/ran-by-hookrt')), true, '--include-own reads them too')

  // --fail-closed given to install goes into the entries, which uninstall still finds.
  r = run(p, ['install', 'claude', '--fail-closed', 'PreToolUse'])
  const entry = JSON.parse(readFileSync(p.path('proj/.claude/settings.json'), 'utf8')).hooks.PreToolUse.at(-1).hooks[0].command
  assert.match(entry, / hook claude --event PreToolUse --fail-closed PreToolUse$/)
  assert.equal(run(p, ['uninstall', 'claude']).code, 0)
  assert.deepEqual(JSON.parse(readFileSync(p.path('proj/.claude/settings.json'), 'utf8')), { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch ran-by-hookrt; exit 2' }] }] } })

  // doctor: the installed entries, and a program that is gone.
  p.write('gone/hookrt', '#!/bin/sh\nexit 0\n')
  chmodSync(p.path('gone/hookrt'), 0o755)
  assert.equal(run(p, ['install', 'claude', '--program', p.path('gone/hookrt')]).code, 0)
  rmSync(p.path('gone'), { recursive: true })
  r = run(p, ['doctor', '--require-hook-approval=off'])
  assert.equal(r.code, 1)
  assert.match(r.out, /^PROBLEM\tinside claude \(Project\): \d+ hookrt entries in .*settings\.json$/m)
  assert.match(r.out, /the entries start .*gone\/hookrt, which does not exist/)
  assert.match(r.out, /hookrt serve: not running/)
  assert.equal(run(p, ['uninstall', 'claude']).code, 0)

  r = run(p, ['hook', 'claude'], { input: 'not json' })
  assert.equal(r.code, 0)
  assert.match(r.err, /not a JSON object/)
})

test('hook: a PostToolUse block reaches the model as the harness would show it (Codex post_tool_use.rs, Claude PostToolUse)', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  // a guard in a file hookrt reads inside every host, exiting 2 with its reason on stderr
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:after': [{ hooks: [{ type: 'shell', command: 'echo "lint failed" >&2; exit 2' }] }] } })
  TRUST.codex(p)
  TRUST.claude(p)
  const call = (name) => JSON.stringify({ session_id: 's', hook_event_name: 'PostToolUse', cwd: p.path('proj'), tool_name: name,
    tool_input: { command: 'ls' }, tool_response: 'ok', tool_use_id: 'c1', turn_id: 't', model: 'm' })
  for (const [host, tool] of [['codex', 'Bash'], ['claude', 'Bash']]) {
    const r = run(p, ['hook', host, '--event', 'PostToolUse'], { input: call(tool) })
    assert.equal(r.code, 0, r.err)
    assert.deepEqual(JSON.parse(r.out), { decision: 'block', reason: 'lint failed' }, `${host}: ${r.out} ${r.err}`)
  }
  // nothing to say: nothing printed
  p.write('proj/.dsh-hooks.json', { version: 1, events: { 'tool:after': [{ hooks: [{ type: 'shell', command: 'true' }] }] } })
  assert.equal(run(p, ['hook', 'codex', '--event', 'PostToolUse'], { input: call('Bash') }).out, '')
})
