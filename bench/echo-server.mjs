// Baseline for the listen benchmark: a trivial Node JSON-lines server that parses each
// request and answers a small JSON object, as the JavaScript implementation's loop would.
import { createInterface } from 'node:readline'
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity })
const out = []
rl.on('line', (line) => {
  if (!line.trim()) return
  const req = JSON.parse(line)
  out.push(JSON.stringify({ ok: true, canonical: 'tool:before', event: req.event, outcome: { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false }, runs: [] }))
  if (out.length >= 256) process.stdout.write(out.splice(0).join('\n') + '\n')
})
rl.on('close', () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n')
})
