#!/usr/bin/env node
// Gemini CLI command-hook recorder. Appends ONE JSON line per call to $RECORDER_LOG:
//   {t, event, tag, mode, argv, cwd, env (CLAUDE_/GEMINI_/CODEX_/HERMES_/COPILOT_ vars), transcriptExists, stdin}
// then answers according to a mode. Mode selection (first match wins):
//   1. an argv word "mode=<m>"                                   (per-hook override)
//   2. $RECORDER_MODE, applied only to events listed in $RECORDER_EVENTS (comma list; "*" = all)
//   3. control file $RECORDER_CTL (JSON {"mode":..,"events":[..]}) with the same event filter
//   otherwise: allow
// Modes: allow | exit2 | json-deny | context | update-input | stop-block | stop-block-alias | sleep | exit1
// An argv word "tag=<x>" is copied to the log line so several hooks on one event can be told apart.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const t0 = new Date().toISOString()
let raw = ''
try { raw = fs.readFileSync(0, 'utf8') } catch {}
let input = null
try { input = JSON.parse(raw) } catch {}
const event = input?.hook_event_name ?? 'unknown'
const args = process.argv.slice(2)
const argWord = k => args.find(a => a.startsWith(k + '='))?.slice(k.length + 1)
const logFile = process.env.RECORDER_LOG ?? path.join(os.tmpdir(), 'recorder.jsonl')

function pickMode() {
  const explicit = argWord('mode')
  if (explicit) return explicit
  const applies = list => list.includes('*') || list.includes(event)
  if (process.env.RECORDER_MODE) {
    const evs = (process.env.RECORDER_EVENTS ?? '*').split(',').map(s => s.trim())
    return applies(evs) ? process.env.RECORDER_MODE : 'allow'
  }
  if (process.env.RECORDER_CTL && fs.existsSync(process.env.RECORDER_CTL)) {
    try {
      const c = JSON.parse(fs.readFileSync(process.env.RECORDER_CTL, 'utf8'))
      return applies(c.events ?? ['*']) ? (c.mode ?? 'allow') : 'allow'
    } catch {}
  }
  return 'allow'
}
let mode = pickMode()
// stop-block only the first time (per log file), then allow
const stopState = logFile + '.stop-blocked'
if (mode === 'stop-block' || mode === 'stop-block-alias') {
  if (fs.existsSync(stopState)) mode = 'allow(stop-block already used)'
  else fs.writeFileSync(stopState, t0)
}

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(CLAUDE_|GEMINI_|CODEX_|HERMES_|COPILOT_)/.test(k)).sort())
const transcriptExists = input?.transcript_path ? fs.existsSync(input.transcript_path) : null
// (hookrt) how the hook was started — the parent's command line and `_` tell `sh -c`, `bash -c` (which
// execs the command itself and sets `_`) and no shell apart —, whether stdin ended with a newline, and the
// recorder's own control variables: what the replay tests in ../../__test__/ compare.
const probe = {
  parent: (() => { try { return fs.readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2) } catch { return null } })(),
  underscore: process.env._ ?? null,
  stdinNewline: raw.endsWith('\n'),
  recorderEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('RECORDER_')).sort()),
}
fs.appendFileSync(logFile, JSON.stringify({ ...probe, t: t0, event, tag: argWord('tag') ?? null, mode, argv: process.argv, cwd: process.cwd(), env, transcriptExists, stdin: input ?? raw }) + '\n')

const out = o => process.stdout.write(JSON.stringify(o))
switch (mode) {
  case 'exit2': process.stderr.write('blocked by recorder'); process.exit(2)
  case 'exit1': process.stderr.write('oops'); process.exit(1)
  case 'json-deny': out({ decision: 'deny', reason: 'json deny from recorder' }); break
  case 'json-allow': out({ decision: 'allow' }); break // an explicit allow (BeforeModel's field replacement, S22)
  case 'context': out({ hookSpecificOutput: { hookEventName: event, additionalContext: 'CONTEXT-FROM-HOOK' } }); break
  case 'update-input': out({ hookSpecificOutput: { hookEventName: event, tool_input: { command: 'echo changed' } } }); break
  case 'stop-block': out({ decision: 'deny', reason: 'keep going' }); break // documented AfterAgent retry answer
  case 'stop-block-alias': out({ decision: 'block', reason: 'keep going' }); break // Claude-style spelling ("block" is a documented alias)
  case 'sleep': await new Promise(r => setTimeout(r, 5000)); break
  // the unusual answers (hookrt's S15-S20)
  case 'exit1-json-deny': out({ decision: 'deny', reason: 'json deny from recorder' }); process.exit(1)
  case 'exit2-silent': process.exit(2)
  case 'exit3-plain-stdout': process.stdout.write('plain deny from recorder'); process.exit(3)
  case 'log-then-json': process.stdout.write('checking...\n' + JSON.stringify({ decision: 'deny', reason: 'json deny from recorder' })); break
  case 'json-deny-second': out({ decision: 'deny', reason: 'second deny from recorder' }); break
  default: break // allow: exit 0, no output
}
process.exit(0)
