// hookrt inside the real harnesses (part of `npm run test:harnesses`): for Claude Code, Codex,
// Gemini CLI, Copilot CLI and Hermes, one real session (scenario S1: the kit's recorder on every
// event, the mock model asking to run `rm -rf ./scratch`) after `hookrt install <harness>`, with a
// project holding a `.agents/hooks.json` guard denying `rm -rf` and a native `.dsh-hooks.json` with
// its own guard and a prompt-context hook. Checked, from what the harness and the mock recorded:
//   - the tool did not run (./scratch is still there) and the guard's reason reached the model;
//   - the context hook's text reached the model;
//   - hookrt's history lists the runs, each with the harness's name, none from the harness's own
//     files (the harness runs those itself: its recorder ran once per call, not twice);
//   - `hookrt uninstall` leaves the harness's files byte-identical to before the install.
// The project is trusted the way each harness records it (Claude Code's accepted workspace trust,
// Codex's trusted project, Gemini's and Copilot's trusted folders; Hermes keeps none, so its user
// approves the project's hooks with hookrt): a project's other hook files run inside a harness
// only then. Claude Code and Codex also run once untrusted: the tool runs unguarded, and hookrt
// tells the user which hooks it skipped and how to approve them. And once with a harmless tool
// call and a native PostToolUse hook that exits 2: its stderr reaches the model, as the harness
// shows its own hooks' exit-2 feedback; and (Codex) once with a Claude Code guard in the project's
// `.claude/settings.json` that prints a JSON deny and exits 1, which hookrt runs and must block on,
// as Claude Code does. Every `hookrt serve` a session starts is stopped after it.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import net from 'node:net'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { KITS } from './kits.mjs'
import { runScenario, installDir } from './record.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.join(HERE, '..', '..')
// The native executable, as `hookrt install` writes it into the entries.
const NATIVE = [path.join(ROOT, 'bin', 'hookrt-native')].find(f => fs.existsSync(f))

const GUARD = { PreToolUse: [{ matcher: 'Bash', command: "grep -q 'rm -rf' && { echo 'GUARD: no rm -rf here' >&2; exit 2; } || exit 0" }] }
const NATIVE_FILE = {
  version: 1,
  events: {
    'prompt:submit': [{ hooks: [{ type: 'shell', command: `printf '%s' '{"hookSpecificOutput":{"additionalContext":"CONTEXT-FROM-HOOKRT"}}'` }] }],
    'tool:before': [{ matcher: 'Bash', hooks: [{ type: 'shell', command: "grep -q 'rm -rf' && { echo 'NATIVE GUARD: no rm -rf either' >&2; exit 2; } || exit 0" }] }],
  },
}

/**
 * Per kit: the harness name for hookrt, the install scope, the files install touches (relative to
 * the session folder), the mock's tool call, the environment of its trust setup, and its event for a
 * tool call (to count the recorder's calls).
 */
