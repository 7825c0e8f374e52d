#!/usr/bin/env node
// Recorder hook for GitHub Copilot CLI command hooks (also usable by other harnesses).
// Usage in a hook entry:  node /abs/recorder.mjs <eventName> [tag]
//   Copilot's camelCase stdin has no event-name field, so run.sh passes the configured event as argv[2].
// Log:  $RECORDER_LOG (default ./recorder.jsonl): one JSON line per call.
// Mode: control file $RECORDER_CTL (JSON {"<event>":"<mode>","*":"<mode>"}), else $RECORDER_MODE, else allow.
//   allow | exit2 | json-deny | context | update-input | stop-block | sleep | exit1 | hso-deny | legacy-block |
//   continue-false | exit2-json
import fs from 'node:fs'
import path from 'node:path'

const t0 = Date.now()
const [, , argEvent = '', tag = ''] = process.argv
const logFile = process.env.RECORDER_LOG ?? path.resolve('recorder.jsonl')
let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let stdin = null
try { stdin = raw.trim() ? JSON.parse(raw) : null } catch {}
const event = argEvent || stdin?.hook_event_name || stdin?.hookEventName || ''
let ctl = {}
try { if (process.env.RECORDER_CTL) ctl = JSON.parse(fs.readFileSync(process.env.RECORDER_CTL, 'utf8')) } catch {}
const mode = ctl[`${event}:${tag}`] ?? ctl[event] ?? ctl['*'] ?? process.env.RECORDER_MODE ?? 'allow'
const PREFIXES = ['CLAUDE_', 'GEMINI_', 'CODEX_', 'HERMES_', 'COPILOT_', 'GITHUB_', 'GH_', 'GIT_CONFIG_', 'FORCE_COLOR']
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => PREFIXES.some(p => k.startsWith(p))).sort())
const isPascal = /^[A-Z]/.test(event)

function answer() {
  switch (mode) {
    case 'allow': return { code: 0 }
    case 'exit1': return { code: 1, stderr: 'oops' }
    case 'exit2': return { code: 2, stderr: 'blocked by recorder' }
    case 'sleep': return { code: 0, sleep: 5000 }
    case 'json-deny':
      if (/^permissionRequest$/i.test(event)) return { code: 0, stdout: { behavior: 'deny', message: 'json deny from recorder' } }
      return { code: 0, stdout: { permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }
    // Claude's answer shapes, which Copilot's own reader may not take
    case 'hso-deny':
      return { code: 0, stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } } }
    case 'legacy-block': return { code: 0, stdout: { decision: 'block', reason: 'json deny from recorder' } }
    case 'continue-false': return { code: 0, stdout: { continue: false, stopReason: 'stopped by recorder' } }
    // exit 2 with a JSON deny on stdout beside the stderr text
    case 'exit2-json':
      return { code: 2, stderr: 'blocked by recorder', stdout: { permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }
    // the unusual answers (hookrt's S16-S23)
    case 'exit1-json-deny': return { code: 1, stdout: { permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }
    case 'exit2-silent': return { code: 2 }
    case 'exit2-json-stdout': return { code: 2, stdout: { permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }
    case 'exit2-plain-stdout': return { code: 2, stdoutText: 'blocked by recorder on stdout' }
    case 'exit3-plain-stdout': return { code: 3, stdoutText: 'plain deny from recorder' }
    case 'truncated-json': return { code: 0, stdoutText: JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' }).slice(0, 30) }
    case 'log-then-json': return { code: 0, stdoutText: 'checking...\n' + JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' }) }
    case 'killed': return { code: 0, kill: true }
    case 'context':
      return { code: 0, stdout: { additionalContext: 'CONTEXT-FROM-HOOK' } }
    case 'update-input': {
      let args = stdin?.toolArgs ?? stdin?.tool_input ?? {}
      if (typeof args === 'string') { try { args = JSON.parse(args) } catch { args = {} } }
      return { code: 0, stdout: { permissionDecision: 'allow', modifiedArgs: { ...args, command: 'echo changed' } } }
    }
    case 'stop-block': {
      const flag = logFile + `.${event}.blocked`
      if (fs.existsSync(flag)) return { code: 0, note: 'second stop: allow' }
      fs.writeFileSync(flag, String(Date.now()))
      return { code: 0, stdout: { decision: 'block', reason: 'keep going' } }
    }
    default: return { code: 0, note: 'unknown mode ' + mode }
  }
}
const a = answer()
// (hookrt) how the hook was started — the parent's command line and `_` tell `sh -c`, `bash -c` (which
// execs the command itself and sets `_`) and no shell apart —, whether stdin ended with a newline, and the
// recorder's own control variables: what the replay tests in ../../__test__/ compare.
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
fs.appendFileSync(logFile, JSON.stringify({ ...probe,
  t: new Date(t0).toISOString(), event, tag, mode, stdinEvent: stdin?.hook_event_name ?? null,
  stdin: stdin ?? raw, argv: process.argv.slice(1), cwd: process.cwd(), ppid: process.ppid, env,
  envNames: Object.keys(process.env).sort(), answer: a,
}) + '\n')
if (a.sleep) await new Promise(r => setTimeout(r, a.sleep))
if (a.sleep) fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), event, tag, mode, note: 'sleep finished (hook was not killed)' }) + '\n')
if (a.kill) process.kill(process.pid, 'SIGKILL')
if (a.stderr) process.stderr.write(a.stderr + '\n')
if (a.stdout) process.stdout.write(JSON.stringify(a.stdout) + '\n')
if (a.stdoutText) process.stdout.write(a.stdoutText + '\n')
process.exitCode = a.code
