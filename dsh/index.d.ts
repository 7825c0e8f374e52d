import type { RuntimeOptions } from '../wrapper'

/**
 * Configuration of the `hookrt/dsh` plugin (the `config:` of its entry in a dsh patch file).
 * Every {@link RuntimeOptions} key is accepted too (`timeoutSec`, `llm`, `onError`, ...);
 * `cwd` defaults to each session's working directory.
 */
export interface HookrtDshConfig extends Omit<RuntimeOptions, 'configPath' | 'discover'> {
  /** Read only this hook file instead of discovering the session workspace's files. */
  configPath?: string
  /**
   * A module (path, resolved from dsh's working directory) whose `hooks` export, or default
   * export, is callback hooks in the Claude Agent SDK's `hooks` shape; they run in every
   * session's runtime before its hook files' hooks (see `HookRuntime.addHooks`).
   */
  hooksModule?: string
  /** Discover files even when `configPath` is set. */
  discover?: boolean
  /** Consecutive Stop continuations a hook may force before the turn is allowed to end. Default 3. */
  stopContinuationLimit?: number
  /** Characters of a hook's stderr kept in the session log's `hook/result`. Default 500. */
  stderrSummaryMaxChars?: number
}

/** The Cordis plugin name. */
export declare const name: 'hookrt'

/** Wires dsh's extension points to a hookrt runtime. */
export declare function apply(ctx: unknown, config?: HookrtDshConfig): void
