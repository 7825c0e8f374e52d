// Gemini CLI, Cursor, Copilot and Windsurf files through the JS API, `hookrt listen` and
// `hookrt convert` (the Rust tests in tests/it/harnesses.rs cover each dialect in depth).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFileSync, existsSync } from 'node:fs'
import { project, answer, bin } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')

test('JS API: a Claude-spelt dispatch runs Gemini and Cursor hooks; their own spellings dispatch too', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.gemini/settings.json', {
    hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: `cat > ${p.path('g.in')}; ${answer({ hookSpecificOutput: { tool_input: { command: 'ls -a' } } })}` }] }] },
  })
  // Gemini CLI runs no hook, user-level or project, in a folder it does not trust.
  p.write('home/.gemini/trustedFolders.json', { [p.path('proj')]: 'TRUST_FOLDER' })
  p.write('home/.cursor/hooks.json', { version: 1, hooks: { beforeShellExecution: [{ command: answer({ permission: 'ask', user_message: 'really?' }) }] } })
  const rt = createRuntime(p.options())
  t.after(() => rt.close())
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls', description: 'd' } })
  assert.equal(r.outcome.decision, 'ask')
  assert.deepEqual(r.outcome.updateInputs, [{ command: 'ls -a', description: 'd' }])
  assert.deepEqual(r.runs.map((x) => x.hook.dialect), ['gemini', 'cursor'])
  assert.equal(JSON.parse(readFileSync(p.path('g.in'), 'utf8')).tool_name, 'run_shell_command')
  const own = await rt.dispatch('beforeShellExecution', { command: 'ls' })
  assert.deepEqual(own.runs.map((x) => x.hook.dialect), ['gemini', 'cursor'])
  assert.equal((await rt.dispatch('PreToolUse', { tool_name: 'Grep' })).runs.length, 0)
})

test('listen: Copilot exit 2 warns on agentStop and denies on preToolUse', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.github/hooks/a.json', {
    version: 1,
    hooks: {
      agentStop: [{ type: 'command', bash: 'echo just a warning >&2; exit 2' }],
      preToolUse: [{ type: 'command', matcher: 'bash', bash: 'echo no shell >&2; exit 2' }],
    },
  })
  const lines = [
    { id: 1, op: 'dispatch', event: 'Stop', payload: { session_id: 's' } },
    { id: 2, op: 'dispatch', event: 'PreToolUse', payload: { tool_name: 'Bash' } },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n'
  const r = spawnSync(bin, ['listen', '--cwd', p.path('proj'), '--home', p.path('home'), '--managed-settings', p.path('m.json'), '--system-dir', p.path('etc')], { input: lines, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  const out = Object.fromEntries(r.stdout.trim().split('\n').map((l) => JSON.parse(l)).map((l) => [l.id, l]))
  assert.equal(out[1].outcome.decision, 'none', JSON.stringify(out[1]))
  assert.equal(out[1].runs[0].outcome.exitCode, 2)
  assert.equal(out[2].outcome.decision, 'deny', JSON.stringify(out[2]))
  // Copilot keeps the hook's stderr from the model (e2e/recordings/copilot-cli/S2)
  assert.equal(out[2].outcome.reason, 'hook exited with code 2')
})

test('convert: Claude seconds become Gemini milliseconds; warnings on stderr', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const src = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }], WorktreeCreate: [{ hooks: [{ command: 'w.sh' }] }] } })
  const r = spawnSync(bin, ['convert', '--from', 'claude', '--to', 'gemini', '-'], { input: src, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  const v = JSON.parse(r.stdout)
  assert.deepEqual(v.hooks.BeforeTool, [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5000 }] }])
  assert.match(r.stderr, /^warning: .*gemini has no worktree:create event; not converted$/m)
})

test('convert: Claude to Droid (events at the root, Execute) to Qwen (run_shell_command), from a relative path', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 1200 }] }] } })
  const run = (args, input) => spawnSync(bin, ['convert', ...args], { cwd: p.path('proj'), input, encoding: 'utf8' })
  const droid = run(['--from', 'claude', '--to', 'droid', '.claude/settings.json'])
  assert.equal(droid.status, 0, droid.stderr)
  assert.deepEqual(JSON.parse(droid.stdout), { PreToolUse: [{ matcher: 'Execute', hooks: [{ type: 'command', command: 'guard.sh', timeout: 1200 }] }] })
  // Qwen Code reads a timeout of 1000 or more as milliseconds: 1200 s is written as 1200000
  const qwen = run(['--from', 'droid', '--to', 'qwen', '-'], droid.stdout)
  assert.equal(qwen.status, 0, qwen.stderr)
  assert.deepEqual(JSON.parse(qwen.stdout).hooks.PreToolUse, [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'guard.sh', timeout: 1200000 }] }])
})

