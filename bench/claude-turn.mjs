// Hook time of one real Claude Code turn (`npm run bench` runs it when the Claude Code kit is
// installed: `npm run record:harnesses -- --kits claude-code`): the same ten Node guard scripts
// (a) registered natively — ten `node hN.js` processes per PreToolUse — and (b) as one hookrt
// worker hook behind `hookrt install claude` with `hookrt serve` running, against (c) no hooks.
// One turn = the mock model asks for `echo hi`, Claude runs the hooks and the tool, asks again;
// the hook time is that gap (between the mock's two requests) minus the same gap without hooks,
// median over several sessions in one fixed project (so the worker stays warm, as it does for a
// user). Offline: Claude and the mock run inside `unshare -n`.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installDir } from '../e2e/harnesses/record.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const native = join(root, 'bin', 'hookrt-native')
const kit = join(root, 'e2e', 'harnesses', 'claude-code')
const claude = join(installDir('claude-code'), 'node_modules', '.bin', 'claude')

/** One guard script's check; the worker runs all ten in one process. */
const check = (i) => `if (String(p.tool_input?.command ?? '').includes('forbidden-${i}')) { process.stderr.write('no ${i}'); process.exit(2) }`
const script = (i) => `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => { const p = JSON.parse(s || '{}'); ${check(i)} })\n`
const worker = `require(${JSON.stringify(join(root, 'worker'))}).serveWorker((e, p) => {\n  for (let i = 0; i < 10; i++) if (String(p.tool_input?.command ?? '').includes('forbidden-' + i)) return { exitCode: 2, stderr: 'no ' + i }\n})\n`

function session(w, env) {
  const log = join(w, `mock-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`)
  const portFile = log + '.port'
  const line = [
    'ip link set lo up 2>/dev/null',
    `node ${JSON.stringify(join(kit, 'mock-anthropic.mjs'))} 0 "$LOG" "$PORTFILE" > /dev/null 2>&1 & M=$!`,
    'for i in $(seq 100); do [ -s "$PORTFILE" ] && break; sleep 0.05; done',
    'cd "$PROJ" && env -i PATH="$PATH" TERM=dumb LANG=C.UTF-8 HOME="$H" CLAUDE_CONFIG_DIR="$H/.claude" TMPDIR="$W/tmp" ' +
      'ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$PORTFILE")" ANTHROPIC_API_KEY=sk-test CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 ' +
      'DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1 ' +
      'CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL=1 HOOKRT_SOCKET="$SOCK" HOOKRT_TOKEN="$TOKEN" timeout 120 "$CLAUDE" -p "Run the shell command: echo hi" ' +
      '--model claude-sonnet-4-5 --allowedTools Bash --output-format json > "$LOG.out" 2>&1 < /dev/null',
    'kill $M 2>/dev/null; wait $M 2>/dev/null; exit 0',
  ].join('\n')
  const r = spawnSync('unshare', ['-n', 'bash', '-c', line], {
    env: { ...process.env, ...env, LOG: log, PORTFILE: portFile, CLAUDE: claude, W: w },
    encoding: 'utf8',
    timeout: 180_000,
  })
  if (r.status !== 0) throw new Error(`session failed (${r.status}): ${r.stderr}`)
  const reqs = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const tool = reqs.find((q) => q.kind === 'tool')
  const fin = reqs.find((q) => q.kind === 'final')
  if (!tool || !fin) throw new Error(`no tool turn in ${log}: ${readFileSync(log + '.out', 'utf8').slice(0, 500)}`)
  return Date.parse(fin.t) - Date.parse(tool.t)
}