export const INSIDE = {
  'claude-code': {
    harness: 'claude', scope: 'project', files: ['proj/.claude/settings.json'],
    env: { MOCK_TOOL_INPUT: JSON.stringify({ command: 'rm -rf ./scratch', description: 'Remove scratch' }) },
    toolEvent: 'PreToolUse',
    // what Claude Code's trust dialog records once accepted ($CLAUDE_CONFIG_DIR/.claude.json)
    trust: `printf '{"projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$RUN/proj" > "$RUN/home/.claude/.claude.json"`,
    untrusted: {},
    // the server answers http hooks with its own environment: Claude Code's config folder, as the
    // user's shell has it
    serveEnv: 'CLAUDE_CONFIG_DIR="$RUN/home/.claude" ',
  },
  codex: {
    harness: 'codex', scope: 'project', files: ['proj/.codex/hooks.json', 'home/.codex/config.toml'],
    // the recorder's hooks trusted the way `codex` does (/hooks) before hookrt installs; hookrt's
    // entries are trusted by install's own step
    env: { MOCK_SHELL_COMMAND: 'rm -rf ./scratch', TRUST: 'persist' },
    toolEvent: 'PreToolUse',
    // run.sh writes [projects."<proj>"] trust_level = "trusted" for the project layer
    trust: 'true',
    // an untrusted project: the same session without the project's trust, hookrt installed for the
    // user (Codex reads no .codex/ of an untrusted project), the kit's own hooks in the user layer
    // (driven through `codex app-server`, whose hook/completed notifications carry what the TUI
    // shows of each hook: a systemMessage is a warning entry there; `codex exec` prints none)
    untrusted: { HOOK_LAYER: 'user', PROJECT_TRUST: '0', DRIVER: 'appserver' },
    untrustedScope: 'user',
    untrustedFiles: ['home/.codex/hooks.json', 'home/.codex/config.toml'],
  },
  'gemini-cli': {
    harness: 'gemini', scope: 'project', files: ['proj/.gemini/settings.json'],
    env: { MOCK_TOOL_ARGS: JSON.stringify({ command: 'rm -rf ./scratch' }) },
    toolEvent: 'BeforeTool',
    // the kit runs with GEMINI_CLI_TRUST_WORKSPACE=true, which hookrt hook inherits
    trust: 'true',
  },
  'copilot-cli': {
    harness: 'copilot', scope: 'project', files: ['proj/.github/hooks/hookrt.json'],
    // TRUST=persist: the project is a trusted folder in $COPILOT_HOME/config.json (a session-only
    // --trust-folder leaves no record hookrt can read)
    env: { MOCK_TOOL_ARGS: JSON.stringify({ command: 'rm -rf ./scratch', description: 'Remove scratch' }), TRUST: 'persist' },
    toolEvent: 'preToolUse',
    trust: 'true',
  },
  hermes: {
    harness: 'hermes', scope: 'user', files: ['home/.hermes/config.yaml', 'home/.hermes/shell-hooks-allowlist.json'],
    // no --accept-hooks: hookrt's entries run because install approved them (the recorder's are
    // skipped, never approved)
    env: { MOCK_TOOL_ARGS: JSON.stringify({ command: 'rm -rf ./scratch' }), ACCEPT: 'none' },
    toolEvent: 'pre_tool_call',
    // Hermes keeps no record of trusted projects: the user approves the project's hooks
    trust: 'HOME="$RUN/home" "${HOOKRT}" trust approve --all --scope project --cwd "$RUN/proj" --home "$RUN/home" > /dev/null',
  },
}

const q = s => `'${String(s).replaceAll("'", "'\\''")}'`

/**
 * How `hookrt hook` answers in a session: in its own process; through `hookrt serve` (started
 * before the harness, on the socket the hook computes from the session's HOME); or through a
 * server the session's first prompt hook kills (SIGKILL, in the middle of that call), so the
 * calls from then on are answered in-process.
 */
export const MODES = ['in-process', 'serve', 'serve killed mid-session']
/** Claude Code also: `install claude --http`, its http hooks answered by `hookrt serve` directly. */
const HTTP = 'http hooks to serve'
/** Claude Code and Codex also: the project untrusted, as a freshly cloned repository is. */
const UNTRUSTED = 'untrusted project'

