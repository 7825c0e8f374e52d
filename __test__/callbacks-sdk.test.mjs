// An Agent SDK hook callback, typed with the Claude Agent SDK's own types and left unchanged,
// type-checks against hookrt's wrapper.d.ts and runs through a real runtime. The SDK (types
// only: its CLI binaries are left out) and TypeScript are installed once into ~/.cache.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { project, root } from './helpers.mjs'

const SDK = '@anthropic-ai/claude-agent-sdk@0.3.336'
const TS = 'typescript@5.9.3'
const cache = join(homedir(), '.cache', 'hookrt-sdk-types')

function installed() {
  const mods = join(cache, 'node_modules')
  if (!existsSync(join(mods, '@anthropic-ai/claude-agent-sdk/sdk.d.ts')) || !existsSync(join(mods, 'typescript/bin/tsc'))) {
    mkdirSync(cache, { recursive: true })
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--omit=optional', '--ignore-scripts', '--no-save', '--prefix', cache, SDK, TS], { encoding: 'utf8', timeout: 300_000 })
    assert.equal(r.status, 0, `npm install ${SDK} ${TS}: ${r.stderr}`)
  }
  return mods
}

const GUARD = `
import type { HookCallback, HookJSONOutput, Options, PreToolUseHookInput } from '@anthropic-ai/claude-agent-sdk'
import { createRuntime } from 'hookrt'

declare const process: { argv: string[] }

// Written for the Agent SDK, as its docs show; not a line changed for hookrt.
const blockDangerous: HookCallback = async (input, toolUseID, { signal }): Promise<HookJSONOutput> => {
  if (input.hook_event_name !== 'PreToolUse' || signal.aborted) return {}
  const pre = input as PreToolUseHookInput
  const command = (pre.tool_input as { command?: string }).command ?? ''
  if (!command.includes('rm -rf')) return {}
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: \`\${command} (\${toolUseID}) is dangerous\`,
    },
  }
}
const hooks: Options['hooks'] = { PreToolUse: [{ matcher: 'Bash', hooks: [blockDangerous], timeout: 5 }] }

const [cwd, homeDir] = process.argv.slice(2)
const rt = createRuntime({ cwd, homeDir, requireHookApproval: false, hooks })
const payload = (command: string) => ({ session_id: 's', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_9' })
const denied = await rt.dispatch('PreToolUse', payload('rm -rf /'))
const allowed = await rt.dispatch('PreToolUse', payload('ls'))
rt.close()
console.log(JSON.stringify({ denied: denied.outcome, allowed: allowed.outcome, kind: denied.runs[0]?.hook.kind }))
`

test('an unchanged Agent SDK hook callback type-checks against wrapper.d.ts and runs', { timeout: 400_000 }, (t) => {
  const mods = installed()
  const p = project()
  t.after(() => p.cleanup())
  mkdirSync(p.path('ts/node_modules/@anthropic-ai'), { recursive: true })
  symlinkSync(join(mods, '@anthropic-ai/claude-agent-sdk'), p.path('ts/node_modules/@anthropic-ai/claude-agent-sdk'))
  symlinkSync(root, p.path('ts/node_modules/hookrt'))
  p.write('ts/guard.mts', GUARD)
  p.write('ts/tsconfig.json', {
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: true, lib: ['es2022', 'dom'], types: [], outDir: 'out' },
    files: ['guard.mts'],
  })
  const tsc = spawnSync(process.execPath, [join(mods, 'typescript/bin/tsc'), '-p', p.path('ts')], { encoding: 'utf8' })
  assert.equal(tsc.status, 0, `tsc: ${tsc.stdout}${tsc.stderr}`)
  const run = spawnSync(process.execPath, [p.path('ts/out/guard.mjs'), p.path('proj'), p.path('home')], { encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  const got = JSON.parse(run.stdout.trim().split('\n').at(-1))
  assert.equal(got.kind, 'callback')
  assert.equal(got.denied.decision, 'deny')
  assert.equal(got.denied.reason, 'rm -rf / (toolu_9) is dangerous')
  assert.equal(got.allowed.decision, 'none')
})
