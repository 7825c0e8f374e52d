#!/usr/bin/env node
// Recorder hook for Cline CLI 3.x hook files (each file named after its event runs `exec node recorder.mjs <Event>`).
// Usage in a hook entry:  node /abs/recorder.mjs <eventName> [tag]
// Log:  $RECORDER_LOG (default ./recorder.jsonl): one JSON line per call.
// Mode: control file $RECORDER_CTL (JSON {"<event>":"<mode>","<event>:<tag>":"<mode>","*":"<mode>"}), else
//   $RECORDER_MODE, else allow.  allow | exit2 | json-deny | context | update-input | stop-block | sleep | exit1
// The answers are Cline's: `{"cancel": true, "errorMessage"}`, `{"contextModification"}`, `{"overrideInput"}`; exit codes
// mean nothing to Cline (exit2 and exit1 are there to show it).
import fs from 'node:fs'
import path from 'node:path'

const t0 = Date.now()
const [, , argEvent = '', tag = ''] = process.argv
const logFile = process.env.RECORDER_LOG ?? path.resolve('recorder.jsonl')
let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let stdin = null
try { stdin = raw.trim() ? JSON.parse(raw) : null } catch {}
const event = argEvent || stdin?.hookName || ''
let ctl = {}
try { if (process.env.RECORDER_CTL) ctl = JSON.parse(fs.readFileSync(process.env.RECORDER_CTL, 'utf8')) } catch {}
const mode = ctl[`${event}:${tag}`] ?? ctl[event] ?? ctl['*'] ?? process.env.RECORDER_MODE ?? 'allow'
// the harnesses' own variables: project folders, session ids, and (Droid) the stdin fields it exports
const PREFIXES = ['CLINE_', 'CLAUDE_', 'FORCE_COLOR']
const own = k => PREFIXES.some(p => k.startsWith(p))
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => own(k)).sort())

function answer() {
  switch (mode) {
    case 'allow': return { code: 0 }
    case 'exit1': return { code: 1, stderr: 'oops' }
    case 'exit2': return { code: 2, stderr: 'blocked by recorder' }
    case 'sleep': return { code: 0, sleep: 5000 }
    // the unusual answers (hookrt's S12-S22)
    case 'exit1-json-deny': return { code: 1, stdout: { cancel: true, errorMessage: 'json deny from recorder' } }
    case 'exit2-silent': return { code: 2 }
    case 'exit2-json-stdout': return { code: 2, stdout: { cancel: true, errorMessage: 'json deny from recorder' } }
    case 'exit2-plain-stdout': return { code: 2, stdoutText: 'blocked by recorder on stdout' }
    case 'exit3-plain-stdout': return { code: 3, stdoutText: 'plain deny from recorder' }
    case 'truncated-json': return { code: 0, stdoutText: JSON.stringify({ cancel: true, errorMessage: 'json deny from recorder' }).slice(0, 20) }
    case 'log-then-json': return { code: 0, stdoutText: 'checking...\n' + JSON.stringify({ cancel: true, errorMessage: 'json deny from recorder' }) }
    case 'hso-deny': return { code: 0, stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } } }
    case 'legacy-block': return { code: 0, stdout: { decision: 'block', reason: 'json deny from recorder' } }
    case 'continue-false': return { code: 0, stdout: { continue: false, stopReason: 'stopped by recorder' } }
    case 'killed': return { code: 0, kill: true }
    case 'json-deny': return { code: 0, stdout: { cancel: true, errorMessage: 'json deny from recorder' } }
    case 'context': return { code: 0, stdout: { cancel: false, contextModification: 'CONTEXT-FROM-HOOK' } }
    case 'update-input':
      // only the shell tool's input (Cline's own submit_and_exit would loop on a rewritten one)
      if (stdin?.preToolUse?.toolName !== 'run_commands') return { code: 0, note: 'not the shell tool', effective: 'allow' }
      return { code: 0, stdout: { cancel: false, overrideInput: { commands: ['echo changed'] } } }
    case 'stop-block': {
      const flag = logFile + `.${event}.blocked`
      if (fs.existsSync(flag)) return { code: 0, note: 'second stop: allow' }
      fs.writeFileSync(flag, String(Date.now()))
      return { code: 0, stdout: { cancel: true, errorMessage: 'keep going' } }
    }
    default: return { code: 0, note: 'unknown mode ' + mode }
  }
}
const a = answer()
// how the hook was started (the parent's command line and `_` tell `sh -c`, `bash -c` and no shell apart),
// whether stdin ended with a newline, and the recorder's own variables: what the replay tests compare
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
fs.appendFileSync(logFile, JSON.stringify({ ...probe,
  t: new Date(t0).toISOString(), event, tag, mode, ...(a.effective ? { effective: a.effective } : {}), stdinEvent: stdin?.hookName ?? null,
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
