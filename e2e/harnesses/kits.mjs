// What the recording scripts need to know about each kit: the pinned harness, its scenarios (and
// the smoke set CI runs live; `--all` runs every one), how
// run-all.sh starts one (extra environment), where a session keeps its files, which of them are the
// hook configuration a replay must lay out again, and the names its events have for the facts a
// recording derives (did the tool run, how often did the turn try to stop).
//
// Paths are relative to the session folder ({run}); {project} = {run}/proj, {home} = {run}/home.

/** @typedef {{ env?: Record<string,string>, name?: string }} Variant */

// Cline's hook files, one per event
const CLINE_EVENTS = ['TaskStart', 'TaskResume', 'TaskCancel', 'TaskComplete', 'TaskError', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionShutdown']

export const KITS = {
  'claude-code': {
    harness: 'claude',
    version: '2.1.332',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@anthropic-ai/claude-code' },
    installVar: 'HARNESS_DIR',
    runsVar: 'RUNS',
    netns: { NETNS: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S11d', 'S12', 'S13', 'S14', 'S15', 'S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22', 'S23', 'S24', 'S25'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    // the model is told the reason of the deny that answered last (S24, S25): two denies that
    // answer at once race (S21), in the harness and in a replay alike
    answerOrder: true,
    variant: sc => (sc === 'S13'
      ? { env: { CAPTURE: 'S13', PERM_ARGS: '', MOCK_TOOL_INPUT: '{"command":"touch made-by-tool.txt","description":"Create a file"}' } }
      : {}),
    log: 'hooks.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.claude/settings.json', 'proj/.claude/settings.local.json', 'home/.claude/settings.json', 'ctl.json'],
    // what run.sh hands the harness itself (a host running hookrt has these too)
    launchEnv: {
      HOME: '{home}', CLAUDE_CONFIG_DIR: '{home}/.claude', TMPDIR: '{run}/tmp', ANTHROPIC_BASE_URL: 'http://127.0.0.1:{port}',
      ANTHROPIC_API_KEY: 'sk-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
      CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1', CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1', CLAUDE_CODE_SKIP_PROMPT_HISTORY: '1',
    },
    postTool: ['PostToolUse'],
    stop: ['Stop'],
    // variables of the harness's own process that no hook runtime could or should reproduce
    notReproduced: [
      'AI_AGENT', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_CHILD_NOTES_DIR', 'CLAUDE_CODE_CHILD_SESSION',
      'CLAUDE_CODE_MESSAGING_SOCKET', 'CLAUDE_CODE_MESSAGING_TOKEN', 'CLAUDE_CODE_SESSION_ATTENDED', 'CLAUDE_PID',
      'COREPACK_ENABLE_AUTO_PIN', 'NoDefaultCurrentDirectoryInExePath',
    ],
  },
  codex: {
    harness: 'codex',
    version: '0.171.0',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@openai/codex' },
    source: 'openai/codex',
    installVar: 'CODEX_KIT_DIR',
    runsVar: 'KIT_WORK',
    netns: { NETNS: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'X1', 'X2', 'X3', 'X4', 'X5', 'X6', 'X7', 'X8', 'X9', 'X10', 'X11', 'X12', 'X13', 'X14', 'X15', 'X16'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: sc => (sc === 'X10' ? { env: { DRIVER: 'appserver' } } : {}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.codex/hooks.json', 'home/.codex/hooks.json', 'home/.codex/config.toml', 'recorder-mode'],
    launchEnv: { HOME: '{home}', CODEX_HOME: '{home}/.codex', MOCK_API_KEY: 'mock-key-not-secret' },
    postTool: ['PostToolUse'],
    stop: ['Stop'],
    // set by the npm launcher for the codex binary
    notReproduced: ['CODEX_MANAGED_BY_NPM', 'CODEX_MANAGED_PACKAGE_ROOT'],
  },
  'gemini-cli': {
    harness: 'gemini',
    version: '0.61.0',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@google/gemini-cli' },
    source: 'google-gemini/gemini-cli',
    installVar: 'GEMINI_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14', 'S15', 'S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.gemini/settings.json', 'home/.gemini/settings.json'],
    launchEnv: {
      HOME: '{home}', GEMINI_CLI_HOME: '{home}', GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:{port}',
      GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true',
    },
    postTool: ['AfterTool'],
    stop: ['AfterAgent'],
    notReproduced: [],
  },
  'copilot-cli': {
    harness: 'copilot',
    version: '1.0.102',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@github/copilot' },
    installVar: 'COPILOT_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S5b', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14', 'S15',
      'S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22', 'S23',
      'S1-pascal', 'S2-pascal', 'S3-pascal', 'S6-pascal', 'S7-pascal', 'S10-pascal', 'S11-pascal'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    // "S2-pascal" is scenario S2 with the PascalCase event names
    variant: sc => (sc.endsWith('-pascal') ? { scenario: sc.replace(/-pascal$/, ''), env: { HOOK_FORMAT: 'pascal' } } : {}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.github/hooks/recorder.json', 'ctl.json'],
    launchEnv: {
      HOME: '{home}', COPILOT_HOME: '{home}/.copilot', COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:{port}/v1', COPILOT_PROVIDER_API_KEY: 'dummy', COPILOT_MODEL: 'mock-model',
    },
    postTool: ['postToolUse', 'PostToolUse'],
    // a file's hooks run one after the other
    sequential: true,
    // the binary's version and unpack folder, and settings Copilot gives every child process
    notReproduced: ['COPILOT_CLI_BINARY_VERSION', 'COPILOT_CLI_RESOLVED_DIST_DIR', 'FORCE_COLOR', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'],
    stop: ['agentStop', 'Stop'],
  },
  hermes: {
    harness: 'hermes',
    version: '0.19.0',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { pypi: 'hermes-agent' },
    source: 'NousResearch/hermes-agent',
    installVar: 'HERMES_DIR',
    runsVar: 'RUNS',
    netns: { KIT_NETNS: '1' },
    // S11 (consent over several sessions) belongs to the trust records, not to one session's hooks
    scenarios: ['S1', 'S2', 'S3', 'S3b', 'S4', 'S4b', 'S5', 'S6', 'S7', 'S7b', 'S8', 'S9', 'S10', 'S12', 'S13', 'S14', 'S15'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'hooks.jsonl',
    mock: 'mock.jsonl',
    files: ['home/.hermes/config.yaml', 'control.json'],
    launchEnv: { HOME: '{home}', HERMES_HOME: '{home}/.hermes', TIRITH_ENABLED: '0', HERMES_DISABLE_LAZY_INSTALLS: '1' },
    postTool: ['post_tool_call'],
    sequential: true,
    // Hermes' process-wide settings (its terminal tool's configuration, its CLI mode) and what the
    // kit's shell passed on
    notReproduced: ['PWD', 'SHELL', 'TERM', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'HERMES_INTERACTIVE', 'HERMES_QUIET', 'HERMES_KANBAN_BOARD', 'TERMINAL_*'],
    stop: ['pre_verify'],
  },
  'qwen-code': {
    harness: 'qwen',
    version: '0.24.4',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@qwen-code/qwen-code' },
    source: 'QwenLM/qwen-code',
    installVar: 'QWEN_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.qwen/settings.json', 'home/.qwen/settings.json', 'ctl.json'],
    launchEnv: {
      HOME: '{home}', OPENAI_BASE_URL: 'http://127.0.0.1:{port}/v1', OPENAI_API_KEY: 'test', OPENAI_MODEL: 'mock-model',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    },
    postTool: ['PostToolUse'],
    stop: ['Stop'],
    // Qwen's own process: its relaunch bookkeeping, the model it resolved, the agent and prompt it is in
    notReproduced: ['QWEN_CODE_NO_RELAUNCH', 'QWEN_CODE_PRIVATE_RELAUNCH_ENV_PROVENANCE', 'QWEN_CODE_MODEL',
      'QWEN_CODE_MODEL_IDENTITY', 'QWEN_CODE_AGENT_ID', 'QWEN_CODE_PROMPT_ID'],
  },
  droid: {
    harness: 'droid',
    version: '0.225.2',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: '@factory/cli-linux-x64' },
    installVar: 'DROID_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14', 'S15', 'S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22', 'S23'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['proj/.factory/hooks.json', 'proj/.factory/settings.json', 'home/.factory/settings.json', 'ctl.json'],
    launchEnv: { HOME: '{home}' },
    postTool: ['PostToolUse'],
    stop: ['Stop'],
    // droid exec's own mode switch; and its SessionStart env file, which hookrt creates where it
    // creates Claude Code's (~/.claude/session-env/<session>/), not under ~/.factory/temp/env/
    notReproduced: ['FACTORY_DISABLE_SETTINGS_PERSISTENCE', 'CLAUDE_ENV_FILE'],
  },
  cline: {
    harness: 'cline',
    version: '3.0.65',
    // where the pinned release comes from (setup.sh installs it), and its public source, for the drift report
    registry: { npm: 'cline' },
    source: 'cline/cline',
    installVar: 'CLINE_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14', 'S15', 'S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    // every hook file a scenario may write: one per event, named after it (S11: with .mjs)
    files: [...CLINE_EVENTS.flatMap(e => [`proj/.clinerules/hooks/${e}`, `proj/.clinerules/hooks/${e}.mjs`]),
      'proj/.cline/hooks/PreToolUse', 'ctl.json'],
    launchEnv: { HOME: '{home}' },
    postTool: ['PostToolUse'],
    // Cline reports its own terminal tool to the hooks too
    ignoreTools: ['submit_and_exit'],
    // its blocking hooks run one file after another
    sequential: true,
    stop: ['TaskComplete'],
    // the Cline binary's own build and connector settings, which it passes to every child
    notReproduced: ['CLINE_BUILD_ENV', 'CLINE_CONNECTOR_CLI_LAUNCH'],
  },
  kimi: {
    harness: 'kimi',
    version: '2.1.0',
    // where the pinned release comes from (setup.sh installs it with the Node 22 it needs), and its public source
    registry: { npm: '@moonshot-ai/kimi-code' },
    source: 'MoonshotAI/kimi-code',
    installVar: 'KIMI_E2E_DIR',
    runsVar: 'RUNS',
    netns: { UNSHARE: '1' },
    scenarios: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9', 'S10', 'S11', 'S12', 'S13', 'S14'],
    // what CI runs live (`npm run test:harnesses`): a whole session and the common guard answer
    smoke: ['S1', 'S3'],
    variant: () => ({}),
    log: 'recorder.jsonl',
    mock: 'mock.jsonl',
    files: ['home/.kimi-code/config.toml', 'ctl.json'],
    launchEnv: { HOME: '{home}' },
    postTool: ['PostToolUse'],
    // Kimi runs PostToolUse hooks without waiting and cancels them with the tool call, so a logged
    // call is no proof: what ran is the tool output the model was sent last (`echo hi` prints hi)
    ranCommands: mock => {
      const last = mock.filter(r => r.kind === 'final').at(-1)
      const outputs = (last?.body?.messages ?? []).filter(m => m.role === 'tool').map(m => String(m.content))
      return outputs.flatMap(o => (/(^|\n)hi\n/.test(o) ? ['echo hi'] : /(^|\n)changed\n/.test(o) ? ['echo changed'] : []))
    },
    stop: ['Stop'],
    // events Kimi fires without waiting and cancels with the tool call or the session: whether their
    // hook gets to log is chance, so the live drift report does not count their calls
    racy: ['PostToolUse', 'PostToolUseFailure', 'Notification', 'StopFailure', 'PostCompact', 'SubagentStop'],
    notReproduced: [],
  },
}

export const KIT_NAMES = Object.keys(KITS)

/** Dialects built from documentation or source without a kit, whose releases the drift report follows too. */
export const UNKITTED = {
  auggie: { version: '0.36.0', registry: { npm: '@augmentcode/auggie' } },
}
