// Writes the seed corpora of the fuzz targets (committed under fuzz/corpus/<target>/) from the
// public conformance cases (config files and request lines) and from hand-picked answers.
// Usage: node fuzz/seed.mjs ../shared/conformance/cases
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const casesDir = process.argv[2] ?? join(here, '..', '..', 'shared', 'conformance', 'cases')
const put = (target, bytes) => {
  const dir = join(here, 'corpus', target)
  mkdirSync(dir, { recursive: true })
  const buf = Buffer.from(bytes)
  writeFileSync(join(dir, createHash('sha1').update(buf).digest('hex')), buf)
}
// Same order as hookrt::fuzzing::CONFIG_FILES.
const configIndex = (path) => {
  const rules = [/\.claude\/settings/, /\.codex\/hooks\.json/, /config\.toml$/, /opencode\.jsonc?$/, /\.ya?ml$/, /\.dsh-hooks\.json$/, /\.agents\//, /\.gemini\//, /\.cursor\//, /\.github\/hooks\//, /\.windsurf\//]
  const i = rules.findIndex((r) => r.test(path))
  return i < 0 ? 11 : i
}
for (const name of readdirSync(casesDir).filter((n) => n.endsWith('.json'))) {
  const c = JSON.parse(readFileSync(join(casesDir, name), 'utf8'))
  for (const [path, text] of Object.entries(c.files ?? {})) {
    put('config', Buffer.concat([Buffer.from([configIndex(path)]), Buffer.from(typeof text === 'string' ? text : JSON.stringify(text))]))
  }
  for (const r of c.requests ?? []) put('protocol', typeof r === 'string' ? r : JSON.stringify(r))
}
const configs = {
  7: { hooksConfig: { disabled: ['x'] }, hooks: { BeforeTool: [{ matcher: 'run_shell_command', sequential: true, hooks: [{ name: 'x', type: 'command', command: 'true', timeout: 5000 }] }] } },
  8: { version: 1, hooks: { beforeShellExecution: [{ command: 'true', timeout: 5, failClosed: true }], stop: [{ command: 'x', loop_limit: null }] } },
  9: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'true', matcher: 'bash|edit', timeoutSec: 3, cwd: 'x', env: { A: 'b' } }, { type: 'command', exec: 'x', args: ['a'] }, { type: 'http', url: 'https://x' }] } },
  10: { hooks: { pre_run_command: [{ command: 'true', working_directory: 'x' }] } },
  0: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', if: 'Bash(git *)', async: true, worker: true, maxInFlight: 4 }, { type: 'http', url: 'http://127.0.0.1:1/h', allowedEnvVars: ['A'] }, { type: 'mcp_tool', server: 's', tool: 't', input: { p: '${tool_input.x}' } }] }] } },
}
for (const [i, v] of Object.entries(configs)) put('config', Buffer.concat([Buffer.from([Number(i)]), Buffer.from(JSON.stringify(v))]))
const answers = [
  '{"decision":"block","reason":"no"}', '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","updatedInput":{"a":1}}}',
  '{"permission":"deny","agent_message":"x","followup_message":"again","continue":false}', '{"permissionDecision":"allow","modifiedArgs":{"a":1}}',
  '{"decision":"deny","hookSpecificOutput":{"tool_input":{"c":"x"},"additionalContext":"c"}}', '{"ok":false,"reason":"r","impossible":true}',
  '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{}}}}', 'plain text', '',
]
answers.forEach((a, i) => {
  for (const code of [3, 5, 4]) put('decoder', Buffer.concat([Buffer.from([i % 10, (i * 7) % 38, code]), Buffer.from(a + '\0stderr text')]))
})
for (const a of answers.slice(0, 6)) {
  put('oracle', a)
  put('oracle', '```json\n' + a + '\n```')
  put('worker_answer', JSON.stringify({ id: 3, exitCode: 2, stdout: a, stderr: 'e' }))
  put('worker_answer', JSON.stringify({ id: 4, stdout: JSON.parse(a.startsWith('{') ? a : '{}') }))
}
for (const r of ['Bash(git push:*)\ngit push origin', 'Read(./src/**)\n/p/src/a.rs', 'Edit(~/x/*.md)\n/h/x/a.md', 'WebFetch(domain:example.com)\nhttps://example.com/a', 'Bash(npm run test *)\nnpm run test && rm -rf /', 'mcp__s__t', 'Bash(ls | grep x)\nls | grep x; echo $(id)'])
  put('permission_rule', r)
