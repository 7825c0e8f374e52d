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

function emptyResult(canonical) {
  return {
    canonical,
    outcome: { decision: 'none', stop: false, contexts: [], messages: [], updateInputs: [], downgraded: false },
    runs: [],
  }
}

function isPlainObject(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function isAbortSignal(s) {
  return s !== null && typeof s === 'object' && typeof s.aborted === 'boolean' && typeof s.addEventListener === 'function'
}

class HookRuntime {
  #native
  #closed = false

  constructor(options = {}) {
    if (options === null || options === undefined) options = {}
    if (!isPlainObject(options)) throw new TypeError('createRuntime options must be a plain object')
    this.#native = new native.NativeRuntime(JSON.stringify(options))
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
    if (!this.#native.anyMatch(event, subject ?? subjectOf(payload, info))) {
      return Promise.resolve(emptyResult(info.canonical))
    }
    let json
    try {
      json = JSON.stringify(payload)
    } catch (e) {
      return Promise.reject(new TypeError(`payload cannot be serialised as JSON: ${e.message}`))
    }
    if (!signal) return this.#native.dispatchJson(event, json, subject, cwd, null).then(JSON.parse)
    const token = new native.CancelToken()
    const onAbort = () => token.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    return this.#native.dispatchJson(event, json, subject, cwd, token).then(
      (r) => {
        signal.removeEventListener('abort', onAbort)
        return JSON.parse(r)
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
    return JSON.parse(await this.#native.reload())
  }

  dump() {
    return JSON.parse(this.#native.dumpJson())
  }

  close() {
    this.#closed = true
    this.#native.close()
  }
}

function createRuntime(options) {
  return new HookRuntime(options)
}

module.exports = { createRuntime, HookRuntime, version: require('./package.json').version }
