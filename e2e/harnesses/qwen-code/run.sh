#!/bin/bash
# run.sh <scenario> — one fresh headless Qwen Code session (`qwen -p … --yolo`) against the local chat-completions
# mock, with every hook event of the project's .qwen/settings.json pointed at the recorder.
# Scenarios: S1 allow | S2 exit2@PreToolUse | S3 json-deny@PreToolUse | S4 context@PostToolUse
#   S5 context@UserPromptSubmit | S6 update-input@PreToolUse | S7 stop-block@Stop | S8 sleep@PreToolUse (timeout 1 s)
#   S9 exit1@PreToolUse | S10 matchers (run_shell_command, Bash, read_file, run_shell.*)
#   S11 legacy millisecond timeout: sleep@PreToolUse with "timeout": 1500 (read as 1.5 s)
#   S12 exit 2 with an empty stderr | S13 exit 2 with a JSON deny on stderr | S14 exit 2 with a JSON object without a decision on stderr
# Env: QWEN_E2E_DIR (install dir from setup.sh), RUNS (scratch root; the session folder is $RUNS/<scenario>),
#      CAPTURES (where the logs are copied), UNSHARE=1 (run mock + harness inside `unshare -n`, loopback only),
#      HOOKRT_SETUP (hookrt's e2e: a command run once the session's files are written, before the harness starts)
set -u
SC=${1:?usage: run.sh <S1..S14>}
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
D=$(abspath "${QWEN_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/qwen-code}")
RUNS=$(abspath "${RUNS:-${TMPDIR:-/tmp}/harness-e2e/qwen-code/runs}")
CAPTURES=$(abspath "${CAPTURES:-${TMPDIR:-/tmp}/harness-e2e/qwen-code/captures}")
if [ "${UNSHARE:-0}" = 1 ] && [ -z "${IN_NETNS:-}" ]; then
  exec unshare -n env IN_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi
QWEN_JS=$D/node_modules/@qwen-code/qwen-code/cli.js
NODE=${NODE:-$(command -v node)}
[ -f "$QWEN_JS" ] || { echo "qwen-code not installed in $D (run setup.sh)"; exit 3; }

RUN=$RUNS/$SC
rm -rf "$RUN"; mkdir -p "$RUN/home/.qwen" "$RUN/proj/.qwen" "$CAPTURES"
REC_LOG=$RUN/recorder.jsonl MOCK_LOG=$RUN/mock.jsonl

PRE_TIMEOUT=10 LAYOUT=plain
case $SC in
  S1) CTL='{}' ;;
  S2) CTL='{"PreToolUse":"exit2"}' ;;
  S3) CTL='{"PreToolUse":"json-deny"}' ;;
  S4) CTL='{"PostToolUse":"context"}' ;;
  S5) CTL='{"UserPromptSubmit":"context"}' ;;
  S6) CTL='{"PreToolUse":"update-input"}' ;;
  S7) CTL='{"Stop":"stop-block"}' ;;
  S8) CTL='{"PreToolUse":"sleep"}'; PRE_TIMEOUT=1 ;;
  S9) CTL='{"PreToolUse":"exit1"}' ;;
  S10) CTL='{}'; LAYOUT=matchers ;;
  S11) CTL='{"PreToolUse":"sleep"}'; PRE_TIMEOUT=1500 ;;
  S12) CTL='{"PreToolUse":"exit2-silent"}' ;;
  S13) CTL='{"PreToolUse":"exit2-json-stderr"}' ;;
  S14) CTL='{"PreToolUse":"exit2-json-note"}' ;;
  *) echo "unknown scenario $SC"; exit 2 ;;
esac
echo "$CTL" > "$RUN/ctl.json"

cat > "$RUN/home/.qwen/settings.json" <<'JSON'
{ "security": { "auth": { "selectedType": "openai" } }, "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false }, "general": { "enableAutoUpdate": false } }
JSON
# --- project settings: every hook event -> recorder (Qwen Code's own format; timeout in seconds) ---
"$NODE" - "$RUN/proj/.qwen/settings.json" "$NODE" "$KIT/recorder.mjs" "$PRE_TIMEOUT" "$LAYOUT" <<'JS'
const [file, node, rec, preTimeout, layout] = process.argv.slice(2)
const q = w => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)
const events = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure',
  'PostToolBatch', 'Stop', 'Notification', 'PreCompact', 'PermissionRequest', 'SubagentStart', 'SubagentStop']
const hook = (ev, tag = '', timeout = 10) => ({ type: 'command', command: `${q(node)} ${q(rec)} ${ev}${tag ? ' ' + tag : ''}`, timeout })
const hooks = {}
for (const e of events) hooks[e] = [{ matcher: '', hooks: [hook(e, '', e === 'PreToolUse' ? Number(preTimeout) : 10)] }]
if (layout === 'matchers') {
  hooks.PreToolUse = ['run_shell_command', 'Bash', 'read_file', 'run_shell.*'].map(m => ({ matcher: m, hooks: [hook('PreToolUse', 'matcher=' + m)] }))
}
require('fs').writeFileSync(file, JSON.stringify({ hooks }, null, 2))
JS

MOCK_PORT_FILE=$RUN/port "$NODE" "$KIT/mock-llm.mjs" 0 "$MOCK_LOG" > "$RUN/mock.out" 2>&1 & MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT=$(cat "$RUN/port")
if [ -n "${HOOKRT_SETUP:-}" ]; then RUN="$RUN" bash -c "$HOOKRT_SETUP" || { echo "HOOKRT_SETUP failed"; exit 65; }; fi
PROMPT=${PROMPT:-Run the shell command: echo hi}
T0=$(date +%s.%N)
( cd "$RUN/proj" && env -i PATH="$PATH" TERM=dumb LANG=C.UTF-8 HOME="$RUN/home" \
    OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_API_KEY=test OPENAI_MODEL=mock-model \
    QWEN_CODE_SUPPRESS_YOLO_WARNING=1 \
    RECORDER_LOG="$REC_LOG" RECORDER_CTL="$RUN/ctl.json" \
    timeout 180 "$NODE" "$QWEN_JS" -p "$PROMPT" --yolo --output-format json \
    > "$RUN/stdout.json" 2> "$RUN/stderr.txt" < /dev/null )
RC=$?
T1=$(date +%s.%N)
kill $MOCK_PID 2>/dev/null; wait $MOCK_PID 2>/dev/null
cp "$REC_LOG" "$CAPTURES/$SC.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.jsonl"
cp "$MOCK_LOG" "$CAPTURES/$SC.mock.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.mock.jsonl"
cp "$RUN/stdout.json" "$CAPTURES/$SC.stdout.json"; cp "$RUN/stderr.txt" "$CAPTURES/$SC.stderr.txt"
echo "== $SC  ctl=$CTL layout=$LAYOUT  netns=${IN_NETNS:-0}  exit code: $RC  wall: $(echo "$T1 - $T0" | bc) s"
echo "== final text:"; jq -r '[.[] | select(.type=="result") | .result] | last // "(none)"' "$RUN/stdout.json" 2>/dev/null | head -5
echo "== recorder log:"; jq -c '{t, event, tag, mode, answer}' "$REC_LOG" 2>/dev/null | cut -c1-300
echo "== mock requests:"; jq -c '{n, kind, lastRole, last: (.body.messages[-1].content // "" | tostring | .[0:300])}' "$MOCK_LOG" 2>/dev/null
exit 0