/** The shell line run.sh runs before the harness starts: the project's files, a snapshot, install. */
function setupLine(k, tmp, mode, nativeHooks = NATIVE_FILE) {
  const scope = mode === UNTRUSTED ? k.untrustedScope ?? k.scope : k.scope
  // hookrt's state (install records, the http endpoint) in the test's own folder for http mode
  const state = mode === HTTP ? `XDG_STATE_HOME=${q(path.join(tmp, 'state'))} ` : ''
  const agents = path.join(tmp, 'agents.json')
  const nativeFile = path.join(tmp, 'dsh-hooks.json')
  fs.writeFileSync(agents, JSON.stringify(GUARD))
  const file = structuredClone(nativeHooks)
  // Every hook notes which process ran it (`$PPID` of its shell): hookrt serve or hookrt hook.
  if (file.events['tool:before']) file.events['tool:before'][0].hooks[0].command = 'echo $PPID >> "$HOOKRT_E2E_RUN/guard-ran-in"; ' + file.events['tool:before'][0].hooks[0].command
  if (mode === 'serve killed mid-session') {
    file.events['prompt:submit'][0].hooks.unshift({ type: 'shell', command: 'kill -9 "$(cat "$HOOKRT_E2E_RUN/serve.pid")" 2>/dev/null; true' })
  }
  fs.writeFileSync(nativeFile, JSON.stringify(file).replaceAll('$HOOKRT_E2E_RUN', '__RUN__'))
  const snap = k.files.map(f => `if [ -f "$RUN/${f}" ]; then cp "$RUN/${f}" "$RUN/${f}.before-hookrt"; fi`).join('; ')
  return [
    'set -e', 'mkdir -p "$RUN/proj/scratch" "$RUN/proj/.agents"', `cp ${q(agents)} "$RUN/proj/.agents/hooks.json"`,
    `sed "s|__RUN__|$RUN|g" ${q(nativeFile)} > "$RUN/proj/.dsh-hooks.json"`, snap,
    ...(mode === UNTRUSTED ? [] : [k.trust.replaceAll('${HOOKRT}', NATIVE)]),
    ...(mode === 'in-process' ? [] : [
      // the socket `hookrt hook` will look for: $HOME/.cache/hookrt/serve.sock with the session's HOME
      `(HOME="$RUN/home" XDG_RUNTIME_DIR= HOOKRT_SOCKET= ${state}${k.serveEnv ?? ''}setsid ${q(NATIVE)} serve > "$RUN/serve.log" 2>&1 & echo $! > "$RUN/serve.pid")`,
      'for i in $(seq 100); do [ -S "$RUN/home/.cache/hookrt/serve.sock" ] && break; sleep 0.05; done',
    ]),
    `${state}${q(NATIVE)} install ${k.harness} --scope ${scope}${mode === HTTP ? ' --http' : ''} --cwd "$RUN/proj" --home "$RUN/home" > "$RUN/hookrt-install.txt"`,
  ].join('; ')
}

/** Stops the session's `hookrt serve`, if setupLine started one: no server outlives its check. */
function stopServe(run) {
  const f = run && path.join(run, 'serve.pid')
  const pid = f && fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8')) : 0
  if (pid) try { process.kill(pid, 'SIGTERM') } catch {}
}

const readLines = f => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).flatMap(l => { try { return [JSON.parse(l)] } catch { return [] } }) : [])

/** The environment of a session with hookrt installed by `setup` (setupLine's shell line). */
const sessionEnv = (k, setup, extra = {}) => ({ ...k.env, ...extra, HOOKRT_SETUP: setup, XDG_STATE_HOME: '', XDG_RUNTIME_DIR: '', HOOKRT_SOCKET: '' })
/** The kits' variables for the mock's tool call: without them each kit's mock runs its harmless `echo hi`. */
const TOOL_CALL_VARS = ['MOCK_TOOL_INPUT', 'MOCK_SHELL_COMMAND', 'MOCK_TOOL_ARGS']
const harmless = env => Object.fromEntries(Object.entries(env).filter(([k]) => !TOOL_CALL_VARS.includes(k)))
const logLine = (kit, label, text, problems) => console.log(`${kit.padEnd(12)} inside (${label}): ${text}${problems.length ? '  <-- ' + problems.length + ' problem(s)' : ''}`)

/**
 * One session of the kit with hookrt installed (`envOf(tmp)` gives its environment), handed to
 * `check`, which returns the problems it finds; the session's server is stopped and its folder
 * removed after, whatever happened.
 */
