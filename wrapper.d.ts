// Public TypeScript types of hookrt (`require('hookrt')` / `import { createRuntime } from 'hookrt'`).

/** Where a hook came from: whose configuration file declared it. */
export type Dialect = 'claude' | 'codex' | 'opencode' | 'hermes' | 'native' | 'agents' | 'gemini' | 'cursor' | 'copilot' | 'windsurf' | 'qwen' | 'droid' | 'cline' | 'kimi' | 'auggie' | 'antigravity' | 'kiro'

/**
 * The dialect-independent events: every Claude Code hook event of 2026, Codex's `Interrupt`, and the
 * events only Gemini CLI, Cursor and Windsurf have (the README's event table gives each one's spellings and rules).
 */
export type CanonicalEvent =
  | 'session:start' // SessionStart
  | 'session:end' // SessionEnd
  | 'prompt:submit' // UserPromptSubmit
  | 'tool:before' // PreToolUse
  | 'tool:after' // PostToolUse, PostToolUseFailure
  | 'turn:stop' // Stop
  | 'subagent:start' // SubagentStart
  | 'subagent:end' // SubagentStop
  | 'notice' // Notification
  | 'compact:before' // PreCompact
  | 'session:setup' // Setup
  | 'prompt:expand' // UserPromptExpansion
  | 'permission:request' // PermissionRequest
  | 'permission:denied' // PermissionDenied
  | 'tool:batch' // PostToolBatch
  | 'message:display' // MessageDisplay
  | 'task:create' // TaskCreated
  | 'task:complete' // TaskCompleted
  | 'turn:fail' // StopFailure
  | 'turn:interrupt' // Interrupt (Codex)
  | 'teammate:idle' // TeammateIdle
  | 'instructions:load' // InstructionsLoaded
  | 'config:change' // ConfigChange
  | 'cwd:change' // CwdChanged
  | 'directory:add' // DirectoryAdded
  | 'file:change' // FileChanged
  | 'worktree:create' // WorktreeCreate
  | 'worktree:remove' // WorktreeRemove
  | 'compact:after' // PostCompact
  | 'model:switch' // PreModelSwitch
  | 'model:switched' // PostModelSwitch
  | 'elicitation:request' // Elicitation
  | 'elicitation:result' // ElicitationResult
  | 'model:before' // Gemini BeforeModel
  | 'model:after' // Gemini AfterModel
  | 'tool:select' // Gemini BeforeToolSelection
  | 'agent:response' // Cursor afterAgentResponse, Windsurf post_cascade_response
  | 'agent:thought' // Cursor afterAgentThought
  | 'prompt:transformed' // Copilot userPromptTransformed
  | 'skill:shell' // PreSkillShellCommand
  | 'tool:result' // Hermes transform_tool_result
  | 'terminal:output' // Hermes transform_terminal_output
  | 'response:transform' // Hermes transform_llm_output
  | 'session:finalize' // Hermes on_session_finalize
  | 'session:reset' // Hermes on_session_reset
  | 'model:error' // Hermes api_request_error
  | 'approval:response' // Hermes post_approval_response
  | 'gateway:dispatch' // Hermes pre_gateway_dispatch
  | 'task:claim' // Hermes kanban_task_claimed
  | 'task:block' // Hermes kanban_task_blocked
  | 'stream:start' // Hermes on_stream_start
  | 'stream:delta' // Hermes on_stream_delta
  | 'stream:end' // Hermes on_stream_end
  | 'message:interim' // Hermes on_interim_message
  | 'model:error-classify' // Hermes transform_api_error_classification
  | 'skill:lifecycle' // Hermes on_skill_lifecycle
  | 'transcription:before' // Hermes pre_transcription
  | 'task:worker-spawn' // Hermes on_kanban_worker_spawned
  | 'task:worker-exit' // Hermes on_kanban_worker_exited
  | 'task:stale-claim' // Hermes on_kanban_worker_stale_claim
  | 'task:update' // Hermes on_kanban_task_updated
  | 'task:dispatch-tick' // Hermes on_kanban_dispatch_tick
  | 'gateway:platform-event' // Hermes gateway_platform_event
  | 'command:before' // Hermes pre_command

