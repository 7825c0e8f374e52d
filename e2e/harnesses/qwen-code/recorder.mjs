#!/usr/bin/env node
// Recorder hook for harnesses that speak Claude Code's hook protocol (Qwen Code, Factory Droid, Kimi Code).
// Usage in a hook entry:  node /abs/recorder.mjs <eventName> [tag]
// Log:  $RECORDER_LOG (default ./recorder.jsonl): one JSON line per call.
// Mode: control file $RECORDER_CTL (JSON {"<event>":"<mode>","<event>:<tag>":"<mode>","*":"<mode>"}), else
//   $RECORDER_MODE, else allow.  allow | exit2 | exit2-silent | exit2-json-stderr | exit2-json-note | json-deny | context | update-input | stop-block | sleep | exit1
//   | plain-context (plain stdout) | message-context ({"message"}: Kimi Code's way to pass text on) | top-deny (a top-level permissionDecision)
// The answers are Claude Code's: exit 2 with the reason on stderr, `hookSpecificOutput.permissionDecision`,
// `hookSpecificOutput.additionalContext`, `hookSpecificOutput.updatedInput`, `{"decision":"block"}`.
import fs from 'node:fs'
import path from 'node:path'

const t0 = Date.now()
const [, , argEvent = '', tag = ''] = process.argv
const logFile = process.env.RECORDER_LOG ?? path.resolve('recorder.jsonl')
let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let stdin = null
try { stdin = raw.trim() ? JSON.parse(raw) : null } catch {}
const event = argEvent || stdin?.hook_event_name || ''
let ctl = {}
try { if (process.env.RECORDER_CTL) ctl = JSON.parse(fs.readFileSync(process.env.RECORDER_CTL, 'utf8')) } catch {}
const mode = ctl[`${event}:${tag}`] ?? ctl[event] ?? ctl['*'] ?? process.env.RECORDER_MODE ?? 'allow'
// the harnesses' own variables: project folders, session ids, and (Droid) the stdin fields it exports
const PREFIXES = ['CLAUDE_', 'GEMINI_', 'QWEN_', 'FACTORY_', 'DROID_', 'KIMI_', 'FORCE_COLOR', 'TRACEPARENT', 'TRACESTATE']
// (Droid exports each scalar stdin field under its own name: those names count too)
const own = k => PREFIXES.some(p => k.startsWith(p)) || (stdin !== null && typeof stdin === 'object' && Object.hasOwn(stdin, k))
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => own(k)).sort())
const hso = extra => ({ hookSpecificOutput: { hookEventName: event, ...extra } })

function answer() {
  switch (mode) {
    case 'allow': return { code: 0 }
    case 'exit1': return { code: 1, stderr: 'oops' }
    case 'exit2': return { code: 2, stderr: 'blocked by recorder' }
    case 'exit2-silent': return { code: 2 } // exit 2, nothing on stderr
    // exit 2 with a JSON object on stderr: Qwen reads it as the answer
    case 'exit2-json-stderr': return { code: 2, stderr: JSON.stringify(hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' })) }
    case 'exit2-json-note': return { code: 2, stderr: JSON.stringify({ systemMessage: 'note from recorder' }) }
    case 'sleep': return { code: 0, sleep: 5000 }
    case 'json-deny': return { code: 0, stdout: hso({ permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' }) }
    case 'context': return { code: 0, stdout: hso({ additionalContext: 'CONTEXT-FROM-HOOK' }) }
    case 'plain-context': return { code: 0, plain: 'CONTEXT-FROM-HOOK' }
    case 'message-context': return { code: 0, stdout: { message: 'CONTEXT-FROM-HOOK' } }
    case 'top-deny': return { code: 0, stdout: { permissionDecision: 'deny', permissionDecisionReason: 'json deny from recorder' } }
    case 'update-input': {
      const args = stdin?.tool_input ?? {}
      return { code: 0, stdout: hso({ permissionDecision: 'allow', updatedInput: { ...args, command: 'echo changed' } }) }
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
// how the hook was started (the parent's command line and `_` tell `sh -c`, `bash -c` and no shell apart),
// whether stdin ended with a newline, and the recorder's own variables: what the replay tests compare
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
if (a.stderr) process.stderr.write(a.stderr + '\n')
if (a.stdout) process.stdout.write(JSON.stringify(a.stdout) + '\n')
if (a.plain) process.stdout.write(a.plain + '\n')
process.exitCode = a.code