function checkSession(kit, label, envOf, check) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hookrt-inside-${kit}-`))
  let session
  let problems
  try {
    session = runScenario(kit, 'S1', tmp, envOf(tmp))
    problems = fs.existsSync(path.join(session.run, 'hookrt-install.txt'))
      ? check(session)
      : [`hookrt install did not run:\n${session.printout.slice(-1500)}`]
  } catch (e) {
    problems = [String(e.message ?? e).slice(0, 2000)]
  } finally {
    stopServe(session?.run)
    if (process.env.HOOKRT_E2E_KEEP) console.log(`kept ${tmp}`)
    else fs.rmSync(tmp, { recursive: true, force: true })
  }
  return problems.map(p => `${kit} (${label}): ${p}`)
}

/**
 * The kit's session in a project the harness does not trust, hookrt installed: none of the
 * project's hook files runs (the session goes on as without hookrt), the history lists them as
 * skipped, and the user is told — in what the harness shows of the session — which hooks hookrt
 * skipped and how to approve them.
 */
function untrustedCheck(kit) {
  const k = INSIDE[kit]
  const envOf = tmp => sessionEnv(k, setupLine({ ...k, files: k.untrustedFiles ?? k.files }, tmp, UNTRUSTED), k.untrusted)
  return checkSession(kit, UNTRUSTED, envOf, ({ run, printout }) => {
    const problems = []
    if (fs.existsSync(path.join(run, 'guard-ran-in'))) problems.push('the native guard of an untrusted project ran')
    const history = readLines(path.join(run, 'home', '.local', 'state', 'hookrt', 'history.jsonl'))
    const skipped = new Set(history.flatMap(h => (h.skipped ?? []).map(s => path.basename(s.file))))
    if (!skipped.has('hooks.json') || !skipped.has('.dsh-hooks.json')) problems.push(`the history lists no skipped hooks: ${[...skipped]}`)
    if (history.some(h => h.runs.length)) problems.push(`hookrt ran hooks: ${JSON.stringify(history.flatMap(h => h.runs.map(r => r.file)))}`)
    // What the user saw: the harness's printout and output streams of the session.
    const sources = [['the printout', printout], ...walk(run).filter(f => /\.(jsonl|json|txt|log)$/.test(f) && !/history\.jsonl$|\.before-hookrt$/.test(f)).map(f => [path.relative(run, f), fs.readFileSync(f, 'utf8')])]
    const where = sources.filter(([, text]) => /hookrt skipped \d+ hook\(s\) of this project/.test(text)).map(([name]) => name)
    const told = sources.map(([, text]) => text.match(/hookrt skipped \d+ hook\(s\) of this project(?:[^"\n\\]|\\.)*/)).find(Boolean)
    if (!told) problems.push('the user was not told which hooks hookrt skipped')
    else if (!/hookrt trust approve --all --scope project --cwd /.test(told[0])) problems.push(`the message does not say how to approve: ${told[0]}`)
    logLine(kit, UNTRUSTED, `no project hook ran, ${[...skipped].length} skipped file(s) in the history; the user was told in ${where.join(', ') || 'nothing'}: ${told ? JSON.stringify(told[0].slice(0, 120)) : 'no'}`, problems)
    return problems
  })
}

/** The text a PostToolUse hook run by hookrt gives back (exit 2, stderr), which the model must see. */
const FEEDBACK = 'FEEDBACK-FROM-HOOKRT'
/** The harnesses whose PostToolUse hands a hook's exit-2 stderr to the model (Codex's `post_tool_use.rs`
 * `exit_two_surfaces_feedback_to_model_without_blocking`, Claude Code's exit-2 table). */
const FEEDBACK_KITS = ['claude-code', 'codex']

/**
 * A session whose tool runs (the kit's default `echo hi`), with a hookrt-run `tool:after` hook that
 * exits 2 with a message on stderr: `hookrt hook <harness>` must answer so that the harness shows that
 * message to the model, as the harness does for its own hooks.
 */
function feedbackCheck(kit) {
  const k = INSIDE[kit]
  const label = 'PostToolUse exit 2'
  const native = { version: 1, events: { 'tool:after': [{ matcher: 'Bash', hooks: [{ type: 'shell', command: `cat > /dev/null; echo '${FEEDBACK}' >&2; exit 2` }] }] } }
  const envOf = tmp => harmless(sessionEnv(k, setupLine(k, tmp, 'in-process', native)))
  return checkSession(kit, label, envOf, ({ run }) => {
    const problems = []
    const mock = fs.existsSync(path.join(run, KITS[kit].mock)) ? fs.readFileSync(path.join(run, KITS[kit].mock), 'utf8') : ''
    const history = readLines(path.join(run, 'home', '.local', 'state', 'hookrt', 'history.jsonl'))
    const after = history.filter(h => h.runs.some(r => /\.dsh-hooks\.json$/.test(r.file)))
    if (!after.length) problems.push('hookrt ran no PostToolUse hook (the tool did not run?)')
    if (!mock.includes(FEEDBACK)) problems.push("the hook's feedback did not reach the model")
    logLine(kit, label, `${after.length} dispatch(es) ran the hook; the model ${mock.includes(FEEDBACK) ? 'saw' : 'did not see'} ${FEEDBACK}`, problems)
    return problems
  })
}

/** A Claude Code guard that prints its deny as JSON and exits 1: Claude Code 2.1.332 blocks on it (the
 * claude-code kit's S14), so hookrt must too wherever it runs that file. */
const CLAUDE_GUARD_REASON = 'CLAUDE GUARD: exit 1 with a JSON deny'
const CLAUDE_GUARD = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command:
  `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${CLAUDE_GUARD_REASON}"}}'; exit 1` }] }] } }