/**
 * Any name a host may dispatch: canonical, Claude Code / Codex, opencode, Hermes, Gemini CLI,
 * Cursor, Copilot or Windsurf spelling (the README's harness tables list the last four).
 * `PostToolUse` means "the tool succeeded", `PostToolUseFailure` "the tool failed"; other
 * after-tool names mean either.
 */
export type EventName =
  | CanonicalEvent
  | 'SessionStart' | 'SessionEnd' | 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure'
  | 'Stop' | 'SubagentStart' | 'SubagentStop' | 'Notification' | 'PreCompact'
  | 'Setup' | 'UserPromptExpansion' | 'PermissionRequest' | 'PermissionDenied' | 'PostToolBatch' | 'MessageDisplay'
  | 'TaskCreated' | 'TaskCompleted' | 'StopFailure' | 'Interrupt' | 'TeammateIdle' | 'InstructionsLoaded'
  | 'ConfigChange' | 'CwdChanged' | 'DirectoryAdded' | 'FileChanged' | 'WorktreeCreate' | 'WorktreeRemove'
  | 'PostCompact' | 'PreModelSwitch' | 'PostModelSwitch' | 'Elicitation' | 'ElicitationResult'
  | 'PreSkillShellCommand' | 'PreModelRequest'
  | 'permission.ask' | 'session.error' | 'file.watcher.updated' | 'session.compacted'
  | 'session.created' | 'session.deleted' | 'chat.message' | 'tool.execute.before' | 'tool.execute.after'
  | 'session.idle' | 'tool.execute.before.subagent' | 'tool.execute.after.subagent' | 'notification'
  | 'experimental.session.compacting'
  | 'on_session_start' | 'on_session_end' | 'pre_llm_call' | 'pre_tool_call' | 'post_tool_call' | 'post_llm_call'
  | 'subagent_start' | 'subagent_stop' | 'on_session_finalize' | 'on_session_reset' | 'pre_api_request'
  | 'post_api_request' | 'api_request_error' | 'transform_terminal_output' | 'transform_tool_result'
  | 'transform_llm_output' | 'pre_verify' | 'pre_approval_request' | 'post_approval_response'
  | 'pre_gateway_dispatch' | 'kanban_task_claimed' | 'kanban_task_completed' | 'kanban_task_blocked'
  | 'on_stream_start' | 'on_stream_delta' | 'on_stream_end' | 'on_interim_message' | 'transform_api_error_classification'
  | 'on_skill_lifecycle' | 'pre_transcription' | 'on_kanban_worker_spawned' | 'on_kanban_worker_exited'
  | 'on_kanban_worker_stale_claim' | 'on_kanban_task_updated' | 'on_kanban_dispatch_tick' | 'gateway_platform_event'
  | 'pre_command'
  | 'BeforeTool' | 'AfterTool' | 'BeforeAgent' | 'AfterAgent' | 'BeforeModel' | 'AfterModel' | 'BeforeToolSelection'
  | 'PreCompress'
  | 'beforeShellExecution' | 'afterShellExecution' | 'beforeMCPExecution' | 'afterMCPExecution' | 'beforeReadFile'
  | 'afterFileEdit' | 'beforeSubmitPrompt' | 'stop' | 'sessionStart' | 'sessionEnd' | 'preToolUse' | 'postToolUse'
  | 'postToolUseFailure' | 'subagentStart' | 'subagentStop' | 'preCompact' | 'afterAgentResponse' | 'afterAgentThought'
  | 'userPromptSubmitted' | 'userPromptTransformed' | 'permissionRequest' | 'agentStop' | 'errorOccurred'
  | 'ErrorOccurred'
  | 'pre_read_code' | 'post_read_code' | 'pre_write_code' | 'post_write_code' | 'pre_run_command' | 'post_run_command'
  | 'pre_mcp_tool_use' | 'post_mcp_tool_use' | 'pre_user_prompt' | 'post_cascade_response'
  | 'TodoCreated' | 'TodoCompleted'
  | 'TaskStart' | 'TaskResume' | 'TaskCancel' | 'TaskComplete' | 'TaskError' | 'SessionShutdown'
  | 'PromptSubmit'
  | 'PreInvocation' | 'PostInvocation'
  | (string & {})

