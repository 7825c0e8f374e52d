// A tour of hookrt on the example project: run with `node examples/demo.mjs`.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const { createRuntime } = require('../wrapper.js')
const here = dirname(fileURLToPath(import.meta.url))
const cwd = join(here, 'project')

// homeDir points at an empty folder so your own ~/.claude hooks stay out of the demo.
const rt = createRuntime({ cwd, homeDir: join(here, 'empty-home'), projectDir: cwd })
console.log('files read:', rt.sources.map((s) => `${s.scope} ${s.dialect} ${s.file}`))
console.log('diagnostics:', rt.diagnostics)

const show = (label, r) =>
  console.log(`\n${label}\n  decision: ${r.outcome.decision}${r.outcome.reason ? ` (${r.outcome.reason})` : ''}` +
    `\n  contexts: ${JSON.stringify(r.outcome.contexts)}\n  ran: ${r.runs.map((x) => x.hook.id).join(', ') || 'nothing'}`)

show('SessionStart', await rt.dispatch('SessionStart', { source: 'startup', session_id: 'demo' }))
show('PreToolUse Bash `ls`', await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }))
show('PreToolUse Bash `rm -rf /`', await rt.dispatch('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }))
show('PreToolUse Write', await rt.dispatch('PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'a.txt' } }))
show('PreToolUse Read (no hook matches)', await rt.dispatch('PreToolUse', { tool_name: 'Read' }))

// Cancellation: the host's AbortSignal kills the hook's whole process tree.
const slow = createRuntime({ cwd, homeDir: join(here, 'empty-home'), configPath: join(here, 'slow-hooks.json') })
try {
  await slow.dispatch('Stop', {}, AbortSignal.timeout(300))
} catch (e) {
  console.log(`\nStop with a 10 s hook and AbortSignal.timeout(300): rejected with ${e.name}`)
}