/**
 * Codex with hookrt installed runs the project's `.claude/settings.json` (Codex never reads it), the
 * project trusted in Claude Code's record too: the Claude guard above must block the tool there.
 * Claude Code with hookrt installed keeps running that file itself (hookrt leaves a harness's own
 * files to it): the guard, merged into the session's settings beside hookrt's entries, must still
 * block, and hookrt must not run it a second time.
 */
export function claudeGuardCheck(kit) {
  const k = INSIDE[kit]
  const label = 'a Claude guard exiting 1 with a JSON deny'
  const inClaude = k.harness === 'claude'
  const envOf = tmp => {
    const settings = path.join(tmp, 'claude-settings.json')
    fs.writeFileSync(settings, JSON.stringify(CLAUDE_GUARD))
    const setup = setupLine(k, tmp, 'in-process', { version: 1, events: {} })
    if (inClaude) {
      // the guard goes into the settings the kit wrote, before hookrt install adds its entries
      const merge = `const fs=require('fs');const [f,g]=process.argv.slice(1);const s=JSON.parse(fs.readFileSync(f,'utf8'));` +
        `const add=JSON.parse(fs.readFileSync(g,'utf8')).hooks;s.hooks??={};for(const [e,l] of Object.entries(add))s.hooks[e]=[...l,...(s.hooks[e]??[])];fs.writeFileSync(f,JSON.stringify(s,null,2))`
      return harmless(sessionEnv(k, `${q(process.execPath)} -e ${q(merge)} "$RUN/proj/.claude/settings.json" ${q(settings)}; ${setup}`))
    }
    const claude = [
      `mkdir -p "$RUN/proj/.claude"`, `cp ${q(settings)} "$RUN/proj/.claude/settings.json"`,
      `printf '{"projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$RUN/proj" > "$RUN/home/.claude.json"`,
    ].join('; ')
    return harmless(sessionEnv(k, `${setup}; ${claude}`))
  }
  return checkSession(kit, label, envOf, ({ run }) => {
    const problems = []
    const mock = fs.existsSync(path.join(run, KITS[kit].mock)) ? fs.readFileSync(path.join(run, KITS[kit].mock), 'utf8') : ''
    const history = readLines(path.join(run, 'home', '.local', 'state', 'hookrt', 'history.jsonl'))
    const ran = history.flatMap(h => h.runs).filter(r => /\.claude\/settings\.json$/.test(r.file))
    const denied = ran.filter(r => r.decision === 'deny')
    if (inClaude) {
      if (ran.length) problems.push(`hookrt ran Claude Code's own file too: ${JSON.stringify(ran.map(r => [r.file, r.decision]))}`)
      const installed = fs.readFileSync(path.join(run, 'proj', '.claude', 'settings.json'), 'utf8')
      if (!installed.includes('hookrt') || !installed.includes(CLAUDE_GUARD_REASON)) problems.push('the settings do not hold both the guard and hookrt\'s entries')
    } else if (!denied.length) {
      problems.push(`hookrt did not deny with the Claude guard: ${JSON.stringify(history.flatMap(h => h.runs.map(r => [r.file, r.decision])))}`)
    }
    if (!mock.includes(CLAUDE_GUARD_REASON)) problems.push("the guard's reason did not reach the model")
    const who = inClaude ? `Claude Code ran it, hookrt ${ran.length}x` : `hookrt denied ${denied.length}x`
    logLine(kit, label, `${who}; the model ${mock.includes(CLAUDE_GUARD_REASON) ? 'saw' : 'did not see'} its reason`, problems)
    return problems
  })
}

