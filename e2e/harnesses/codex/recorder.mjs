#!/usr/bin/env node
// Recorder hook for Codex CLI. Appends one JSON line per call to the log, then answers per mode.
// Usage (as a hook command): node recorder.mjs <EventLabel> [--log FILE] [--control FILE]
//   log     : --log, else $RECORDER_LOG, else ./recorder.jsonl
//   mode    : $RECORDER_MODE, else the control file (--control, else $RECORDER_CONTROL), else "allow".
//             Either a bare mode ("exit2": every event) or "Event=mode,Event2=mode,*=mode"
//             (control file: the same text, or JSON {"PreToolUse":"exit2","*":"allow"}).
//             The event is the stdin's hook_event_name (falls back to <EventLabel>).
// Modes: allow | exit2 | json-deny | context | update-input | stop-block | sleep | exit1
//   extra variants to probe other answer forms:
//   legacy-block ({"decision":"block","reason":...}) | plain-context (plain stdout text) |
//   continue-false ({"continue":false,"stopReason":...}) | system-message ({"systemMessage":...}) |
//   allow-json ({"hookSpecificOutput":{"permissionDecision":"allow"}}) | stop-block-always | exit2-once | approve (PermissionRequest allow)
//   (json-deny on PermissionRequest answers {"hookSpecificOutput":{"decision":{"behavior":"deny","message":...}}})
import fs from 'node:fs'
import path from 'node:path'

const argv = process.argv.slice(2)
const opt = (k) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : undefined }
const label = argv[0] && !argv[0].startsWith('--') ? argv[0] : undefined
const logFile = opt('--log') ?? process.env.RECORDER_LOG ?? path.resolve('recorder.jsonl')
const controlFile = opt('--control') ?? process.env.RECORDER_CONTROL
const t0 = Date.now()

let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let input = null
try { input = JSON.parse(raw) } catch {}
const event = input?.hook_event_name ?? label ?? 'unknown'

function modeFor(ev) {
  let spec = process.env.RECORDER_MODE
  if (!spec && controlFile && fs.existsSync(controlFile)) spec = fs.readFileSync(controlFile, 'utf8').trim()
  if (!spec) return 'allow'
  // a hook's own label (`PreToolUse[Bash]`) first, then its event
  if (spec.startsWith('{')) { const j = JSON.parse(spec); return j[label] ?? j[ev] ?? j['*'] ?? 'allow' }
  if (!spec.includes('=')) return spec
  const map = Object.fromEntries(spec.split(/[,\n]/).map(s => s.trim()).filter(Boolean).map(s => s.split('=').map(x => x.trim())))
  return map[label] ?? map[ev] ?? map['*'] ?? 'allow'
}
const mode = modeFor(event)

const prefixes = /^(CLAUDE_|GEMINI_|CODEX_|HERMES_|COPILOT_|OPENAI_|RECORDER_)/
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => prefixes.test(k)))
let parentCmd = null
try { parentCmd = fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean) } catch {}
// (hookrt) how the hook was started — the parent's command line and `_` tell `sh -c`, `bash -c` (which
// execs the command itself and sets `_`) and no shell apart —, whether stdin ended with a newline, and the
// recorder's own control variables: what the replay tests in ../../__test__/ compare.
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
const record = { ...probe, t: new Date().toISOString(), event, label, mode, argv: process.argv, cwd: process.cwd(), pid: process.pid, ppid: process.ppid, parentCmd, env, envNames: Object.keys(process.env).sort(), stdinRaw: input ? undefined : raw, stdin: input }
fs.mkdirSync(path.dirname(logFile), { recursive: true })
fs.appendFileSync(logFile, JSON.stringify(record) + '\n')

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')
const hso = (extra) => ({ hookSpecificOutput: { hookEventName: event, ...extra } })

function updatedInput() {
  const ti = input?.tool_input
  if (ti && typeof ti === 'object') {
    const c = { ...ti }
    let hit = false
    for (const k of ['command', 'cmd']) if (k in c) { c[k] = Array.isArray(c[k]) ? ['bash', '-lc', 'echo changed'] : 'echo changed'; hit = true }
    if (!hit) c.command = 'echo changed'
    return c
  }
  return { command: 'echo changed' }
}

switch (mode) {
  case 'allow': break
  case 'exit2': process.stderr.write('blocked by recorder\n'); process.exit(2)
  case 'exit2-once': { // exit 2 the first time only (Stop + exit 2 otherwise loops forever)
    const flag = logFile + '.exit2-once'
    if (!fs.existsSync(flag)) { fs.writeFileSync(flag, '1'); process.stderr.write('blocked by recorder\n'); process.exit(2) }
    break
  }
  case 'exit1': process.stderr.write('oops\n'); process.exit(1)
  case 'sleep': await new Promise(r => setTimeout(r, 5000)); fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), event, mode, note: 'sleep finished', ms: Date.now() - t0 }) + '\n'); break
  case 'json-deny':
    if (event === 'PreToolUse') out(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' }))
    else if (event === 'PermissionRequest') out(hso({ decision: { behavior: 'deny', message: 'json deny from recorder' } }))
    else out({ decision: 'block', reason: 'json deny from recorder' })
    break
  case 'legacy-block': out({ decision: 'block', reason: 'json deny from recorder' }); break
  // the unusual answers (hookrt's X13-X16)
  case 'json-deny-slow': // the first configured deny, finishing after the second
    await new Promise(r => setTimeout(r, 1500))
    out(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); break
  case 'json-deny-second': out(hso({ permissionDecision: 'deny', permissionDecisionReason: 'second deny from recorder' })); break
  case 'exit1-json-deny': out(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); process.exit(1)
  case 'log-then-json': process.stdout.write('checking...\n'); out(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })); break
  case 'exit3-plain-stdout': process.stdout.write('plain deny from recorder\n'); process.exit(3)
  // a deny whose hookEventName names another event
  case 'json-deny-wrong-event': out({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }); break
  case 'exit2-silent': process.exit(2) // exit 2 with nothing on stderr
  case 'context': out(hso({ additionalContext: 'CONTEXT-FROM-HOOK' })); break
  case 'plain-context': process.stdout.write('CONTEXT-FROM-HOOK\n'); break
  case 'system-message': out({ systemMessage: 'SYSTEM-MESSAGE-FROM-HOOK' }); break
  case 'continue-false': out({ continue: false, stopReason: 'stopped by recorder' }); break
  case 'allow-json': out(hso({ permissionDecision: 'allow' })); break
  case 'approve': out(hso({ decision: { behavior: 'allow' } })); break // PermissionRequest: approve
  case 'update-input':
    if (event === 'PermissionRequest') out(hso({ decision: { behavior: 'allow', updatedInput: updatedInput() } }))
    else out(hso({ permissionDecision: 'allow', permissionDecisionReason: 'rewritten by recorder', updatedInput: updatedInput() }))
    break
  case 'stop-block':
  case 'stop-block-always': {
    const flag = logFile + '.stop-blocked'
    if (mode === 'stop-block-always' || !fs.existsSync(flag)) { fs.writeFileSync(flag, '1'); out({ decision: 'block', reason: 'keep going' }) }
    break
  }
  default: process.stderr.write('recorder: unknown mode ' + mode + '\n')
}
process.exit(0)
