// The one-shot `hookrt` commands (SPEC §12).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { project, answer, bin, root } from './helpers.mjs'

function hookrt(p, args, opts = {}) {
  const trust = args.some((a) => a.startsWith('--require-hook-approval')) ? [] : ['--require-hook-approval=off']
  const r = spawnSync(process.execPath, [bin, ...args, ...trust, '--cwd', p.path('proj'), '--home', p.path('home'), '--managed-settings', p.path('managed-settings.json')], {
    encoding: 'utf8',
    ...opts,
    env: { ...process.env, ...(opts.env ?? {}) },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

test('validate: clean, errors, --strict warnings, --json', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'true' }] }] })
  let r = hookrt(p, ['validate'])
  assert.equal(r.code, 0, r.err)
  assert.match(r.out, /1 file\(s\), 1 hook\(s\), 0 problem\(s\)/)

  p.claude({ Stop: [{ matcher: 'x', hooks: [{ command: 'true' }] }] })
  assert.equal(hookrt(p, ['validate']).code, 0)
  r = hookrt(p, ['validate', '--strict'])
  assert.equal(r.code, 1)
  assert.match(r.out, /^warning: .*settings\.json: hooks\[Stop\]\[0\]: matcher has no effect on Stop/m)

  p.write('proj/.dsh-hooks.json', '{"events": {"tool:before": [{"hooks": [{"type": "warp"}]}]}}')
  r = hookrt(p, ['validate', '--json'])
  assert.equal(r.code, 1)
  const diags = JSON.parse(r.out)
  // The loader's diagnostic, then the schema's at the same place.
  const [loader, schema] = diags.slice(-2)
  assert.equal(loader.message, 'events[tool:before][0].hooks[0]: unknown hook type "warp"')
  assert.equal(loader.event, 'tool:before')
  assert.match(schema.message, /^events\[tool:before\]\[0\]\.hooks\[0\]: unknown hook type "warp" .*\(native schema\)$/)
})

test('run prints {outcome, runs, canonical} and exits 2 on deny', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ command: "echo 'no shell today' >&2; exit 2" }] },
      { matcher: 'Read', hooks: [{ command: answer({ systemMessage: 'read ok' }) }] },
    ],
  })
  const payload = p.write('payload.json', { tool_name: 'Bash', tool_input: { command: 'ls' } })
  let r = hookrt(p, ['run', '--event', 'PreToolUse', '--payload', payload])
  assert.equal(r.code, 2, r.err)
  const v = JSON.parse(r.out)
  assert.deepEqual(Object.keys(v).sort(), ['canonical', 'outcome', 'runs'])
  assert.equal(v.outcome.reason, 'no shell today')

  r = hookrt(p, ['run', '--event', 'PreToolUse', '--payload', '-'], { input: '{"tool_name":"Read"}' })
  assert.equal(r.code, 0, r.err)
  assert.deepEqual(JSON.parse(r.out).outcome.messages, ['read ok'])

  r = hookrt(p, ['run', '--event', 'PreToolUse', '--subject', 'Bash'])
  assert.equal(r.code, 2)

  r = hookrt(p, ['run', '--event', 'Nope'])
  assert.equal(r.code, 1)
  assert.match(r.err, /unknown event "Nope"/)
  r = hookrt(p, ['run', '--event', 'Stop', '--payload', '-'], { input: '[1]' })
  assert.equal(r.code, 1)
  assert.match(r.err, /payload must be a JSON object/)
})

test('dump and list show the merged configuration', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('home/.codex/hooks.json', { hooks: { Stop: [{ hooks: [{ command: 'true' }] }] } })
  p.claude({ Stop: [{ hooks: [{ command: 'echo proj' }, { command: 'echo off', enabled: false }] }] })
  let r = hookrt(p, ['list'])
  assert.equal(r.code, 0)
  assert.deepEqual(r.out.trimEnd().split('\n'), [
    `global\tcodex\t${p.path('home/.codex/hooks.json')}`,
    '  codex:hooks.json:Stop:0:0\t*\tenabled',
    `project\tclaude\t${p.path('proj/.claude/settings.json')}`,
    '  claude:settings.json:Stop:0:0\t*\tenabled',
    '  claude:settings.json:Stop:0:1\t*\tdisabled',
  ])
  r = hookrt(p, ['dump'])
  const d = JSON.parse(r.out)
  assert.deepEqual(d.hooks.map((h) => h.id), ['codex:hooks.json:Stop:0:0', 'claude:settings.json:Stop:0:0', 'claude:settings.json:Stop:0:1'])
  assert.deepEqual(d.hooks.map((h) => h.enabled), [true, true, false])
})