/** How a hook runs: a command, a webhook, an LLM evaluation, or a subagent runner. */
export type HandlerKind = 'shell' | 'webhook' | 'oracle' | 'proxy' | 'mcp_tool' | 'worker' | 'callback'

/**
 * A folded or per-run decision; precedence deny > defer > ask > allow > none. `defer` is
 * PreToolUse's `permissionDecision: "defer"` (leave the call for later).
 */
export type Decision = 'deny' | 'defer' | 'ask' | 'allow' | 'none'

/** What an infrastructure error (spawn failure, timeout, HTTP error) does to a run. */
export type OnError = 'warn' | 'block' | 'ignore'

/** Options of {@link createRuntime}. Unknown keys are rejected, so typos surface at once. */
export interface RuntimeOptions {
  /** Working directory: project files are found here and hooks run here. Default: `process.cwd()`. */
  cwd?: string
  /** Home for global files. Default: `$HOOKRT_HOME`, `$HOOKS_ADAPTER_HOME`, then `$HOME`. */
  homeDir?: string
  /** Read only this file instead of discovering (default `$HOOKRT_CONFIG` / `$HOOKS_ADAPTER_CONFIG`). */
  configPath?: string
  /** Dialect of `configPath` when neither its location nor its content tells. */
  dialect?: Dialect
  /** Run discovery. Default: true without `configPath`, false with it (true reads both). */
  discover?: boolean
  /** Default policy for infrastructure errors (a hook's own `onError` wins). Default `'warn'`. */
  onError?: OnError
  /** Timeout in seconds for hooks without their own (kind defaults otherwise: 600/600/30/60). */
  timeoutSec?: number
  /** OpenAI-compatible endpoint for `prompt` hooks. */
  llm?: { baseUrl?: string; model?: string; apiKey?: string }
  /** Subagent runner for `agent`/`subagent` hooks without a `command`. */
  proxy?: { command?: string }
  /** `CLAUDE_PROJECT_DIR` for hooks, and substituted for `${CLAUDE_PROJECT_DIR}` at load. */
  projectDir?: string
  /** Substituted for `${CLAUDE_PLUGIN_ROOT}` in commands at load. */
  pluginRoot?: string
  /** More `${UPPER_CASE}` tokens substituted into commands at load. */
  vars?: Record<string, string>
  /** Characters of a failing hook's stderr quoted in logs. Default 500. */
  stderrCap?: number
  /** Run matched hooks at once (default) or one after another. Folding order is the same. */
  concurrency?: 'parallel' | 'serial'
  /** Bytes of stdout/stderr kept per run (the rest is drained and dropped). Default 1 MiB. */
  outputCap?: number
  /** Remove variables named like secrets (KEY, PASSWORD, SECRET, TOKEN) from hook environments. */
  stripSecrets?: boolean
  /** Only webhook URLs starting with one of these prefixes are called. */
  webhookAllowlist?: string[]
  /** `model` passed to Codex hooks. */
  model?: string
  /** `turn_id` passed to Codex hooks. */
  turnId?: string
  /** Most hook processes running at once across all dispatches. Default 64. */
  maxProcesses?: number
  /**
   * Adopt orphaned hook descendants (Linux `PR_SET_CHILD_SUBREAPER`) so killed hook trees leave
   * no zombies even where PID 1 does not reap (containers). Default false in the addon because
   * it also makes this process adopt the orphans of its other children; the `hookrt` command
   * turns it on.
   */
  reapOrphans?: boolean
  /** Match Claude literal matchers without regard to case (hosts whose tool names are lower-case). */
  caseInsensitiveTools?: boolean
  /**
   * Which hooks run. `'harness'` (the default): each hook exactly when its own harness would
   * run it, by that harness's trust records, read-only — Codex's trusted hashes in
   * `config.toml` `[hooks.state]` and its project trust, Gemini CLI's folder trust, Copilot CLI's
   * trusted folders, Hermes' `shell-hooks-allowlist.json` — or when approved with
   * `hookrt trust approve`; a skipped hook is one warning diagnostic naming the rule and how to
   * approve (docs/security.md). `'project'` (also `true`): project- and local-scope hooks of
   * every dialect, and Hermes hooks, need hookrt's own approval (bound to the SHA-256 of the
   * script the command runs); `'all'`: every file but managed settings; `false` or `'off'`:
   * every hook runs.
   */
  requireHookApproval?: boolean | 'harness' | 'project' | 'all' | 'off'
  /**
   * The harness this host is, for the trust of a project (docs/security.md): under
   * `requireHookApproval: 'harness'` a project's hook files then run only when their own harness
   * would run them **and** this harness trusts the project (Claude Code's accepted workspace
   * trust, Codex's trusted projects, Gemini CLI's and Copilot CLI's trusted folders), or once
   * approved with `hookrt trust approve`. `'hermes'` and `'dsh'` (the `hookrt/dsh` plugin's
   * default) keep no record of trusted projects: a project's files run only once approved.
   * Unset: each file's own harness decides alone.
   */
  harness?: 'claude' | 'codex' | 'gemini' | 'copilot' | 'hermes' | 'dsh'
  /** Consecutive blocked Stops of one session after which a further block is downgraded. Default 8. */
  stopBlockLimit?: number
  /**
   * Runs Claude `mcp_tool` hooks on the host's MCP servers: called with the hook's `server`,
   * `tool`, its `input` with `${tool_input.x}` / `${payload.x}` placeholders filled, and a
   * signal that aborts when the hook times out. A throw or a promise that never settles is an
   * infrastructure error (after the hook's timeout). Without it, `mcp_tool` hooks get a load
   * diagnostic and fail when they match (as in `hookrt listen` and the CLI).
   */
  mcpCall?: (server: string, tool: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<McpResult>
  /**
   * The host's own hooks, as functions, in the Claude Agent SDK's `options.hooks` shape: they
   * run with the files' hooks of their event (listed first in `runs`), are read as Claude Code
   * hooks' JSON and folded by the same rules. See {@link HookRuntime.addHooks}.
   */
  hooks?: CallbackHooks
  /**
   * Claude's `allowedHttpHookUrls`: URL patterns (`*` is any text). A Claude/Codex `http` hook
   * whose URL matches none is not run (load diagnostic, and an error if it matches).
   */
  allowedHttpHookUrls?: string[]
  /** Claude's `httpHookAllowedEnvVars`: the variables any `http` hook header may expand at most. */
  httpHookAllowedEnvVars?: string[]
  /**
   * Events (any spelling, e.g. `['tool:before', 'permission:request']`) on which a hook that
   * gave no answer — could not start, timed out, was killed by a signal, HTTP failure — denies
   * with reason `hook failed closed: <error>` instead of warning. A hook's own
   * `failClosed: true` does the same for that hook. Default: none (Claude Code's behaviour).
   */
  failClosed?: string[]
  /**
   * The release of a harness you run, where it is not the newest hookrt follows
   * (`{ hermes: '0.19.0' }`): that harness's files are read by that release's rules (each
   * harness page's "Changed in" table says which rules changed when).
   */
  harnessVersions?: Partial<Record<Dialect, string>>
  /**
   * Claude Code plugins whose `hooks/hooks.json` is loaded; `${CLAUDE_PLUGIN_ROOT}` and
   * `${CLAUDE_PLUGIN_DATA}` are substituted and exported to their hooks. `dataDir` defaults to
   * `<home>/.claude/plugins/data/<name>-inline`. Plugins enabled in settings (`enabledPlugins`)
   * and installed under `<home>/.claude/plugins/cache/` are loaded too.
   */
  plugins?: { root: string; dataDir?: string }[]
  /**
   * Claude Code managed settings (default `/etc/claude-code/managed-settings.json` on Linux,
   * `/Library/Application Support/ClaudeCode/managed-settings.json` on macOS). Their hooks
   * always load; their `allowManagedHooksOnly: true` drops every other file's hooks and their
   * `disableAllHooks` wins over everything.
   */
  managedSettingsPath?: string
  /**
   * Where machine-wide hook files of other harnesses live (default `/etc`):
   * `gemini-cli/settings.json`, `cursor/hooks.json`, `windsurf/hooks.json`.
   */
  systemDir?: string
  /**
   * Execution history (also `$HOOKRT_HISTORY=FILE`): one JSON line per dispatch that ran a
   * hook — event, decision, and per run the hook id, its file, matcher, decision, exit code,
   * start and duration, the first 2 KB of stdout and stderr. Written by a background thread
   * that never delays a dispatch (a full queue drops lines and counts them); rotated to
   * `<path>.1` at `maxBytes` (default 10 MiB). The payload is written only with
   * `payloads: true`; values of variables removed by `stripSecrets` never are. `host` names
   * where the dispatches come from on every line (`hookrt hook <harness>` writes the harness).
   * Read it with `hookrt history`.
   */
  history?: { path: string; maxBytes?: number; payloads?: boolean; host?: string }
  /**
   * Longest single context or message kept, in characters; longer ones are cut with a
   * marker saying how much was cut. Default 10,000, Claude Code's limit.
   */
  contextCap?: number
  /**
   * Claude's per-hook `if` permission rules. `'evaluate'` (default): the hook runs only for
   * tool calls its rule matches. `'ignore'`: a warning at load and the hook runs whenever its
   * matcher matches — what the JavaScript implementation did, and `hookrt listen`'s default
   * (`--if-rules evaluate` or `HOOKRT_IF_RULES=evaluate` turns evaluation on there).
   */
  ifRules?: 'evaluate' | 'ignore'
  /**
   * `'harness'` (default): every run reports what a host needs to present the outcome as the
   * hook's harness would (`runs[].hook.command`, `runs[].timedOut`). `'contract'`: the exact
   * answer shape of the JavaScript implementation (`hookrt listen`'s default; `--harness-exact`
   * turns the details on there). How hooks run is each harness's either way.
   */
  fidelity?: 'harness' | 'contract'
}

/** One configuration problem: where (file, event), then what. */
export interface Diagnostic {
  severity: 'error' | 'warning'
  file?: string
  event?: string
  message: string
}

/** A configuration file that was read. */
export interface Source {
  file: string
  dialect: Dialect
  scope: 'global' | 'project' | 'local' | 'explicit' | 'plugin' | 'managed' | 'system'
  /** Matcher groups it contributed. */
  groups: number
}

/**
 * Event-specific answer fields (Claude Code's hook reference), present only when a hook gave
 * them. In `outcome` the first run in configuration order wins for single values, watch lists
 * are joined, and flags are set by any run.
 */
export interface EventFields {
  /** PermissionRequest: the `decision` object (`behavior`, `updatedInput`, `updatedPermissions`, `message`, `interrupt`) of the run that decided. */
  permission?: Record<string, unknown>
  /** PostToolUse: replaces the tool's result. */
  updatedToolOutput?: unknown
  /** SessionStart: the session title. */
  sessionTitle?: string
  /** SessionStart: the first user message of a non-interactive session. */
  initialUserMessage?: string
  /** SessionStart, CwdChanged, FileChanged: absolute paths to watch for FileChanged. */
  watchPaths?: string[]
  /** SessionStart: re-scan skills after the hooks. */
  reloadSkills?: boolean
  /** PermissionDenied: the model may retry the denied tool call. */
  retry?: boolean
  /** WorktreeCreate: the created worktree's path (a command hook's stdout). */
  worktreePath?: string
  /** Elicitation, ElicitationResult: the answer to the MCP server. */
  elicitation?: { action: 'accept' | 'decline' | 'cancel' | (string & {}); content?: unknown }
  /** MessageDisplay: the text displayed instead. */
  displayContent?: string
  /** Any event: a terminal escape sequence (notification, title, bell) for the host to emit. */
  terminalSequence?: string
}

/** The folded decision of a dispatch. */
export interface Outcome extends EventFields {
  decision: Decision
  /** Non-empty reasons of the winning deny/ask runs, joined by a blank line. */
  reason?: string
  /** A hook answered `continue: false`. */
  stop: boolean
  stopReason?: string
  /** Structured contexts, plus plain stdout of clean runs on events that take it, in config order. */
  contexts: string[]
  /** `systemMessage`s in config order. */
  messages: string[]
  /** Every `updatedInput`, in config order. */
  updateInputs: Record<string, unknown>[]
  /** On non-blockable events a deny becomes `none`; the original is kept here. */
  rawDecision?: Decision
  rawReason?: string
  downgraded: boolean
  /** SessionStart, Setup, CwdChanged, FileChanged: variables hooks exported through `CLAUDE_ENV_FILE`. */
  env?: Record<string, string>
  /** An `asyncRewake` hook of this session exited 2 since its last dispatch: wake the agent with this reason. */
  rewake?: { reason: string }
}

/** Which hook a run belongs to. */
export interface HookRef {
  /** `<dialect>:<file base name>:<event>:<group index>:<hook index>` */
  id: string
  dialect: Dialect
  /** The event as spelled in the file. */
  event: string
  kind: HandlerKind
  matcher?: string
  /** The hook's `statusMessage` (Claude's spinner text), for hosts that show progress. */
  statusMessage?: string
  /**
   * What the hook runs as its file says it — the command, URL or MCP tool — as harnesses name
   * it in their messages (`PreToolUse:Bash hook error: [<command>]: …`).
   */
  command?: string
}

/** What one run produced. */
export interface RunOutcome extends EventFields {
  /** Exit code; `null` after death by a signal; absent after an infrastructure error. */
  exitCode?: number | null
  stderr: string
  stdout: string
  decision?: Exclude<Decision, 'none'>
  reason?: string
  stop: boolean
  stopReason?: string
  /** Structured contexts only. */
  contexts: string[]
  messages: string[]
  updateInput?: Record<string, unknown>
  /** Output beyond `outputCap` was dropped. */
  truncated?: boolean
}

export interface Run {
  hook: HookRef
  /**
   * Absent for an `async` hook that was just started (`async: true`); a finished async hook is
   * reported again, with its outcome and `async: true`, on its session's next dispatch (only its
   * contexts and messages are folded there).
   */
  outcome?: RunOutcome
  async?: true
  durationMs: number
  /** Infrastructure error (`timed out after 1s`, `webhook … failed: …`). */
  error?: string
  /** The hook was killed at its timeout (its harness would have killed it too). */
  timedOut?: true
}

/** `{canonical, outcome, runs}`, the same shape as the `listen` protocol's dispatch answer. */
export interface DispatchResult {
  canonical: CanonicalEvent
  outcome: Outcome
  /** In configuration order. */
  runs: Run[]
}

/** A hook starting or ending, for {@link DispatchOptions.onProgress}. */
export interface ProgressEvent {
  phase: 'start' | 'end'
  hookId: string
  /** Whose file the hook came from. */
  dialect: Dialect
  /** The hook's matcher as written, when it has one. */
  matcher?: string
  statusMessage?: string
  /** Milliseconds since the hook started (0 at `start`). */
  elapsedMs: number
}

/** A finished `async` hook, for `runtime.on('async', cb)`. */
export interface AsyncFinished {
  sessionId: string
  run: Run
  rewake?: { reason: string }
}

/** What a host's `mcpCall` resolves to: MCP tool-call content and whether it is an error. */
export interface McpResult {
  /** Text, or MCP content blocks; the text blocks are read like a command hook's stdout. */
  content: string | { type: string; text?: string }[]
  /** Read like a non-zero exit: a non-blocking error. */
  isError?: boolean
}

export interface DispatchOptions {
  /** Called when each hook starts and ends, in order, before the dispatch settles. */
  onProgress?: (event: ProgressEvent) => void
  /** Matcher subject, instead of the payload's `tool_name` / `source` / `agent_type` ... */
  subject?: string
  /** Working directory of this dispatch (hook cwd and the payload's `cwd`). */
  cwd?: string
}

/** A loaded hook configuration that dispatches events. */
/**
 * A callback hook, exactly as the Claude Agent SDK's `HookCallback`: `input` is the JSON a
 * Claude Code command hook would read on stdin for that dispatch, `toolUseID` its
 * `tool_use_id`, and `signal` aborts at the hook's timeout or the dispatch's abort. The answer is
 * what such a hook would print (`{}` or `undefined`: nothing to say).
 */
export type HookCallback = (
  input: any,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<CallbackAnswer | undefined | void> | CallbackAnswer | undefined | void

/** A Claude Code hook's JSON answer (`hookSpecificOutput`, `decision`, `continue`, `systemMessage`…). */
export type CallbackAnswer = object

/** The SDK's `HookCallbackMatcher`: Claude's matcher, the functions, a timeout in seconds (default 60). */
export interface HookCallbackMatcher {
  matcher?: string
  hooks: HookCallback[]
  timeout?: number
}

/** Event name (the SDK's, or any name `dispatch` takes) → matcher groups. */
export type CallbackHooks = Partial<Record<EventName | (string & {}), HookCallbackMatcher[]>>

/** Removes the callback hooks `addHooks` registered (calling it again does nothing). */
export interface CallbackHooksHandle {
  (): void
  remove(): void
}

export declare class HookRuntime {
  constructor(options?: RuntimeOptions)
  /** Every configuration problem found at load (bad config never throws). */
  readonly diagnostics: Diagnostic[]
  /** The files that were read. */
  readonly sources: Source[]
  /**
   * Runs every hook configured for the event and folds their answers in configuration order.
   * Never blocks the event loop; resolves at once when nothing matches.
   *
   * `payload` is Claude Code's stdin for the moment (`session_id`, `transcript_path`, `cwd`, then
   * the event's fields: `prompt`, `tool_name`, `tool_input`, `tool_response`, `stop_hook_active`,
   * `source`, `reason`, …), plus what only some harnesses send when the host knows it
   * (`turn_id`, `model`, `permission_mode`, `tool_use_id`, `last_assistant_message`,
   * `llm_request`/`llm_response`, `initial_prompt`). Each hook then gets the stdin, environment,
   * shell and exit-code rules of its own harness, shaped from this one payload (docs/events.md,
   * "What a host passes"); a payload already in a harness's own shape works too.
   * Rejects with `TypeError('unknown event "X"')` for unknown names. When `signal` aborts (or
   * is already aborted), every hook process of this dispatch is killed with its whole tree and
   * the promise rejects with `signal.reason`, as `fetch` does.
   */
  dispatch(event: EventName, payload?: Record<string, unknown> | null, signal?: AbortSignal | null, options?: DispatchOptions): Promise<DispatchResult>
  /** Re-reads configuration; resolves to the new diagnostics. */
  reload(): Promise<Diagnostic[]>
  /** The merged effective configuration: sources, diagnostics, hooks in order, off switch. */
  dump(): { disabled: boolean; sources: Source[]; diagnostics: Diagnostic[]; hooks: Array<Record<string, unknown>> }
  /** Aborts running hooks (their dispatches reject with `runtime is closed`); later calls reject. */
  close(): void
  /**
   * `'async'`: `cb` is called when an `async` (or `asyncRewake`) hook finishes, with its run and
   * the rewake it asks for. The result is also delivered with the session's next dispatch.
   * Returns a function that removes the listener.
   */
  on(event: 'async', cb: (finished: AsyncFinished) => void): () => void
  /**
   * Registers callback hooks beside the hook files, in the Agent SDK's shape; they run before
   * the files' hooks of their event, time out like any hook (their signal aborts), and a throw
   * is a hook failure under `onError` / `failClosed`. Throws a TypeError naming the event and
   * field when the shape is wrong.
   */
  addHooks(hooks: CallbackHooks): CallbackHooksHandle
}

/** Loads the hook configuration of `options.cwd` / `options.homeDir` (or `configPath`). */
export declare function createRuntime(options?: RuntimeOptions): HookRuntime

/** Package version. */
export declare const version: string
