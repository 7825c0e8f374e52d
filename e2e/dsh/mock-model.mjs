// A scripted DeepSeek/OpenAI-compatible model on 127.0.0.1 for the dsh end-to-end tests
// (adapted from the shared dsh-e2e kit): it streams SSE like the real API, records every
// request, and follows a small script:
//   - title requests (no tools)               -> "Echo test"
//   - a tool result after the last assistant  -> "FINAL: tool said: <result>"
//   - last user message contains "STEER"      -> "FINAL: steered"
//   - anything else                           -> one `bash` tool call (`echo hi`)
import http from 'node:http'

function textOf(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : c.text ?? JSON.stringify(c))).join('')
  return JSON.stringify(content ?? '')
}

export async function startMockModel() {
  const requests = []
  let n = 0
  const chunk = (delta, finish = null) => ({
    id: 'mock-' + n,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'mock',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(finish ? { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } : {}),
  })
  const stream = (res, parts) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    for (const p of parts) res.write(`data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`)
    res.end()
  }
  const text = (res, s) => stream(res, [chunk({ role: 'assistant', content: '' }), chunk({ content: s }), chunk({ content: '' }, 'stop'), '[DONE]'])
  const toolCall = (res, name, args) =>
    stream(res, [
      chunk({ role: 'assistant', content: '' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_mock_' + n, type: 'function', function: { name, arguments: args } }] }),
      chunk({ content: '' }, 'tool_calls'),
      '[DONE]',
    ])
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      n++
      let j = {}
      try {
        j = JSON.parse(body || '{}')
      } catch {}
      const msgs = j.messages ?? []
      const last = msgs.at(-1) ?? {}
      const tools = (j.tools ?? []).map((t) => t.function?.name)
      const isTitle = tools.length === 0 || req.headers['x-deepseek-harness-title'] !== undefined
      requests.push({ url: req.url, isTitle, tools, messages: msgs.map((m) => ({ role: m.role, text: textOf(m.content) })) })
      if (req.method !== 'POST' || !/chat\/completions$/.test(req.url)) {
        res.writeHead(404, { 'content-type': 'application/json' })
        return res.end('{"error":{"message":"not found"}}')
      }
      if (isTitle) return text(res, 'Echo test')
      // A tool result since the last assistant message (context messages may follow it).
      const lastAssistant = msgs.findLastIndex((m) => m.role === 'assistant')
      const toolResult = msgs.slice(lastAssistant + 1).findLast((m) => m.role === 'tool')
      if (toolResult) return text(res, 'FINAL: tool said: ' + textOf(toolResult.content).slice(0, 400))
      if (last.role === 'user' && textOf(last.content).includes('STEER')) return text(res, 'FINAL: steered')
      const name = tools.includes('bash') ? 'bash' : tools.find((x) => /bash/.test(x)) ?? 'bash'
      toolCall(res, name, JSON.stringify({ command: 'echo hi', description: 'Print hi' }))
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    /** Conversation requests only (not title requests). */
    turns: () => requests.filter((r) => !r.isTitle),
    close: () => new Promise((r) => server.close(r)),
  }
}
