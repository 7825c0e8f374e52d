// Every recorded scenario of a real harness (e2e/recordings/, `npm run record:harnesses`),
// replayed through hookrt's JS API with the same hook files and the same recorder hook: each hook
// must get the stdin, environment, cwd, argv and shell its harness gave it, and the outcome must
// carry what the harness acted on (the tool blocked or run, the context passed on, the input
// rewritten, the turn kept going, the hook killed). One test file per harness (replay-*.test.mjs)
// calls replayKit, so the harnesses replay side by side.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import { scenarios, load, occurrences, layout, hostEnv, replayer, payloadOf, keyOrder, harnessEnv, NOT_REPRODUCED } from './replay-lib.mjs'
import { canonicalOf, sameShape } from './replay-canonical.mjs'
import { KITS } from '../e2e/harnesses/kits.mjs'

const short = v => {
  const s = JSON.stringify(v)
  return s && s.length > 300 ? s.slice(0, 300) + '…' : s
}

/** Field-by-field differences between what the harness gave a hook and what hookrt gave it. */
function differences(want, got, { exact }) {
  const out = []
  if (exact) {
    if (!isDeepStrictEqual(got.stdin, want.stdin)) {
      const w = want.stdin ?? {}, g = got.stdin ?? {}
      for (const k of new Set([...Object.keys(w), ...Object.keys(g)])) {
        if (!(k in g)) out.push(`stdin.${k} missing (harness: ${short(w[k])})`)
        else if (!(k in w)) out.push(`stdin.${k} extra (hookrt: ${short(g[k])})`)
        else if (!isDeepStrictEqual(w[k], g[k])) out.push(`stdin.${k}: harness ${short(w[k])}, hookrt ${short(g[k])}`)
      }
    } else if (!isDeepStrictEqual(keyOrder(got.stdin), keyOrder(want.stdin))) {
      out.push(`stdin key order: harness ${short(keyOrder(want.stdin))}, hookrt ${short(keyOrder(got.stdin))}`)
    }
  } else {
    out.push(...sameShape(want.stdin, got.stdin))
  }
  for (const k of ['stdinNewline', 'argv', 'cwd', 'shell']) {
    if (!isDeepStrictEqual(got[k], want[k])) out.push(`${k}: harness ${short(want[k])}, hookrt ${short(got[k])}`)
  }
  if (!isDeepStrictEqual(got.env, want.env)) {
    for (const k of new Set([...Object.keys(want.env), ...Object.keys(got.env)])) {
      if (want.env[k] !== got.env[k]) out.push(`env ${k}: harness ${short(want.env[k])}, hookrt ${short(got.env[k])}`)
    }
  }
  return out
}

const answered = (occ, ...modes) => occ.some(c => modes.includes(c.answer))
// the reason each of the recorder's deny answers gives
const DENY_TEXT = {
  exit2: 'blocked by recorder', 'json-deny': 'json deny from recorder', 'json-deny-hermes': 'json deny from recorder',
  'legacy-block': 'json deny from recorder', 'exit1-json-deny': 'json deny from recorder',
  'exit2-json-stdout': 'json deny from recorder', 'json-deny-wrong-event': 'json deny from recorder',
  'hso-deny': 'json deny from recorder', 'exit2-json': 'blocked by recorder', 'exit2-json-stderr': 'json deny from recorder',
  'exit3-plain-stdout': 'plain deny from recorder', 'json-deny-second': 'second deny from recorder',
  'json-deny-slow': 'json deny from recorder', 'json-deny-second-slow': 'second deny from recorder',
}
// the unusual answers whose effect on the tool the recordings decide (a deny, or nothing)
const TOOL_GUARDS = [
  'exit2', 'exit1', 'json-deny', 'json-deny-hermes', 'legacy-block', 'continue-false', 'exit1-json-deny',
  'exit2-json-stdout', 'exit2-plain-stdout', 'json-deny-wrong-event', 'exit2-silent', 'hso-deny', 'exit2-json',
  'exit2-json-stderr', 'exit2-json-note', 'exit3-plain-stdout', 'log-then-json', 'json-deny-second', 'json-deny-slow',
  'json-deny-second-slow', 'truncated-json', 'killed',
]
const saw = (facts, text) => facts.modelSaw.some(s => s.includes(text))