/** Every file below a folder. */
function walk(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? walk(p) : e.isFile() && fs.statSync(p).size < 20 << 20 ? [p] : []
  })
}

/** Runs the kit's session with hookrt installed; returns the problems found (empty: all held). */
async function insideCheck(kit, mode) {
  const k = INSIDE[kit]
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hookrt-inside-${kit}-`))
  const problems = []
  let session
  try {
    const env = { ...k.env, HOOKRT_SETUP: setupLine(k, tmp, mode), XDG_STATE_HOME: '', XDG_RUNTIME_DIR: '', HOOKRT_SOCKET: '' }
    if (mode === HTTP) {
      // the endpoint install --http would choose, made beforehand so the harness can get the token
      const token = crypto.randomBytes(32).toString('hex')
      fs.mkdirSync(path.join(tmp, 'state', 'hookrt'), { recursive: true })
      fs.writeFileSync(path.join(tmp, 'state', 'hookrt', 'serve-http.json'), JSON.stringify({ port: await freePort(), token }))
      env.EXTRA_ENV = `HOOKRT_TOKEN=${token}`
    }
    session = runScenario(kit, 'S1', tmp, env)
    const { run, printout } = session
    if (!fs.existsSync(path.join(run, 'hookrt-install.txt'))) return [`hookrt install did not run:\n${printout.slice(-1500)}`]
    const mock = fs.existsSync(path.join(run, KITS[kit].mock)) ? fs.readFileSync(path.join(run, KITS[kit].mock), 'utf8') : ''
    if (!fs.existsSync(path.join(run, 'proj', 'scratch'))) problems.push('the tool ran: ./scratch is gone')
    if (!/no rm -rf here/.test(mock)) problems.push("the guard's reason did not reach the model")
    if (!/CONTEXT-FROM-HOOKRT/.test(mock)) problems.push("the context hook's text did not reach the model")
    const stateDir = mode === HTTP ? path.join(tmp, 'state') : path.join(run, 'home', '.local', 'state')
    const history = readLines(path.join(stateDir, 'hookrt', 'history.jsonl'))
    const runs = history.flatMap(h => h.runs.map(r => ({ host: h.host, event: h.event, file: r.file, decision: r.decision })))
    if (!history.length) problems.push('hookrt wrote no history (it ran no hook)')
    if (history.some(h => h.host !== k.harness)) problems.push(`history lines name another host: ${[...new Set(history.map(h => h.host))]}`)
    const own = runs.filter(r => !/\.agents\/hooks\.json$|\.dsh-hooks\.json$/.test(r.file))
    if (own.length) problems.push(`hookrt ran the harness's own hooks too: ${own.map(r => r.file).join(', ')}`)
    if (!runs.some(r => r.decision === 'deny')) problems.push('no hookrt run denied')
    const recorder = readLines(path.join(run, KITS[kit].log)).filter(c => c.stdin && (c.event === k.toolEvent || c.stdin.hook_event_name === k.toolEvent))
    if (recorder.length > 1) problems.push(`the harness's own ${k.toolEvent} hook ran ${recorder.length} times for one call`)
    // Who answered: the server (its pid), or hookrt hook itself.
    const servePid = fs.existsSync(path.join(run, 'serve.pid')) ? Number(fs.readFileSync(path.join(run, 'serve.pid'), 'utf8')) : 0
    const ranIn = fs.existsSync(path.join(run, 'guard-ran-in')) ? fs.readFileSync(path.join(run, 'guard-ran-in'), 'utf8').trim().split('\n').map(Number) : []
    if (!ranIn.length) problems.push('the native guard never ran')
    if ((mode === 'serve' || mode === HTTP) && ranIn.some(pid => pid !== servePid)) problems.push(`the guard ran outside hookrt serve (${ranIn} vs ${servePid})`)
    if (mode === 'serve killed mid-session' && ranIn.some(pid => pid === servePid)) problems.push('the guard ran in the killed server')
    // Uninstall: the harness's files as they were before the install.
    const homeEnv = { CODEX_HOME: path.join(run, 'home', '.codex'), HERMES_HOME: path.join(run, 'home', '.hermes'), XDG_STATE_HOME: mode === HTTP ? path.join(tmp, 'state') : '' }
    const u = spawnSync(NATIVE, ['uninstall', k.harness, '--scope', k.scope, '--cwd', path.join(run, 'proj'), '--home', path.join(run, 'home')],
      { encoding: 'utf8', env: { ...process.env, ...homeEnv } })
    if (u.status !== 0) problems.push(`hookrt uninstall failed: ${u.stderr}`)
    for (const f of k.files) {
      const before = path.join(run, `${f}.before-hookrt`)
      const now = path.join(run, f)
      const same = fs.existsSync(before) ? fs.existsSync(now) && fs.readFileSync(before).equals(fs.readFileSync(now)) : !fs.existsSync(now)
      if (!same) problems.push(`${f} is not as it was before the install`)
    }
    console.log(`${kit.padEnd(12)} inside (${mode}): ${history.length} dispatches through hookrt (${runs.length} runs, ${runs.filter(r => r.decision === 'deny').length} denies), harness's own ${k.toolEvent} hook ran ${recorder.length}x${problems.length ? '  <-- ' + problems.length + ' problem(s)' : ''}`)
  } catch (e) {
    problems.push(String(e.message ?? e).slice(0, 2000))
  } finally {
    stopServe(session?.run)
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return problems.map(p => `${kit} (${mode}): ${p}`)
}

