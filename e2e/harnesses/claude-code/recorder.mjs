#!/usr/bin/env node
// Recorder hook for Claude Code command hooks (no dependencies).
// Usage (in a settings.json hook "command"):  node recorder.mjs --ctl /abs/ctl.json [--tag NAME]
// The control file (JSON) holds:
//   { "log": "/abs/hooks.jsonl",       one JSON line appended per call
//     "mode": "allow",                 allow|exit2|json-deny|context|update-input|stop-block|sleep|exit1|perm-allow|
//                                      exit1-json-deny|exit2-json-stdout|exit2-plain-stdout|truncated-json|
//                                      log-then-json|exit3-plain-stdout|killed|json-deny-second
//     "tagModes": {"first": …}      a hook's own mode by its --tag (overrides mode/events)
//     "events": ["PreToolUse"] }       events the mode applies to (missing/empty: every event); others get allow
// Env overrides: RECORDER_MODE, RECORDER_EVENTS (comma list), RECORDER_LOG.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const argv = process.argv.slice(2)
const arg = k => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : undefined }
const ctlPath = arg('--ctl') ?? process.env.RECORDER_CTL
const tag = arg('--tag') ?? null
let ctl = {}
try { if (ctlPath) ctl = JSON.parse(fs.readFileSync(ctlPath, 'utf8')) } catch (e) { ctl = { ctlError: String(e) } }
const logFile = process.env.RECORDER_LOG ?? ctl.log ?? path.join(os.tmpdir(), 'recorder.jsonl')
const mode = process.env.RECORDER_MODE ?? ctl.mode ?? 'allow'
const events = process.env.RECORDER_EVENTS ? process.env.RECORDER_EVENTS.split(',') : (ctl.events ?? [])

const chunks = []
try { for (;;) { const b = Buffer.alloc(65536); const k = fs.readSync(0, b, 0, b.length, null); if (k <= 0) break; chunks.push(b.subarray(0, k)) } } catch {}
const raw = Buffer.concat(chunks).toString('utf8')
let input = null
try { input = JSON.parse(raw) } catch {}
const event = input?.hook_event_name ?? null

const PREFIXES = ['CLAUDE_', 'GEMINI_', 'CODEX_', 'HERMES_', 'COPILOT_', 'ANTHROPIC_']
const env = {}
// plus the variables Claude Code adds without one of those prefixes (seen in 2.1.332)
const EXTRA = ['CLAUDECODE', 'AI_AGENT', 'COREPACK_ENABLE_AUTO_PIN', 'NoDefaultCurrentDirectoryInExePath']
for (const [k, v] of Object.entries(process.env)) if (PREFIXES.some(p => k.startsWith(p)) || EXTRA.includes(k)) env[k] = v

const applies = !events.length || events.includes(event)
// a hook's own mode by its tag (two hooks of one event answering differently), else the event's
const effMode = ctl.tagModes?.[tag] ?? (applies ? mode : 'allow')
const stateFile = logFile + '.stop-block-done'
let answer = effMode
if (effMode === 'stop-block' && fs.existsSync(stateFile)) answer = 'allow (stop-block already used)'

const t0 = Date.now()
// (hookrt) how the hook was started — the parent's command line and `_` tell `sh -c`, `bash -c` (which
// execs the command itself and sets `_`) and no shell apart —, whether stdin ended with a newline, and the
// recorder's own control variables: what the replay tests in ../../__test__/ compare.
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
const rec = { ...probe,
  t: new Date().toISOString(), tag, event, mode: effMode, answer, argv: process.argv.slice(1), cwd: process.cwd(), ppid: process.ppid,
  stdinIsJson: input !== null, stdin: input ?? raw, env, envNames: Object.keys(process.env).sort(),
}
fs.appendFileSync(logFile, JSON.stringify(rec) + '\n')

const hso = extra => JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...extra } })
switch (answer) {
  case 'exit2':
    process.stderr.write('blocked by recorder\n'); process.exit(2)
  case 'exit1':
    process.stderr.write('oops\n'); process.exit(1)
  case 'exit1-json-deny': // a guard that prints its deny and exits 1
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(1)
  case 'exit2-json-stdout': // exit 2, the deny as JSON on stdout, nothing on stderr
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(2)
  case 'exit2-plain-stdout': // exit 2, plain text on stdout, nothing on stderr
    process.stdout.write('blocked by recorder on stdout\n'); process.exit(2)
  case 'truncated-json': // a JSON deny cut short
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' }).slice(0, 60)); process.exit(0)
  case 'log-then-json': // a log line before the JSON deny
    process.stdout.write('checking...\n' + hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(0)
  case 'exit3-plain-stdout':
    process.stdout.write('plain deny from recorder\n'); process.exit(3)
  case 'killed': // killed by a signal (SIGKILL) before answering
    process.kill(process.pid, 'SIGKILL'); break
  case 'json-deny-slow': // the first configured deny, finishing after the second
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500)
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(0)
  case 'json-deny-second-slow': // the second configured deny, finishing after the first
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500)
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'second deny from recorder' })); process.exit(0)
  case 'json-deny-second':
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'second deny from recorder' })); process.exit(0)
  case 'json-deny':
    process.stdout.write(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(0)
  case 'context':
    process.stdout.write(hso({ additionalContext: 'CONTEXT-FROM-HOOK' })); process.exit(0)
  case 'update-input':
    process.stdout.write(hso({ permissionDecision: 'allow', permissionDecisionReason: 'rewritten by recorder', updatedInput: { ...(input?.tool_input ?? {}), command: 'echo changed' } })); process.exit(0)
  case 'perm-allow': // extra: PermissionRequest answer that approves the pending request
    process.stdout.write(hso({ decision: { behavior: 'allow' } })); process.exit(0)
  case 'stop-block':
    fs.writeFileSync(stateFile, rec.t)
    process.stdout.write(JSON.stringify({ decision: 'block', reason: 'keep going' })); process.exit(0)
  case 'sleep':
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000)
    fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), tag, event, phase: 'after-sleep', sleptMs: Date.now() - t0 }) + '\n')
    process.exit(0)
  default:
    process.exit(0)
}