test('a Cline hook file: found by its name, run by its shebang, its cancel stops the run', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.clinerules/hooks/PreToolUse.py', [
    '#!/usr/bin/env python3', 'import json, sys', 'd = json.load(sys.stdin)',
    'print(json.dumps({"cancel": d["preToolUse"]["toolName"] == "run_commands", "errorMessage": "no shell for " + d["hookName"]}))',
  ].join('\n'))
  p.write('proj/.clinerules/hooks/notes.txt', 'not a hook')
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  const shell = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })
  assert.equal(shell.outcome.decision, 'deny')
  assert.equal(shell.outcome.reason, 'no shell for tool_call')
  assert.equal(shell.outcome.stop, true)
  const read = await rt.dispatch('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } })
  assert.equal(read.outcome.decision, 'none')
  assert.equal(read.runs.length, 1)
})

test('Kimi Code: [[hooks]] in ~/.kimi-code/config.toml; exit 2 and permissionDecision deny block, other exits fail open', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('home/.kimi-code/config.toml', [
    '[model]', 'name = "k2"', '',
    '[[hooks]]', 'event = "PreToolUse"', 'matcher = "Bash"', `command = "cat > ${p.path('stdin.json')}; echo no rm >&2; exit 2"`, '',
    '[[hooks]]', 'event = "PreToolUse"', 'matcher = "Write"',
    `command = "echo '{\\"hookSpecificOutput\\":{\\"permissionDecision\\":\\"deny\\",\\"permissionDecisionReason\\":\\"not there\\"}}'"`, '',
    '[[hooks]]', 'event = "PreToolUse"', 'matcher = "Read"', 'command = "exit 1"', 'timeout = 5', '',
  ].join('\n'))
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  const bash = await rt.dispatch('PreToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, tool_use_id: 'c1' })
  assert.equal(bash.outcome.decision, 'deny')
  assert.equal(bash.outcome.reason, 'no rm')
  const stdin = JSON.parse(readFileSync(p.path('stdin.json'), 'utf8'))
  // as Kimi Code 2.1.0 sends it (e2e/recordings/kimi)
  assert.deepEqual(Object.keys(stdin), ['hook_event_name', 'session_id', 'cwd', 'client_type', 'tool_name', 'tool_input', 'tool_call_id'])
  assert.equal(stdin.tool_call_id, 'c1')
  assert.equal(stdin.client_type, 'kimi_code_cli')
  const write = await rt.dispatch('PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'a' } })
  assert.equal(write.outcome.decision, 'deny')
  assert.equal(write.outcome.reason, 'not there')
  const read = await rt.dispatch('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } })
  assert.equal(read.outcome.decision, 'none')
  assert.equal(read.runs[0].outcome.exitCode, 1)
})

test('Auggie: .augment/settings.json hooks, exec form without a shell, indented stdin, answers only through hookSpecificOutput', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/deny.js', `process.stdin.resume(); process.stdin.on('end', () => { console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not there ' + process.argv[2] } })) })`)
  p.write('proj/.augment/settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: 'launch', hooks: [{ type: 'command', command: `cat > ${p.path('stdin.json')}; env > ${p.path('env.txt')}; echo no rm >&2; exit 2` }] },
        // exec form: the argument reaches node as one word, `|` and all
        { matcher: 'save-file', hooks: [{ type: 'command', command: process.execPath, args: [p.path('proj/deny.js'), 'a|b'] }] },
        // a top-level decision is not an Auggie answer
        { matcher: '^view$', hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"claude-style"}'` }] },
      ],
      // one entry Auggie's schema refuses drops the whole event
      PostToolUse: [{ hooks: [{ command: 'touch never' }] }],
    },
  })
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  assert.ok(rt.diagnostics.some((d) => /hooks\[PostToolUse\]\[0\]\.hooks\[0\]: missing field `type`/.test(d.message)), JSON.stringify(rt.diagnostics))
  const bash = await rt.dispatch('PreToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })
  assert.equal(bash.outcome.decision, 'deny')
  assert.equal(bash.outcome.reason, 'no rm')
  const text = readFileSync(p.path('stdin.json'), 'utf8')
  assert.ok(text.startsWith('{\n  "hook_event_name": "PreToolUse"') && !text.endsWith('\n'), text)
  const stdin = JSON.parse(text)
  assert.deepEqual(Object.keys(stdin), ['hook_event_name', 'conversation_id', 'workspace_roots', 'tool_name', 'tool_input', 'tool_error', 'is_mcp_tool'])
  assert.equal(stdin.tool_name, 'launch-process')
  assert.equal(stdin.conversation_id, 's1')
  assert.equal(stdin.tool_error, null)
  const env = readFileSync(p.path('env.txt'), 'utf8')
  assert.match(env, /^AUGMENT_HOOK_EVENT=PreToolUse$/m)
  assert.match(env, /^AUGMENT_TOOL_NAME=launch-process$/m)
  assert.match(env, /^AUGMENT_CONVERSATION_ID=s1$/m)
  const write = await rt.dispatch('PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'a' } })
  assert.equal(write.outcome.decision, 'deny')
  assert.equal(write.outcome.reason, 'not there a|b')
  const read = await rt.dispatch('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } })
  assert.equal(read.runs.length, 1)
  assert.equal(read.outcome.decision, 'none')
  const post = await rt.dispatch('PostToolUse', { tool_name: 'Read', tool_input: {}, tool_response: 'x' })
  assert.equal(post.runs.length, 0)
})

test('convert: Claude to Auggie (milliseconds, launch-process, type command) and back', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }], Stop: [{ hooks: [{ command: 'check.sh' }] }] } })
  const run = (args, input) => spawnSync(bin, ['convert', ...args], { cwd: p.path('proj'), input, encoding: 'utf8' })
  const auggie = run(['--from', 'claude', '--to', 'auggie', '.claude/settings.json'])
  assert.equal(auggie.status, 0, auggie.stderr)
  assert.deepEqual(JSON.parse(auggie.stdout).hooks, {
    PreToolUse: [{ matcher: 'launch-process', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5000 }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'check.sh' }] }],
  })
  const back = run(['--from', 'auggie', '--to', 'claude', '-'], auggie.stdout)
  assert.equal(back.status, 0, back.stderr)
  // Auggie runs a bare word without a shell: it comes back as exec form, 60 s default timeout written out
  assert.deepEqual(JSON.parse(back.stdout).hooks.PreToolUse, [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', args: [], timeout: 5 }] }])
})