/** The modes each kit is run in: every mode (Claude Code also with http hooks). */
const modesOf = kit => (process.env.HOOKRT_E2E_MODES?.split(',') ?? [...MODES, ...(kit === 'claude-code' ? [HTTP] : [])])

/** A free loopback port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

/** Every kit's inside session; the problems found. */
export async function insideChecks(kits) {
  if (!NATIVE) return ['bin/hookrt-native is missing: build it first (npm run build:ci)']
  const out = []
  for (const kit of kits.filter(k => INSIDE[k])) {
    for (const mode of modesOf(kit)) out.push(...(await insideCheck(kit, mode)))
    if (INSIDE[kit].untrusted) out.push(...untrustedCheck(kit))
    if (FEEDBACK_KITS.includes(kit)) out.push(...feedbackCheck(kit))
    if (kit === 'codex' || kit === 'claude-code') out.push(...claudeGuardCheck(kit))
  }
  return out
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kits = process.argv[2]?.split(',') ?? Object.keys(INSIDE)
  for (const kit of kits) if (!fs.existsSync(installDir(kit))) throw new Error(`${kit} is not installed (npm run record:harnesses)`)
  const found = await insideChecks(kits)
  console.log(found.length ? `hookrt inside the harnesses:\n  ${found.join('\n  ')}` : 'hookrt inside the harnesses: every check held')
  process.exit(found.length ? 1 : 0)
}
