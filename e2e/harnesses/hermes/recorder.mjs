#!/usr/bin/env node
// Recorder for Hermes Agent shell hooks (config.yaml `hooks:` block).
// Command line (as written into config.yaml by run.sh):
//   node /abs/recorder.mjs --event <configured event> [--label <tag>] --control /abs/control.json
// Hermes pipes one JSON object on stdin:
//   {hook_event_name, tool_name, tool_input, session_id, cwd, extra:{...}}
// The recorder appends ONE JSON line to the log named in the control file (or $RECORDER_LOG)
// BEFORE acting, then answers according to the mode for this event:
//   control.json = {"log": "/abs/hooks.jsonl", "default": "allow", "events": {"pre_tool_call": "exit2"},
//                   "labels": {"<label>": "<mode>"}, "state": "/abs/state-dir"}
//   $RECORDER_MODE overrides the default mode when set.
// Modes: allow | exit2 | json-deny | json-deny-hermes | context | update-input | stop-block | sleep | exit1
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const t0 = Date.now()
const argv = process.argv.slice(2)
const opt = k => { const i = argv.indexOf('--' + k); return i >= 0 ? argv[i + 1] : undefined }
const controlPath = opt('control') ?? process.env.RECORDER_CONTROL
let control = {}
try { if (controlPath) control = JSON.parse(fs.readFileSync(controlPath, 'utf8')) } catch (e) { control = { controlError: String(e) } }

let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let stdin = null
try { stdin = JSON.parse(raw) } catch { stdin = null }

const event = stdin?.hook_event_name ?? opt('event') ?? 'unknown'
const label = opt('label')
const mode = (label && control.labels?.[label]) ?? control.events?.[event] ?? process.env.RECORDER_MODE ?? control.default ?? 'allow'

const PREFIXES = ['CLAUDE_', 'GEMINI_', 'CODEX_', 'HERMES_', 'COPILOT_', 'TERMINAL_', 'RECORDER_', 'MOCK_']
const env = {}
for (const [k, v] of Object.entries(process.env)) if (PREFIXES.some(p => k.startsWith(p))) env[k] = v
for (const k of ['HOME', 'PWD', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'SHELL', 'TERM']) if (k in process.env) env[k] = process.env[k]

// stop-block answers "block" only the first time per event (state file under control.state).
const stateDir = control.state ?? (controlPath ? path.dirname(controlPath) : os.tmpdir())
const stateFile = path.join(stateDir, `recorder-${event}-stopblock.done`)
let effective = mode
if (mode === 'stop-block' && fs.existsSync(stateFile)) effective = 'allow'

const logFile = control.log ?? process.env.RECORDER_LOG ?? path.join(os.tmpdir(), 'recorder.jsonl')
// (hookrt) how the hook was started — the parent's command line and `_` tell `sh -c`, `bash -c` (which
// execs the command itself and sets `_`) and no shell apart —, whether stdin ended with a newline, and the
// recorder's own control variables: what the replay tests in ../../__test__/ compare.
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
const entry = { ...probe,
  t: new Date(t0).toISOString(), tMs: t0, event, configuredEvent: opt('event'), label, mode, effective,
  pid: process.pid, ppid: process.ppid, argv: process.argv, cwd: process.cwd(), env,
  stdinRaw: stdin ? undefined : raw, stdin,
}
fs.appendFileSync(logFile, JSON.stringify(entry) + '\n')

const out = s => process.stdout.write(s + '\n')
switch (effective) {
  case 'allow': process.exit(0)
  case 'exit2': process.stderr.write('blocked by recorder\n'); process.exit(2)
  case 'exit1': process.stderr.write('oops\n'); process.exit(1)
  case 'json-deny': // Claude-Code-style shape documented for Hermes pre_tool_call
    out(JSON.stringify({ decision: 'block', reason: 'json deny from recorder' })); process.exit(0)
  case 'json-deny-hermes': // Hermes-canonical shape
    out(JSON.stringify({ action: 'block', message: 'json deny from recorder' })); process.exit(0)
  // the unusual answers (hookrt's S12-S15)
  case 'exit1-json-deny': // a guard that prints its block and exits 1
    out(JSON.stringify({ decision: 'block', reason: 'json deny from recorder' })); process.exit(1)
  case 'log-then-json': // a log line before the JSON
    out('checking...'); out(JSON.stringify({ decision: 'block', reason: 'json deny from recorder' })); process.exit(0)
  case 'hso-deny': // Claude Code's own deny shape
    out(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } })); process.exit(0)
  case 'continue-false': // Claude Code's stop-everything answer
    out(JSON.stringify({ continue: false, stopReason: 'stopped by recorder' })); process.exit(0)
  case 'context': // documented for pre_llm_call (the only shell-hook event that consumes it)
    out(JSON.stringify({ context: 'CONTEXT-FROM-HOOK' })); process.exit(0)
  case 'update-input': // Hermes documents no input rewrite for shell hooks; try the common shapes at once
    out(JSON.stringify({
      tool_input: { command: 'echo changed' }, args: { command: 'echo changed' },
      updatedInput: { command: 'echo changed' }, action: 'modify',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo changed' } },
    })); process.exit(0)
  case 'stop-block': // pre_verify: {"decision":"block"} == keep going (also accepts {"action":"continue","message":...})
    fs.writeFileSync(stateFile, new Date().toISOString())
    out(JSON.stringify({ decision: 'block', reason: 'keep going' })); process.exit(0)
  case 'sleep':
    setTimeout(() => {
      fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), tMs: Date.now(), event, label, note: 'sleep finished (not killed)', pid: process.pid }) + '\n')
      process.exit(0)
    }, 5000)
    break
  default: process.stderr.write('unknown recorder mode ' + effective + '\n'); process.exit(0)
}