// Claude Code's 2026 events (and Codex's Interrupt): every name validates and runs.
const EVENTS_2026 = ['SessionStart', 'Setup', 'UserPromptSubmit', 'UserPromptExpansion', 'PreToolUse', 'PermissionRequest',
  'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'MessageDisplay', 'SubagentStart',
  'SubagentStop', 'TaskCreated', 'TaskCompleted', 'Stop', 'StopFailure', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange',
  'CwdChanged', 'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove', 'PreCompact', 'PostCompact', 'Elicitation',
  'ElicitationResult', 'SessionEnd', 'PreModelSwitch', 'PostModelSwitch']

test('validate is clean and run accepts every 2026 event name', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude(Object.fromEntries(EVENTS_2026.map((e) => [e, [{ hooks: [{ type: 'command', command: `cat >/dev/null; echo ${e} >&2; exit 2` }] }]])))
  p.write('proj/.codex/hooks.json', { hooks: { Interrupt: [{ hooks: [{ command: 'echo interrupted' }] }], PostCompact: [{ hooks: [{ command: 'true' }] }] } })
  let r = hookrt(p, ['validate', '--strict'])
  assert.equal(r.code, 0, r.out + r.err)
  for (const e of [...EVENTS_2026, 'Interrupt']) {
    r = hookrt(p, ['run', '--event', e, '--payload', '-'], { input: '{"tool_name":"Bash"}' })
    assert.ok(r.code === 0 || r.code === 2, `${e}: ${r.code} ${r.err}`)
    const res = JSON.parse(r.out)
    assert.ok(res.runs.length >= 1, `${e} ran nothing`)
  }
})

test('version, help, bad flags', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const v = hookrt(p, ['version'])
  assert.equal(v.code, 0)
  assert.match(v.out, /^hookrt \d+\.\d+\.\d+/)
  const h = hookrt(p, ['help'])
  assert.equal(h.code, 0)
  assert.match(h.out, /listen/)
  assert.match(h.out, /validate/)
  let r = hookrt(p, ['listen', '--bogus'])
  assert.equal(r.code, 1)
  assert.match(r.err, /unexpected argument '--bogus'/)
  assert.equal(r.out, '')
  r = hookrt(p, ['validate', '--llm-base-url', 'http://127.0.0.1:9'])
  assert.equal(r.code, 1)
  assert.match(r.err, /--llm-model/)
  r = hookrt(p, ['validate', '--timeout', 'soon'])
  assert.equal(r.code, 1)
  r = hookrt(p, ['validate', '--timeout', '0'])
  assert.equal(r.code, 1)
  assert.match(r.err, /timeoutSec must be a positive number/)
})

test('HOOKRT_LOG sends logs to stderr, never stdout', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({ Stop: [{ hooks: [{ command: 'echo boom >&2; exit 3' }] }] })
  const r = hookrt(p, ['run', '--event', 'Stop'], { env: { HOOKRT_LOG: 'debug' } })
  assert.equal(r.code, 0)
  JSON.parse(r.out)
  assert.match(r.err, /exited with code 3: boom/)
  const quiet = hookrt(p, ['run', '--event', 'Stop'], { env: { HOOKRT_LOG: 'error' } })
  assert.equal(quiet.err, '')
})

test('trust list, approve and revoke Hermes hooks', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const script = p.write('home/.hermes/agent-hooks/guard.sh', 'echo \'{"decision":"block","reason":"guarded"}\'\n')
  p.write('home/.hermes/config.yaml', `hooks:\n  pre_tool_call:\n    - command: sh ${script}\n`)
  const payload = p.write('payload.json', { tool_name: 'terminal' })
  const strict = ['--require-hook-approval']
  let r = hookrt(p, ['trust', 'list'])
  assert.equal(r.code, 0, r.err)
  assert.match(r.out, new RegExp(`^unapproved\\tglobal\\tpre_tool_call\\t[0-9a-f]{12}\\tsh ${script}$`, 'm'))
  assert.equal(hookrt(p, ['run', '--event', 'pre_tool_call', '--payload', payload, ...strict]).code, 0)

  r = hookrt(p, ['trust', 'approve', `sh ${script}`])
  assert.equal(r.code, 0, r.err)
  assert.match(hookrt(p, ['trust', 'list']).out, /^approved\t/m)
  r = hookrt(p, ['run', '--event', 'pre_tool_call', '--payload', payload, ...strict])
  assert.equal(r.code, 2)
  assert.equal(JSON.parse(r.out).outcome.reason, 'guarded')

  // An edited script needs approval again.
  p.write('home/.hermes/agent-hooks/guard.sh', 'echo \'{"decision":"block","reason":"edited"}\'\n')
  assert.match(hookrt(p, ['trust', 'list']).out, /^changed\t/m)
  assert.equal(hookrt(p, ['run', '--event', 'pre_tool_call', '--payload', payload, ...strict]).code, 0)
  assert.equal(hookrt(p, ['trust', 'approve', '--all']).code, 0)
  assert.equal(hookrt(p, ['run', '--event', 'pre_tool_call', '--payload', payload, ...strict]).code, 2)

  r = hookrt(p, ['trust', 'revoke', `sh ${script}`])
  assert.equal(r.code, 0)
  assert.match(r.out, /revoked 1 approval/)
  assert.equal(hookrt(p, ['trust', 'approve', 'nope']).code, 1)
  assert.equal(hookrt(p, ['trust', 'approve']).code, 1)
})