test('Antigravity: named hooks in .agents/hooks.json are told from the .agents dialect by shape; enabled:false; decision and injectSteps', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  const named = {
    guard: { PreToolUse: [{ matcher: 'run_command', hooks: [{ command: `cat > ${p.path('stdin.json')}; echo '{"decision":"deny","reason":"no rm"}'`, timeout: 5 }] }] },
    off: { enabled: false, PreToolUse: [{ matcher: '*', hooks: [{ command: `touch ${p.path('ran')}` }] }] },
  }
  p.write('proj/.agents/hooks.json', named)
  p.write('proj/_agents/hooks.json', { tests: { stop: [{ command: `echo '{"decision":"continue","reason":"tests fail","injectSteps":[{"ephemeralMessage":"run npm test"}]}'` }] } })
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  const r = await rt.dispatch('PreToolUse', { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'no rm'])
  assert.deepEqual(r.runs.map((x) => x.hook.dialect), ['antigravity'])
  assert.equal(existsSync(p.path('ran')), false, 'a hook whose named hook is disabled never runs')
  const stdin = JSON.parse(readFileSync(p.path('stdin.json'), 'utf8'))
  assert.deepEqual(Object.keys(stdin), ['conversationId', 'stepIdx', 'toolCall', 'transcriptPath', 'workspacePaths'])
  assert.deepEqual(stdin.toolCall, { name: 'run_command', args: { command: 'rm -rf x' } })
  const stop = await rt.dispatch('Stop', { session_id: 's1' })
  assert.deepEqual([stop.outcome.decision, stop.outcome.reason], ['deny', 'tests fail'])
  assert.deepEqual(stop.outcome.contexts, ['run npm test'])
  // The same path in react-agent-mini's shape is the .agents dialect
  p.write('proj/.agents/hooks.json', { PreToolUse: [{ matcher: 'Bash', command: `echo '{"decision":"deny","reason":"agents"}'` }] })
  const rt2 = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt2.close())
  const r2 = await rt2.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })
  assert.deepEqual(r2.runs.map((x) => x.hook.dialect), ['agents'])
  assert.equal(r2.outcome.reason, 'agents')
})