/** What the harness did with the hooks' answers to this occurrence, checked against hookrt's outcome. */
function actedOn(occ, result, facts, stopsSoFar, norm, answerOrder) {
  const out = []
  const o = result.outcome
  // Denies that answer at once, to a harness that tells the reason of the last to answer: the
  // model may have been told either's
  const atOnce = occ.filter(c => DENY_TEXT[c.answer]).map(c => c.answer)
  const raced = answerOrder && atOnce.length > 1 && !atOnce.some(a => a.endsWith('-slow')) && atOnce.some(a => DENY_TEXT[a] === o.reason)
  const what = `${occ[0].event} (${occ.map(c => c.answer).join(',')})`
  if (result.canonical === 'tool:before' && answered(occ, ...TOOL_GUARDS)) {
    const harnessBlocked = !facts.toolRan
    if ((o.decision === 'deny') !== harnessBlocked) out.push(`${what}: the harness ${harnessBlocked ? 'blocked' : 'ran'} the tool, hookrt decided ${o.decision}`)
    // (a run the hook stopped altogether tells the model nothing more: Cline's cancel)
    if (harnessBlocked && o.reason && !o.stop && !raced && !facts.modelSaw.some(s => s.includes(o.reason))) {
      out.push(`${what}: hookrt's reason ${short(o.reason)} is not what the model was told (${short(facts.modelSaw)})`)
    }
    // Claude names the hook's command in what it tells the model: `hook error: [<command>]: …`
    for (const named of facts.modelSaw.flatMap(s => [...s.matchAll(/hook error: \[(.*?)\]: /g)].map(m => m[1]))) {
      const commands = result.runs.map(r => norm.text(r.hook.command ?? ''))
      if (!commands.includes(named)) out.push(`${what}: the harness named the hook ${short(named)}, hookrt's runs name ${short(commands)}`)
    }
  }
  const denyAnswer = occ.find(c => DENY_TEXT[c.answer])?.answer
  if (result.canonical === 'tool:after' && denyAnswer) {
    // the model got the hook's reason instead of the tool's output
    const replaced = facts.modelSaw.includes(DENY_TEXT[denyAnswer])
    const got = o.updatedToolOutput ?? null
    if (replaced && got !== DENY_TEXT[denyAnswer]) out.push(`${what}: the harness replaced the tool output with the reason, hookrt updatedToolOutput ${short(got)}`)
    if (!replaced && got !== null) out.push(`${what}: the harness kept the tool output, hookrt updatedToolOutput ${short(got)}`)
  }
  if (['prompt:submit', 'model:before'].includes(result.canonical) && denyAnswer) {
    const blocked = facts.modelRequests === 0
    if ((o.decision === 'deny') !== blocked) out.push(`${what}: the harness ${blocked ? 'stopped before the model' : 'went on to the model'}, hookrt decided ${o.decision}`)
  }
  if (result.canonical === 'permission:request' && denyAnswer) {
    const denied = !facts.toolRan
    const got = o.decision === 'deny' || o.permission?.behavior === 'deny'
    if (got !== denied) out.push(`${what}: the harness ${denied ? 'denied' : 'granted'} the permission, hookrt ${short({ decision: o.decision, permission: o.permission })}`)
  }
  if (answered(occ, 'continue-false') && result.canonical === 'tool:before') {
    if (o.stop !== !facts.toolRan) out.push(`${what}: the harness ${facts.toolRan ? 'ignored' : 'honoured'} continue:false, hookrt stop ${o.stop}`)
  }
  if (answered(occ, 'context', 'plain-context', 'message-context')) {
    const passed = saw(facts, 'CONTEXT-FROM-HOOK')
    // what hookrt passes on must be what the model was sent (Kimi passes a whole JSON answer on)
    const ours = passed
      ? o.contexts.some(c => c.includes('CONTEXT-FROM-HOOK') && facts.modelSaw.some(s => s.includes(c)))
      : o.contexts.some(c => c.includes('CONTEXT-FROM-HOOK'))
    if (ours !== passed) out.push(`${what}: the harness ${passed ? 'passed the context on' : 'ignored the context'}, hookrt contexts ${short(o.contexts)}`)
  }
  if (answered(occ, 'update-input')) {
    const rewritten = facts.commands.includes('echo changed')
    const got = o.updateInputs.some(u => u.command === 'echo changed' || u.cmd === 'echo changed' || u.commands?.[0] === 'echo changed')
    if (got !== rewritten) out.push(`${what}: the harness ${rewritten ? 'ran the rewritten command' : 'kept the command'}, hookrt updateInputs ${short(o.updateInputs)}`)
  }
  if (result.canonical === 'turn:stop' && answered(occ, 'stop-block', 'stop-block-alias', 'exit2-once')) {
    const kept = facts.stops > stopsSoFar
    if ((o.decision === 'deny') !== kept) out.push(`${what}: the harness ${kept ? 'kept the turn going' : 'let the turn end'}, hookrt decided ${o.decision}`)
  }
  if (answered(occ, 'sleep') && facts.hookKilled) {
    const timedOut = result.runs.filter(r => r.timedOut)
    if (timedOut.length !== 1) out.push(`${what}: the harness killed the hook at its timeout, hookrt runs ${short(result.runs.map(r => ({ error: r.error, timedOut: r.timedOut })))}`)
  }
  return out
}

