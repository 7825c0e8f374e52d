'use strict'
// `hookrt/worker`: write a persistent hook worker in a few lines.
//
//   const { serveWorker } = require('hookrt/worker')
//   serveWorker(async (event, payload) => {
//     if (payload.tool_input?.command?.includes('rm -rf')) return { exitCode: 2, stderr: 'no rm -rf' }
//     return {}   // allow, nothing to say
//   })
//
// hookrt writes one request per line on stdin: {"id", "event", "payload"}. The handler's
// answer may be an object {exitCode?, stdout?, stderr?} (stdout a string or the JSON answer
// object), a plain string (stdout), or undefined (exit 0, no output). Requests run
// concurrently; each answer carries its request's id. A thrown error becomes exitCode 1
// with the message on stderr. The process exits when stdin ends.

const readline = require('node:readline')

function normalize(id, answer) {
  if (answer === undefined || answer === null) return { id }
  if (typeof answer === 'string') return { id, stdout: answer }
  if (typeof answer !== 'object') return { id, stdout: String(answer) }
  const out = { id }
  if (answer.exitCode !== undefined) out.exitCode = answer.exitCode
  if (answer.stdout !== undefined) out.stdout = answer.stdout
  if (answer.stderr !== undefined) out.stderr = answer.stderr
  // An object without any of the three keys is the hook's JSON answer itself.
  if (!('exitCode' in answer) && !('stdout' in answer) && !('stderr' in answer)) out.stdout = answer
  return out
}

/**
 * Serves the worker protocol on stdin/stdout with `handler(event, payload)`.
 * @param {(event: string, payload: Record<string, unknown>) => unknown} handler
 * @param {{input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream}} [io]
 * @returns {Promise<void>} settles when the input ends and every answer is written
 */
function serveWorker(handler, io = {}) {
  const input = io.input ?? process.stdin
  const output = io.output ?? process.stdout
  const write = (obj) => output.write(JSON.stringify(obj) + '\n')
  const inflight = new Set()
  const rl = readline.createInterface({ input, crlfDelay: Infinity })
  rl.on('line', (line) => {
    if (!line.trim()) return
    let req
    try {
      req = JSON.parse(line)
    } catch {
      process.stderr.write(`hookrt/worker: ignoring a line that is not JSON\n`)
      return
    }
    const id = req.id
    const p = Promise.resolve()
      .then(() => handler(req.event, req.payload ?? {}))
      .then(
        (answer) => write(normalize(id, answer)),
        (err) => write({ id, exitCode: 1, stderr: String(err?.message ?? err) }),
      )
      .finally(() => inflight.delete(p))
    inflight.add(p)
  })
  return new Promise((resolve) => {
    rl.on('close', () => Promise.allSettled([...inflight]).then(() => resolve()))
  })
}

module.exports = { serveWorker }