export async function claudeTurn({ sessions = 5, report = console.log } = {}) {
  if (!existsSync(claude) || !existsSync(native)) return report('claude turn: skipped (the Claude Code kit or bin/hookrt-native is missing)')
  if (spawnSync('unshare', ['-n', 'true']).status !== 0) return report('claude turn: skipped (unshare -n is not permitted here)')
  const w = mkdtempSync(join(tmpdir(), 'hookrt-claude-turn-'))
  const proj = join(w, 'proj')
  const home = join(w, 'home')
  const sock = join(w, 'serve.sock')
  for (const d of [join(proj, '.claude'), join(proj, 'hooks'), join(home, '.claude'), join(w, 'tmp')]) mkdirSync(d, { recursive: true })
  for (let i = 0; i < 10; i++) writeFileSync(join(proj, 'hooks', `h${i}.js`), script(i))
  writeFileSync(join(proj, 'hooks', 'all.js'), worker)
  const settings = join(proj, '.claude', 'settings.json')
  const env = { PROJ: proj, H: home, SOCK: sock, TOKEN: '', XDG_STATE_HOME: join(w, 'state') }
  const med = (x) => [...x].sort((a, b) => a - b)[x.length >> 1]
  const run = (name) => {
    session(w, env) // warm-up (caches, a worker's first start)
    const gaps = Array.from({ length: sessions }, () => session(w, env))
    return med(gaps)
  }
  try {
    writeFileSync(settings, '{}')
    const none = run('none')
    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: Array.from({ length: 10 }, (_, i) => ({ type: 'command', command: `node hooks/h${i}.js` })) }] } }))
    const nativeGap = run('native')
    writeFileSync(settings, '{}')
    const inst = spawnSync(native, ['install', 'claude', '--cwd', proj, '--home', home], { env: { ...process.env, HOME: home, XDG_STATE_HOME: join(w, 'state') }, encoding: 'utf8' })
    if (inst.status !== 0) throw new Error(inst.stderr)
    writeFileSync(join(proj, '.dsh-hooks.json'), JSON.stringify({ version: 1, events: { 'tool:before': [{ matcher: 'Bash', hooks: [{ type: 'worker', command: 'node hooks/all.js' }] }] } }))
    const serveEnv = { ...process.env, HOME: home, XDG_STATE_HOME: join(w, 'state') }
    const start = async () => {
      const server = spawn(native, ['serve', '--socket', sock], { env: serveEnv, stdio: 'ignore' })
      for (let i = 0; i < 200 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 25))
      return server
    }
    let server = await start()
    let commandGap
    try {
      commandGap = run('hookrt')
    } finally {
      server.kill('SIGTERM')
      await new Promise((r) => server.once('exit', r))
    }
    // The same, as Claude Code http hooks to serve (`install claude --http`): no process per event.
    writeFileSync(settings, '{}')
    const http = spawnSync(native, ['install', 'claude', '--http', '--cwd', proj, '--home', home], { env: serveEnv, encoding: 'utf8' })
    if (http.status !== 0) throw new Error(http.stderr)
    env.TOKEN = spawnSync(native, ['serve', '--print-token', '--home', home], { env: serveEnv, encoding: 'utf8' }).stdout.trim()
    server = await start()
    let httpGap
    try {
      httpGap = run('hookrt http')
    } finally {
      server.kill('SIGTERM')
    }
    const a = Math.max(nativeGap - none, 0)
    const b = Math.max(commandGap - none, 0.5)
    const c = Math.max(httpGap - none, 0.5)
    report(`claude turn: tool-call gap ${none} ms without hooks, ${nativeGap} ms with 10 native Node hooks, ${commandGap} ms with hookrt's command entries (one worker, serve), ${httpGap} ms with its http entries — median of ${sessions} sessions each`)
    report(`claude turn: hook time per turn, the 10 as one hookrt worker behind command entries: ${(commandGap - none).toFixed(1)} ms | baseline the 10 registered natively: ${a.toFixed(1)} ms | ratio ${(a / b).toFixed(1)}x less`)
    report(`claude turn: hook time per turn, the 10 as one hookrt worker behind http entries: ${(httpGap - none).toFixed(1)} ms | baseline the 10 registered natively: ${a.toFixed(1)} ms | ratio ${(a / c).toFixed(1)}x less (target >= 20x)`)
  } finally {
    rmSync(w, { recursive: true, force: true })
  }
}

if (process.argv[1] && process.argv[1] === fileURLToPath(import.meta.url)) await claudeTurn({ sessions: Number(process.argv[2] ?? 5) })