test('Antigravity: one load-time error drops the whole file, and convert writes one named hook', (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.agent/hooks.json', { a: { Stop: [{ command: 'true' }] }, b: { Stop: [{ type: 'COMMAND', command: 'true' }] } })
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  assert.ok(rt.diagnostics.some((d) => /b\[Stop\]\[0\]: type must be "command" or "prompt".*loads no hook/.test(d.message)), JSON.stringify(rt.diagnostics))
  p.write('proj/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 2.5 }] }], Stop: [{ hooks: [{ type: 'command', command: 'check.sh' }] }] } })
  const out = spawnSync(bin, ['convert', '--from', 'claude', '--to', 'antigravity', '.claude/settings.json'], { cwd: p.path('proj'), encoding: 'utf8' })
  assert.equal(out.status, 0, out.stderr)
  assert.deepEqual(JSON.parse(out.stdout), {
    hookrt: {
      PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: 'guard.sh', timeout: 3 }] }],
      Stop: [{ type: 'command', command: 'check.sh' }],
    },
  })
})

test('Kiro: .kiro/hooks/<name>.json v1 files; exit 2 blocks with stderr, prompt-submit stdout is context, agent actions are not run', async (t) => {
  const p = project()
  t.after(() => p.cleanup())
  p.write('proj/.kiro/hooks/guard.json', {
    version: 'v1',
    hooks: [
      { name: 'no-rm', trigger: 'PreToolUse', matcher: 'execute_bash', action: { type: 'command', command: `cat > ${p.path('stdin.json')}; echo no rm >&2; exit 2` }, timeout: 5 },
      { name: 'ctx', trigger: 'UserPromptSubmit', action: { type: 'command', command: 'echo "repo uses pnpm; you said: $USER_PROMPT"' } },
      { name: 'remind', trigger: 'PreToolUse', action: { type: 'agent', prompt: 'tests?' } },
      { name: 'off', trigger: 'PreToolUse', action: { type: 'command', command: `touch ${p.path('ran')}` }, enabled: false },
    ],
  })
  const rt = createRuntime({ cwd: p.path('proj'), homeDir: p.path('home'), requireHookApproval: false })
  t.after(() => rt.close())
  assert.ok(rt.diagnostics.some((d) => /agent actions/.test(d.message)), JSON.stringify(rt.diagnostics))
  const r = await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })
  assert.deepEqual([r.outcome.decision, r.outcome.reason], ['deny', 'no rm'])
  assert.equal(existsSync(p.path('ran')), false)
  const stdin = JSON.parse(readFileSync(p.path('stdin.json'), 'utf8'))
  assert.deepEqual(stdin, { hook_event_name: 'PreToolUse', cwd: p.path('proj'), tool_name: 'execute_bash', tool_input: { command: 'rm -rf x' } })
  const prompt = await rt.dispatch('UserPromptSubmit', { prompt: 'add a dep' })
  assert.deepEqual(prompt.outcome.contexts, ['repo uses pnpm; you said: add a dep'])
  const read = await rt.dispatch('PreToolUse', { tool_name: 'Read', tool_input: { path: 'a' } })
  assert.equal(read.runs.length, 0)
  const conv = spawnSync(bin, ['convert', '--from', 'kiro', '--to', 'claude', '.kiro/hooks/guard.json'], { cwd: p.path('proj'), encoding: 'utf8' })
  assert.equal(conv.status, 0, conv.stderr)
  assert.equal(JSON.parse(conv.stdout).hooks.PreToolUse[0].matcher, 'Bash')
  const back = spawnSync(bin, ['convert', '--from', 'claude', '--to', 'kiro', '-'], { cwd: p.path('proj'), input: conv.stdout, encoding: 'utf8' })
  assert.equal(back.status, 0, back.stderr)
  assert.deepEqual(JSON.parse(back.stdout).hooks[0], { name: 'PreToolUse-1', trigger: 'PreToolUse', matcher: 'execute_bash', action: { type: 'command', command: `cat > ${p.path('stdin.json')}; echo no rm >&2; exit 2` }, timeout: 5 })
})
