'use strict'
// The public JavaScript API of hookrt: a thin layer over the native addon that speaks JS —
// objects in and out, AbortSignal semantics like fetch, and a synchronous answer (still a
// Promise) when no hook matches, so the common case never crosses into the async machinery.

const native = require('./index.js')

const eventCache = new Map()

/** @returns {{canonical: string, subjectKeys: string[], subjectBasename: boolean} | null} */
function eventInfo(name) {
  let info = eventCache.get(name)
  if (info === undefined) {
    const json = native.eventInfo(name)
    info = json === null ? null : JSON.parse(json)
    if (eventCache.size < 256) eventCache.set(name, info)
  }
  return info
}

function subjectOf(payload, info) {
  for (const k of info.subjectKeys) {
    const v = payload[k]
    if (typeof v === 'string') return info.subjectBasename ? v.slice(v.lastIndexOf('/') + 1) : v
  }
  return undefined
}

function emptyOutcome() {
  return { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false }
}

function emptyResult(canonical) {
  return { canonical, outcome: emptyOutcome(), runs: [] }
}

// `emptyOutcome()` as the native side writes it (`Outcome::empty()`, same fields in the same
// order): the outcome of most dispatches, built here without parsing.
const EMPTY_OUTCOME = JSON.stringify(emptyOutcome())

/**
 * A dispatch result from the native side's three lines (canonical name, outcome JSON, runs
 * JSON): the name needs no parsing, the empty outcome is built rather than parsed, and `runs`
 * is parsed when first read (most hosts act on the outcome alone; parsing the runs would be
 * the largest part of a callback hook's cost). Reading or assigning it makes it a plain
 * property, so the result looks and serialises like any object.
 */
function readResult(text) {
  const a = text.indexOf('\n')
  const b = text.indexOf('\n', a + 1)
  const outcome = text.slice(a + 1, b)
  const result = {
    canonical: text.slice(0, a),
    outcome: outcome === EMPTY_OUTCOME ? emptyOutcome() : JSON.parse(outcome),
  }
  const runs = text.slice(b + 1)
  if (runs === '[]') result.runs = []
  else {
    // The same getter for every result, its JSON kept aside: V8 then gives all such results
    // one shape (a getter made per result would give each its own, slowly), and the result
    // has no property but its three (a hidden one would cost a second `defineProperty`).
    new RunsJson(result, runs)
    Object.defineProperty(result, 'runs', RUNS_ACCESSOR)
  }
  return result
}

/** Returns the object it is given: a subclass's private fields are then added to that object. */
class Returns {
  constructor(o) {
    return o
  }
}

/**
 * A result's runs JSON until they are first read, in a private field of the result itself:
 * invisible to keys, spread, `inspect` and `assert`, and added without `defineProperty` (a call
 * into V8's runtime; a WeakMap costs as much again in the collector).
 */
class RunsJson extends Returns {
  #json
  constructor(result, json) {
    super(result)
    this.#json = json
  }