test('doctor checks programs, trial-runs every hook and names the problems', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.claude({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { command: `printf '%s' '{"decision":"approve"}'` },
          { command: './missing.sh' },
          { command: "printf '{bad'" },
          { command: 'echo oops >&2; exit 3' },
        ],
      },
    ],
    Stop: [{ hooks: [{ command: 'sleep 30', timeout: 0.3 }] }],
  })
  const r = hookrt(p, ['doctor', '--json'])
  assert.equal(r.code, 1, r.err)
  const reports = JSON.parse(r.out)
  assert.deepEqual(
    reports.map((x) => [x.id.split(':').slice(2).join(':'), x.decision, x.problems.length]),
    [
      ['PreToolUse:0:0', 'allow', 0],
      ['PreToolUse:0:1', 'none', 2],
      ['PreToolUse:0:2', 'none', 1],
      ['PreToolUse:0:3', 'none', 1],
      ['Stop:0:0', 'none', 1],
    ],
  )
  assert.equal(reports[1].problems[0], './missing.sh does not exist')
  assert.match(reports[2].problems[0], /not a valid JSON object/)
  assert.equal(reports[3].problems[0], 'exited with code 3 (a non-blocking error): oops')
  assert.equal(reports[4].problems[0], 'could not run: timed out after 0.3s')
  const text = hookrt(p, ['doctor'])
  assert.match(text.out, /^ok\tclaude:settings\.json:PreToolUse:0:0\tdecision=allow\t\d+ ms$/m)
  assert.match(text.out, /5 hook\(s\), 4 with problems/)
  p.claude({ Stop: [{ hooks: [{ command: 'true' }] }] })
  assert.equal(hookrt(p, ['doctor']).code, 0)
})

test('a config file the user cannot read is the diagnostic "cannot read config: Permission denied"', (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root to switch to an unprivileged user')
  const p = project()
  t.after(() => p.cleanup())
  const file = p.claude({ Stop: [{ hooks: [{ command: 'true' }] }] })
  chmodSync(p.dir, 0o755)
  for (const d of ['proj', 'proj/.claude', 'home']) chmodSync(p.path(d), 0o755)
  chmodSync(file, 0o600) // root's file: unreadable for nobody
  const native = join(root, 'bin', 'hookrt-native')
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', native, 'validate', '--json',
    '--cwd', p.path('proj'), '--home', p.path('home'), '--managed-settings', p.path('m.json'), '--system-dir', p.path('etc')], { encoding: 'utf8' })
  assert.equal(r.status, 1, r.stderr)
  const diags = JSON.parse(r.stdout)
  assert.deepEqual(diags.filter((d) => d.file === file).map((d) => d.message), ['cannot read config: Permission denied'])
  // The same check as root reads the file.
  const ok = spawnSync(native, ['validate', '--json', '--cwd', p.path('proj'), '--home', p.path('home'), '--managed-settings', p.path('m.json'), '--require-hook-approval=off'], { encoding: 'utf8' })
  assert.deepEqual(JSON.parse(ok.stdout), [])
})

test('schema: hookrt schema prints a draft 2020-12 schema with its $id; validate reports where a file breaks it', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  let r = hookrt(p, ['schema', '--dialect', 'claude'])
  assert.equal(r.code, 0, r.err)
  const s = JSON.parse(r.out)
  assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema')
  assert.equal(s.$id, 'https://hookrt.dev/schemas/claude.schema.json')
  assert.deepEqual(JSON.parse(readFileSync(new URL('../schemas/claude.schema.json', import.meta.url), 'utf8')), s)
  r = hookrt(p, ['schema', '--dialect', 'cline'])
  assert.equal(r.code, 1)
  assert.match(r.err, /cline has no hook file to describe/)
  p.claude({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }, { type: 'command', timeout: 5 }] }] })
  r = hookrt(p, ['validate', '--json'])
  assert.equal(r.code, 1)
  const schema = JSON.parse(r.out).filter((d) => d.message.endsWith('(claude schema)'))
  assert.equal(schema.length, 1, r.out)
  assert.equal(schema[0].event, 'PreToolUse')
  assert.match(schema[0].message, /^hooks\[PreToolUse\]\[0\]\.hooks\[1\]: .*command/)
})
