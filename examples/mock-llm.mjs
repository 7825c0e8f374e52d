#!/usr/bin/env node
// A mock OpenAI-compatible model for oracle (`type: "prompt"`) hooks, for tests and demos.
//   node examples/mock-llm.mjs --port 8765 [--deny-on WORD] [--impossible-on WORD] [--host 127.0.0.1]
// POST /v1/chat/completions (or /chat/completions): a prompt containing the trigger word
// (default DENY) answers {"ok":false,"reason":"mock denied"}, one containing the
// --impossible-on word {"ok":false,"reason":"mock says never","impossible":true}, anything else
// {"ok":true}. A model name starting with "echo-" is named in the deny reason
// ("mock denied (echo-x)"), so tests can see which model a hook asked for.
// Point hookrt at it with llm: { baseUrl: "http://127.0.0.1:8765/v1", model: "mock" }.
import http from 'node:http'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(name)
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt
}
const port = Number(opt('--port', '8765'))
const host = opt('--host', '127.0.0.1')
const trigger = opt('--deny-on', 'DENY')
const never = opt('--impossible-on', null)

const server = http.createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    const send = (status, obj) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(obj))
    }
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url)) return send(404, { error: 'not found' })
    let prompt = ''
    let model = ''
    try {
      const b = JSON.parse(body)
      prompt = b.messages?.map((m) => m.content).join('\n') ?? ''
      model = String(b.model ?? '')
    } catch {
      return send(400, { error: 'request body is not JSON' })
    }
    const reason = model.startsWith('echo-') ? `mock denied (${model})` : 'mock denied'
    let content = '{"ok":true}'
    if (never && prompt.includes(never)) content = JSON.stringify({ ok: false, reason: 'mock says never', impossible: true })
    else if (prompt.includes(trigger)) content = JSON.stringify({ ok: false, reason })
    send(200, { id: 'mock', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] })
  })
})
server.listen(port, host, () => {
  const a = server.address()
  process.stderr.write(`mock LLM listening on http://${a.address}:${a.port}/v1 (denies prompts containing ${JSON.stringify(trigger)})\n`)
  process.stdout.write(`${a.port}\n`)
})
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)))