  /** The JSON, once (a result whose runs were assigned, or any other object, has none). */
  static take(o) {
    if (!(#json in o)) return undefined
    const json = o.#json
    o.#json = undefined
    return json
  }
}

function getRuns() {
  const runs = JSON.parse(RunsJson.take(this) ?? '[]')
  setRuns.call(this, runs)
  return runs
}

function setRuns(value) {
  RunsJson.take(this)
  Object.defineProperty(this, 'runs', { value, writable: true, enumerable: true, configurable: true })
}

const RUNS_ACCESSOR = { get: getRuns, set: setRuns, enumerable: true, configurable: true }

function isPlainObject(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function isAbortSignal(s) {
  return s !== null && typeof s === 'object' && typeof s.aborted === 'boolean' && typeof s.addEventListener === 'function'
}

/** Adapts the host's `mcpCall(server, tool, input, signal)` to the native JSON calls. */
function mcpAdapters(mcpCall) {
  const running = new Map()
  const call = async (reqJson) => {
    const { id, server, tool, input } = JSON.parse(reqJson)
    const ac = new AbortController()
    running.set(id, ac)
    try {
      const r = await mcpCall(server, tool, input, ac.signal)
      if (r === null || typeof r !== 'object') throw new TypeError('mcpCall must resolve to {content, isError?}')
      return JSON.stringify({ content: r.content ?? null, isError: r.isError === true })
    } finally {
      running.delete(id)
    }
  }
  const abort = (id) => {
    const ac = running.get(Number(id))
    if (ac) ac.abort(new Error('mcp_tool hook timed out or was aborted'))
  }
  return [call, abort]
}

const CALLBACK_FIELDS = new Set(['matcher', 'hooks', 'timeout'])

/**
 * Calls a callback hook as the SDK does, `(input, toolUseID, { signal })`, and hands
 * `done(true, its answer as JSON)` (`{}` for nothing) or `done(false, the message)` when it
 * threw, rejected or was removed. What it returns is followed as `await` would
 * (`Promise.resolve`, which gives a native promise back as it is), but with `then`, not inside
 * async functions of ours: each of those would add a promise and a tick to every call.
 */
function callHook(fn, input, options, done) {
  let r
  try {
    if (fn === undefined) throw new Error('the callback was removed')
    r = fn(input, input?.tool_use_id, options)
  } catch (e) {
    return threw(done, e)
  }
  Promise.resolve(r).then((v) => answered(done, v), (e) => threw(done, e))
}

function answered(done, r) {
  let text
  try {
    text = r === undefined || r === null ? '{}' : (JSON.stringify(r) ?? '{}')
  } catch (e) {
    return threw(done, e)
  }
  done(true, text)
}

function threw(done, e) {
  done(false, e instanceof Error ? e.message : String(e))
}
const SETTLED = Promise.resolve()

/**
 * A callback's third argument, `{ signal }`. The signal is made when the function first reads
 * it (an AbortController costs more than the rest of a call); a read after the abort gets an
 * aborted signal.
 */
class CallbackOptions {
  #ac = undefined
  #reason = undefined

  get signal() {
    if (this.#ac === undefined) {
      this.#ac = new AbortController()
      if (this.#reason !== undefined) this.#ac.abort(this.#reason)
    }
    return this.#ac.signal
  }

  static abort(options, reason) {
    options.#reason = reason
    options.#ac?.abort(reason)
  }
}

/**
 * The host's callback hooks (`hooks` in the Claude Agent SDK's shape): the functions by id, and
 * the native side's `call`/`abort` adapters. A call gets the command hook's stdin as `input`,
 * its `tool_use_id`, and a signal that aborts at the hook's timeout or the dispatch's abort.
 */
class Callbacks {
  fns = new Map()
  running = new Map()
  next = 1

  /** Checks an SDK `hooks` object and gives its functions ids: `[spec for the native side, ids]`. */
  spec(hooks) {
    if (!isPlainObject(hooks)) throw new TypeError('hooks must be an object of event name → matcher list')
    const spec = {}
    const ids = []
    for (const [event, matchers] of Object.entries(hooks)) {
      if (matchers === undefined) continue
      if (!Array.isArray(matchers)) throw new TypeError(`hooks.${event} must be an array of {matcher?, hooks, timeout?}`)
      spec[event] = matchers.map((m, g) => {
        const at = `hooks.${event}[${g}]`
        if (!isPlainObject(m)) throw new TypeError(`${at} must be an object {matcher?, hooks, timeout?}`)
        for (const k of Object.keys(m)) if (!CALLBACK_FIELDS.has(k)) throw new TypeError(`${at}.${k}: unknown field`)
        if (m.matcher !== undefined && m.matcher !== null && typeof m.matcher !== 'string') throw new TypeError(`${at}.matcher must be a string`)
        if (m.timeout !== undefined && m.timeout !== null && typeof m.timeout !== 'number') throw new TypeError(`${at}.timeout must be a number of seconds`)
        if (!Array.isArray(m.hooks)) throw new TypeError(`${at}.hooks must be an array of functions`)
        const refs = m.hooks.map((fn, i) => {
          if (typeof fn !== 'function') throw new TypeError(`${at}.hooks[${i}] must be a function`)
          const id = this.next++
          ids.push([id, fn])
          return { id, name: fn.name || 'anonymous' }
        })
        return { matcher: m.matcher ?? undefined, hooks: refs, timeout: m.timeout ?? undefined }
      })
    }
    return [spec, ids]
  }

  /** Set once the native runtime exists: hands an answer back (`ok`, JSON or the thrown message). */
  answer = null
  /** Set with `answer`: a host round's answers in, its result out; and giving one up. */
  finishRound = null
  dropRound = null
  /** Host rounds running. */
  rounds = new Set()
  deadlines = new Deadlines(this.rounds)

  // Called by the native side, possibly in the middle of its work: the function starts in a
  // microtask, never inside this call. (A reaction on a settled promise, not `queueMicrotask`,
  // which wraps each task for async_hooks at twice the cost; `#run` catches everything.)
  call = (call, id, inputJson) => {
    const input = JSON.parse(inputJson)
    const options = new CallbackOptions()
    this.running.set(call, options)
    SETTLED.then(() =>
      callHook(this.fns.get(id), input, options, (ok, text) => {
        if (this.running.delete(call)) this.answer(call, ok, text)
      }),
    )
  }

  abort = (msg) => {
    const [call, why] = String(msg).split(' ')
    const options = this.running.get(Number(call))
    if (options === undefined) return
    this.running.delete(Number(call))
    CallbackOptions.abort(
      options,
      why === 'timeout'
        ? new DOMException('the callback hook timed out', 'TimeoutError')
        : new DOMException('the dispatch was aborted', 'AbortError'),
    )
  }
}

// setTimeout's longest delay; a later deadline is checked again when it passes.
const MAX_DELAY = 2 ** 31 - 1

/**
 * The deadlines of a runtime's host rounds: one timer for them all, armed for the earliest
 * and holding the process open only while a call runs. It keeps a count, not the calls: when
 * it fires it looks through the rounds running (a timer, or a set entry, per call would cost
 * more than the call). When the last call ends the timer lets go of the process a tick
 * later, so a host dispatching one call after another does not toggle it every time.
 */
class Deadlines {
  #rounds
  #running = 0
  #timer = undefined
  #at = Infinity
  #held = false

  constructor(rounds) {
    this.#rounds = rounds
  }

  add(at) {
    this.#running++
    if (at < this.#at) this.#arm(at)
    else if (!this.#held) this.#hold(true)
  }

  /** A call ended (answered, timed out or aborted). */
  done() {
    if (--this.#running === 0) SETTLED.then(this.#idle)
  }

  #idle = () => {
    if (this.#running === 0 && this.#held) this.#hold(false)
  }

  #hold(held) {
    this.#held = held
    if (held) this.#timer?.ref()
    else this.#timer?.unref()
  }

  #arm(at) {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#at = at
    this.#timer = setTimeout(this.#fire, Math.min(Math.max(at - performance.now(), 0), MAX_DELAY))
    this.#held = true
  }

  #fire = () => {
    this.#timer = undefined
    this.#at = Infinity
    this.#held = false
    // Timers keep whole milliseconds: a deadline within one of now has passed.
    const now = performance.now() + 1
    let next = Infinity
    for (const round of [...this.#rounds]) {
      for (const call of round.calls) {
        if (call.done) continue
        if (call.at <= now) call.expire()
        else if (call.at < next) next = call.at
      }
    }
    if (next !== Infinity) this.#arm(next)
  }
}

// Signal → the host rounds running under it. A signal gets one listener for all of them (most
// hosts pass the same signal to many dispatches; a listener added and removed per dispatch
// would cost more than the dispatch).
const roundsBySignal = new WeakMap()

function roundsUnder(signal) {
  let rounds = roundsBySignal.get(signal)
  if (rounds === undefined) {
    const running = new Set()
    rounds = running
    roundsBySignal.set(signal, running)
    signal.addEventListener(
      'abort',
      () => {
        for (const round of [...running]) round.abort(signal.reason, 'the dispatch was aborted')
      },
      { once: true },
    )
  }
  return rounds
}

/**
 * Hands a progress report to the host's `onProgress`. What it throws is the host's uncaught
 * exception, as when the runtime reports; the dispatch goes on.
 */
function report(onProgress, p) {
  try {
    onProgress(p)
  } catch (e) {
    queueMicrotask(() => {
      throw e
    })
  }
}

/** A text's lines, read one at a time (`split` would make an array of them first). */
class Lines {
  at = 0

  constructor(text) {
    this.text = text
  }

  done() {
    return this.at > this.text.length
  }

  next() {
    let end = this.text.indexOf('\n', this.at)
    if (end < 0) end = this.text.length
    const line = this.text.slice(this.at, end)
    this.at = end + 1
    return line
  }
}

/** One function of a host round: its signal, its deadline, and whether it has answered. */
class RoundCall {
  options = new CallbackOptions()
  done = false
  // With `onProgress`: its start report as the runtime wrote it; once made, the report and
  // when it was made.
  startJson
  start = undefined
  t0 = 0

  constructor(round, index, at, startJson) {
    this.round = round
    this.index = index
    this.at = at
    this.startJson = startJson
  }

  run(fn, input) {
    if (this.startJson !== undefined) {
      this.start = JSON.parse(this.startJson)
      this.t0 = performance.now()
      report(this.round.onProgress, this.start)
    }
    callHook(fn, input, this.options, this.#done)
  }

  #done = (ok, text) => this.round.answer(this, ok ? 'o' + text : 'e' + JSON.stringify(text))

  /** Its end report, once it answered or its timeout passed (none when it was aborted). */
  ended() {
    if (this.start === undefined) return
    const elapsedMs = Math.floor(performance.now() - this.t0)
    report(this.round.onProgress, { ...this.start, phase: 'end', elapsedMs })
  }

  /** Its timeout passed: its signal aborts, and the run is a timeout. */
  expire() {
    CallbackOptions.abort(this.options, new DOMException('the callback hook timed out', 'TimeoutError'))
    this.round.answer(this, 't')
  }
}

/**
 * A dispatch whose only hooks are the host's callbacks (the native side's host round): the
 * wrapper calls them, keeps their timeouts and the dispatch's signal, and hands the answers
 * back to be read and folded (`finishRound`). Its promise settles with the dispatch's result.
 */
class Round {
  calls = []
  answers = []
  done = false

  constructor(host, text, signal, onProgress, resolve, reject) {
    this.host = host
    this.onProgress = onProgress
    this.resolve = resolve
    this.reject = reject
    const lines = new Lines(text)
    this.id = Number(lines.next().slice(1))
    host.rounds.add(this)
    this.under = signal ? roundsUnder(signal) : undefined
    this.under?.add(this)
    const now = performance.now()
    // Per call: `<function id> <timeout ms>[ p]`, its input, and with ` p` its start report.
    while (!lines.done()) {
      const head = lines.next()
      const a = head.indexOf(' ')
      const b = head.indexOf(' ', a + 1)
      const input = JSON.parse(lines.next())
      const start = b > 0 ? lines.next() : undefined
      const ms = Number(b > 0 ? head.slice(a + 1, b) : head.slice(a + 1))
      const call = new RoundCall(this, this.calls.length, now + ms, onProgress && start)
      const fn = host.fns.get(Number(head.slice(0, a)))
      this.calls.push(call)
      host.deadlines.add(call.at)
      // Never inside `dispatch()` itself: in a reaction, as a native call starts one.
      SETTLED.then(() => call.run(fn, input))
    }
    this.left = this.calls.length
  }

  answer(call, line) {
    if (call.done || this.done) return
    call.done = true
    call.ended()
    this.answers[call.index] = line
    if (--this.left > 0) return this.host.deadlines.done()
    this.#end()
    try {
      const answers = this.answers.length === 1 ? line : this.answers.join('\n')
      this.resolve(readResult(this.host.finishRound(this.id, answers)))
    } catch (e) {
      this.reject(e)
    }
    // After the host's continuation is queued: a host dispatching again right away finds the
    // timer still holding the process, and nothing is toggled.
    this.host.deadlines.done()
  }

  /** The host's signal fired or the runtime closed: every call still running is aborted. */
  abort(reason, why) {
    if (this.done) return
    this.#end()
    for (const call of this.calls) {
      if (call.done) continue
      call.done = true
      this.host.deadlines.done()
      CallbackOptions.abort(call.options, new DOMException(why, 'AbortError'))
    }
    this.host.dropRound(this.id)
    this.reject(reason)
  }

  #end() {
    this.done = true
    this.host.rounds.delete(this)
    this.under?.delete(this)
  }
}

class HookRuntime {
  #native
  #closed = false
  #asyncListeners = []
  // Event name → whether a hook runs for it whatever the subject (asked once per event,
  // forgotten on reload): those dispatches skip the `anyMatch` call.
  #always = new Map()
  #callbacks = new Callbacks()
  #anyMatch
  #dispatchStart

  constructor(options = {}) {
    if (options === null || options === undefined) options = {}
    if (!isPlainObject(options)) throw new TypeError('createRuntime options must be a plain object')
    const { mcpCall, hooks, ...rest } = options
    if (mcpCall !== undefined && typeof mcpCall !== 'function') throw new TypeError('mcpCall must be a function')
    const [call, abort] = mcpCall ? mcpAdapters(mcpCall) : [undefined, undefined]
    const cb = this.#callbacks
    this.#native = new native.NativeRuntime(JSON.stringify(rest), call, abort, cb.call, cb.call, cb.abort)
    const hot = this.#native.hotCalls()
    this.#anyMatch = hot.anyMatch
    this.#dispatchStart = hot.dispatchStart
    cb.answer = hot.callbackAnswered
    cb.finishRound = hot.finishRound
    cb.dropRound = hot.dropRound
    if (hooks !== undefined && hooks !== null) this.addHooks(hooks)
    this.#native.warm().catch(() => {})
  }

  /**
   * Registers callback hooks in the Claude Agent SDK's `hooks` shape; they run before the
   * files' hooks of their event. Returns a function (also its own `.remove`) that removes them.
   */
  addHooks(hooks) {
    if (this.#closed) throw new Error('runtime is closed')
    const [spec, ids] = this.#callbacks.spec(hooks)
    const handle = this.#native.addCallbackHooks(JSON.stringify(spec))
    for (const [id, fn] of ids) this.#callbacks.fns.set(id, fn)
    this.#always.clear()
    const remove = () => {
      if (this.#native.removeCallbackHooks(handle)) {
        for (const [id] of ids) this.#callbacks.fns.delete(id)
        this.#always.clear()
      }
    }
    remove.remove = remove
    return remove
  }

  /**
   * `on('async', cb)`: `cb({sessionId, run, rewake?})` when an `async` hook finishes. Returns a
   * function that removes the listener.
   */
  on(event, cb) {
    if (event !== 'async') throw new TypeError(`unknown runtime event ${JSON.stringify(String(event))}`)
    if (typeof cb !== 'function') throw new TypeError('listener must be a function')
    this.#asyncListeners.push(cb)
    if (this.#asyncListeners.length === 1) {
      this.#native.onAsync((json) => {
        const f = JSON.parse(json)
        for (const l of [...this.#asyncListeners]) l(f)
      })
    }
    return () => {
      this.#asyncListeners = this.#asyncListeners.filter((l) => l !== cb)
      if (this.#asyncListeners.length === 0) this.#native.onAsync(null)
    }
  }

  get diagnostics() {
    return JSON.parse(this.#native.diagnosticsJson())
  }

  get sources() {
    return JSON.parse(this.#native.sourcesJson())
  }

  dispatch(event, payload, signal, options) {
    if (this.#closed) return Promise.reject(new Error('runtime is closed'))
    const info = typeof event === 'string' ? eventInfo(event) : null
    if (info === null) return Promise.reject(new TypeError(`unknown event ${JSON.stringify(String(event))}`))
    if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
      return Promise.reject(new TypeError('signal must be an AbortSignal'))
    }
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (payload === undefined || payload === null) payload = {}
    else if (!isPlainObject(payload)) return Promise.reject(new TypeError('payload must be a plain object'))
    const subject = typeof options?.subject === 'string' ? options.subject : undefined
    const cwd = typeof options?.cwd === 'string' ? options.cwd : undefined
    const onProgress = typeof options?.onProgress === 'function' ? options.onProgress : undefined
    let always = this.#always.get(event)
    if (always === undefined) this.#always.set(event, (always = this.#native.alwaysMatches(event)))
    if (!always && !this.#anyMatch(event, subject ?? subjectOf(payload, info))) {
      return Promise.resolve(emptyResult(info.canonical))
    }
    let json
    try {
      json = JSON.stringify(payload)
    } catch (e) {
      return Promise.reject(new TypeError(`payload cannot be serialised as JSON: ${e.message}`))
    }
    const progress = onProgress
      ? (json) => {
          const p = JSON.parse(json)
          if (p.phase !== 'flush') onProgress(p)
        }
      : null
    let started
    try {
      started = this.#dispatchStart(event, json, subject, cwd, signal !== undefined && signal !== null, progress)
    } catch (e) {
      return Promise.reject(e)
    }
    if (typeof started !== 'string') {
      return typeof started.then === 'function'
        ? started.then(readResult)
        : this.#settled(started.promise, signal, started.token)
    }
    // `#…`: a host round, whose callbacks the wrapper runs; else the result itself.
    if (started.charCodeAt(0) !== 35) return Promise.resolve(readResult(started))
    const cb = this.#callbacks
    return new Promise((resolve, reject) => {
      try {
        new Round(cb, started, signal, onProgress, resolve, reject)
      } catch (e) {
        // Nothing of a round the wrapper could not start is left behind natively.
        cb.dropRound(Number(started.slice(1, started.indexOf('\n'))))
        reject(e)
      }
    })
  }

  /** A native dispatch's promise, read, and tied to the host's signal through `token`. */
  #settled(promise, signal, token) {
    if (!signal) return promise.then(readResult)
    const onAbort = () => token.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    return promise.then(
      (r) => {
        signal.removeEventListener('abort', onAbort)
        return readResult(r)
      },
      (err) => {
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted && err?.code === 'Cancelled') throw signal.reason
        throw err
      },
    )
  }

  async reload() {
    if (this.#closed) throw new Error('runtime is closed')
    const diagnostics = JSON.parse(await this.#native.reload())
    this.#always.clear()
    await this.#native.warm()
    return diagnostics
  }

  dump() {
    return JSON.parse(this.#native.dumpJson())
  }

  close() {
    this.#closed = true
    this.#native.close()
    const closed = Object.assign(new Error('runtime is closed'), { code: 'GenericFailure' })
    for (const round of [...this.#callbacks.rounds]) round.abort(closed, 'the runtime closed')
  }
}

// Workers must not outlive the host: at exit no supervisor runs, so kill their groups here.
process.once('exit', () => native.killWorkers())

function createRuntime(options) {
  return new HookRuntime(options)
}

module.exports = { createRuntime, HookRuntime, version: require('./package.json').version }