/** Whether the harness ran this scenario's hooks one after the other (so the order is theirs). */
const sequential = (kit, scenario) =>
  KITS[kit].sequential || Object.values(scenario.files).some(t => /"sequential":\s*true/.test(t))

/** Replays one scenario; `shapeOf` turns a recorded call into what the host dispatches. */
async function replay(t, kit, sc, shapeOf) {
  const { scenario, calls } = load(kit, sc)
  const place = layout(kit, scenario)
  t.after(place.cleanup)
  t.after(hostEnv(scenario, place))
  const r = replayer(kit, scenario, place)
  t.after(() => r.rt.close())
  const drop = new Set(NOT_REPRODUCED[kit])
  const problems = []
  let comparisons = 0
  let stops = 0
  for (const occ of occurrences(calls)) {
    const { event, payload, exact } = shapeOf(kit, occ[0], place)
    const { result, calls: got } = await r.dispatch(event, payload, occ.length)
    const inOrder = sequential(kit, scenario)
    const tags = calls => (inOrder ? calls.map(c => String(c.tag)) : calls.map(c => String(c.tag)).sort())
    const at = `${occ[0].file} (${event})`
    if (!isDeepStrictEqual(tags(occ), tags(got))) {
      problems.push(`${at}: the harness ran ${short(tags(occ))}${inOrder ? ' in that order' : ''}, hookrt ran ${short(tags(got))}`)
      continue
    }
    for (const want of occ) {
      const g = got.find(c => String(c.tag) === String(want.tag))
      comparisons++
      const env = harnessEnv(want.env, drop)
      for (const d of differences({ ...want, env }, g, { exact })) problems.push(`${at}: ${d}`)
    }
    if (result.canonical === 'turn:stop') stops++
    for (const d of actedOn(occ, result, scenario.facts, stops, r.norm, KITS[kit].answerOrder)) problems.push(`${at}: ${d}`)
  }
  assert.ok(problems.length === 0, `${kit} ${sc}: ${problems.length} differences from the recording:\n  ${problems.join('\n  ')}`)
  return comparisons
}

const own = (kit, call, place) => ({ event: call.event, payload: payloadOf(call.stdin, place), exact: true })

/** Defines the tests of one kit: both replays of each of its recorded scenarios. */
export function replayKit(kit) {
  if (!process.env.REPLAY_ONLY) {
    test(`${kit}: every scenario of the kit has a committed recording`, () => {
      assert.deepEqual(scenarios(kit), [...KITS[kit].scenarios].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })))
    })
  }
  for (const sc of scenarios(kit)) {
    test(`${kit} ${sc}: the harness's own payloads reach each hook as the harness sent them`, async t => {
      t.diagnostic(`${await replay(t, kit, sc, own)} hook calls compared`)
    })
    test(`${kit} ${sc}: the canonical payload is shaped into each hook's stdin as the harness sends it`, async t => {
      t.diagnostic(`${await replay(t, kit, sc, canonicalOf)} hook calls compared`)
    })
  }
}
