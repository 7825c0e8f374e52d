// Scripted OpenAI chat-completions mock for Cline CLI 3.x (SSE or JSON), adapted from ../copilot-cli/mock-llm.mjs.
// No dependencies. Usage: node mock-llm.mjs [port] [logfile]   (port 0 = pick one; written to $MOCK_PORT_FILE)
//  - request without tools (titles, summaries)                  -> plain text "Echo test"
//  - no tool result yet                                         -> ONE `run_commands` call: {"commands":["echo hi"]}
//  - the last tool result is not submit_and_exit's              -> `submit_and_exit` with "FINAL: <that result>"
//  - anything else                                              -> plain text "FINAL: done"
// Cline's headless (--yolo) run ends only when the model calls `submit_and_exit`.
// Every request (method, url, headers, body) is appended as one JSON line to the log file.
import http from 'node:http'
import fs from 'node:fs'

const port = Number(process.argv[2] ?? 0)
const logFile = process.argv[3] ?? 'mock-requests.jsonl'
const model = process.env.MOCK_MODEL ?? 'mock-model'
let n = 0
const sse = (res, p) => res.write(`data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`)
const chunk = (delta, finish = null) => ({ id: 'mock-' + n, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })
const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
function reply(res, stream, msg, finish) {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ id: 'mock-' + n, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: 'assistant', content: msg.content ?? null, ...(msg.tool_calls ? { tool_calls: msg.tool_calls } : {}) }, finish_reason: finish }], usage }))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
  sse(res, chunk({ role: 'assistant', content: '' }))
  if (msg.content) sse(res, chunk({ content: msg.content }))
  if (msg.tool_calls) sse(res, chunk({ tool_calls: msg.tool_calls.map((t, i) => ({ index: i, ...t })) }))
  sse(res, chunk({}, finish))
  sse(res, { id: 'mock-' + n, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage })
  sse(res, '[DONE]'); res.end()
}
const text = c => typeof c === 'string' ? c : Array.isArray(c) ? c.map(p => p.text ?? JSON.stringify(p)).join('') : JSON.stringify(c)
const call = (name, args) => ({ tool_calls: [{ id: 'call_mock_' + n, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })

http.createServer((req, res) => {
  let body = ''
  req.on('data', d => { body += d })
  req.on('end', () => {
    n++
    let j = {}
    try { j = JSON.parse(body || '{}') } catch {}
    const msgs = j.messages ?? []
    const tools = j.tools ?? []
    const names = tools.map(t => t.function?.name ?? t.name)
    const toolMsgs = msgs.filter(m => m.role === 'tool')
    const lastTool = toolMsgs.at(-1)
    const callName = id => msgs.flatMap(m => m.tool_calls ?? []).find(t => t.id === id)?.function?.name
    let kind
    if (req.method === 'GET' && /models\/?$/.test(req.url)) kind = 'models'
    else if (req.method !== 'POST' || !/chat\/completions$/.test(req.url)) kind = 'unknown'
    else if (!tools.length) kind = 'side'
    else if (!lastTool) kind = 'tool_call'
    else if (callName(lastTool.tool_call_id) !== 'submit_and_exit') kind = 'final'
    else kind = 'done'
    fs.appendFileSync(logFile, JSON.stringify({ n, t: new Date().toISOString(), kind, method: req.method, url: req.url, headers: req.headers, toolNames: names, lastRole: msgs.at(-1)?.role, body: j }) + '\n')
    if (kind === 'models') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'mock' }] })); return }
    if (kind === 'unknown') { res.writeHead(404); res.end('{}'); return }
    const stream = j.stream !== false
    if (kind === 'side') return reply(res, stream, { content: 'Echo test' }, 'stop')
    if (kind === 'tool_call') return reply(res, stream, call('run_commands', { commands: ['echo hi'] }), 'tool_calls')
    if (kind === 'final') return reply(res, stream, call('submit_and_exit', { summary: 'FINAL: ' + text(lastTool.content).slice(0, 200), verified: true }), 'tool_calls')
    reply(res, stream, { content: 'FINAL: done' }, 'stop')
  })
}).listen(port, '127.0.0.1', function () {
  const p = this.address().port
  if (process.env.MOCK_PORT_FILE) fs.writeFileSync(process.env.MOCK_PORT_FILE, String(p))
  console.log(`mock llm listening on http://127.0.0.1:${p}`)
})
