#!/bin/bash
# run.sh <scenario> — one fresh headless Factory Droid session (`droid exec --auto low -m custom:mock-model`) against
# the local chat-completions mock (a `customModels` entry, provider generic-chat-completion-api), with every hook
# event of the project's .factory/hooks.json (events at the file's root) pointed at the recorder.
# Scenarios: S1 allow | S2 exit2@PreToolUse | S3 json-deny@PreToolUse | S4 context@PostToolUse
#   S5 context@UserPromptSubmit | S6 update-input@PreToolUse | S7 stop-block@Stop | S8 sleep@PreToolUse (timeout 1 s)
#   S9 exit1@PreToolUse | S10 matchers (Execute, Bash, Read, Exec.*)
#   S11 hooks in .factory/settings.json instead (no hooks.json) | S12 a hooks.json with a "hooks" wrapper (never run)
# Env: DROID_E2E_DIR (install dir from setup.sh), RUNS (scratch root; the session folder is $RUNS/<scenario>),
#      CAPTURES (where the logs are copied), UNSHARE=1 (run mock + harness inside `unshare -n`, loopback only),
#      HOOKRT_SETUP (hookrt's e2e: a command run once the session's files are written, before the harness starts)
set -u
SC=${1:?usage: run.sh <S1..S12>}
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
D=$(abspath "${DROID_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/droid}")
RUNS=$(abspath "${RUNS:-${TMPDIR:-/tmp}/harness-e2e/droid/runs}")
CAPTURES=$(abspath "${CAPTURES:-${TMPDIR:-/tmp}/harness-e2e/droid/captures}")
if [ "${UNSHARE:-0}" = 1 ] && [ -z "${IN_NETNS:-}" ]; then
  exec unshare -n env IN_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi
BIN=$D/node_modules/@factory/cli-linux-x64/bin/droid
NODE=${NODE:-$(command -v node)}
[ -x "$BIN" ] || { echo "droid not installed in $D (run setup.sh)"; exit 3; }

RUN=$RUNS/$SC
rm -rf "$RUN"; mkdir -p "$RUN/home/.factory" "$RUN/proj/.factory" "$CAPTURES"
REC_LOG=$RUN/recorder.jsonl MOCK_LOG=$RUN/mock.jsonl

PRE_TIMEOUT=10 LAYOUT=plain FILE=hooks
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
  S11) CTL='{"PreToolUse":"exit2"}'; FILE=settings ;;
  S12) CTL='{"PreToolUse":"exit2"}'; FILE=wrapped ;;
  # the unusual answers
  S13) CTL='{"PreToolUse":"exit1-json-deny"}' ;;       # exit 1 with a JSON deny on stdout
  S14) CTL='{"PreToolUse":"exit2-silent"}' ;;          # exit 2, nothing on stderr
  S15) CTL='{"PreToolUse":"exit2-json-stdout"}' ;;     # exit 2, the deny as JSON on stdout
  S16) CTL='{"PreToolUse":"exit2-plain-stdout"}' ;;    # exit 2, plain text on stdout
  S17) CTL='{"PreToolUse":"exit3-plain-stdout"}' ;;    # exit 3, plain text on stdout
  S18) CTL='{"PreToolUse":"truncated-json"}' ;;        # a JSON deny cut short
  S19) CTL='{"PreToolUse":"log-then-json"}' ;;         # a log line before the JSON deny
  S20) CTL='{"PreToolUse":"json-deny-wrong-event"}' ;; # a deny naming hookEventName PostToolUse
  S21) CTL='{"PreToolUse":"legacy-block"}' ;;          # the legacy {"decision":"block"}
  S22) CTL='{"PreToolUse":"continue-false"}' ;;        # continue:false on PreToolUse
  S23) CTL='{"PreToolUse":"killed"}' ;;                # killed by SIGKILL
  *) echo "unknown scenario $SC"; exit 2 ;;
esac
echo "$CTL" > "$RUN/ctl.json"

# --- project hooks, Droid's own format (timeout in seconds) ---
"$NODE" - "$RUN/proj/.factory" "$NODE" "$KIT/recorder.mjs" "$PRE_TIMEOUT" "$LAYOUT" "$FILE" <<'JS'
const [dir, node, rec, preTimeout, layout, file] = process.argv.slice(2)
const q = w => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)
const events = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop', 'Notification', 'PreCompact']
const hook = (ev, tag = '', timeout = 10) => ({ type: 'command', command: `${q(node)} ${q(rec)} ${ev}${tag ? ' ' + tag : ''}`, timeout })
const hooks = {}
for (const e of events) hooks[e] = [{ matcher: '', hooks: [hook(e, '', e === 'PreToolUse' ? Number(preTimeout) : 10)] }]
if (layout === 'matchers') {
  hooks.PreToolUse = ['Execute', 'Bash', 'Read', 'Exec.*'].map(m => ({ matcher: m, hooks: [hook('PreToolUse', 'matcher=' + m)] }))
}
const fs = require('fs')
if (file === 'settings') fs.writeFileSync(dir + '/settings.json', JSON.stringify({ hooks }, null, 2))
else if (file === 'wrapped') fs.writeFileSync(dir + '/hooks.json', JSON.stringify({ hooks }, null, 2))
else fs.writeFileSync(dir + '/hooks.json', JSON.stringify(hooks, null, 2))
JS

MOCK_PORT_FILE=$RUN/port "$NODE" "$KIT/mock-llm.mjs" 0 "$MOCK_LOG" > "$RUN/mock.out" 2>&1 & MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT=$(cat "$RUN/port")
cat > "$RUN/home/.factory/settings.json" <<JSON
{ "customModels": [ { "model": "mock-model", "displayName": "Mock", "baseUrl": "http://127.0.0.1:$PORT/v1", "apiKey": "test",
    "provider": "generic-chat-completion-api", "maxOutputTokens": 1000 } ] }
JSON
if [ -n "${HOOKRT_SETUP:-}" ]; then RUN="$RUN" bash -c "$HOOKRT_SETUP" || { echo "HOOKRT_SETUP failed"; exit 65; }; fi
PROMPT=${PROMPT:-Run the shell command: echo hi}
T0=$(date +%s.%N)
( cd "$RUN/proj" && env -i PATH="$PATH" TERM=dumb LANG=C.UTF-8 HOME="$RUN/home" \
    RECORDER_LOG="$REC_LOG" RECORDER_CTL="$RUN/ctl.json" \
    timeout 180 "$BIN" exec --auto low -m custom:mock-model "$PROMPT" \
    > "$RUN/stdout.txt" 2> "$RUN/stderr.txt" < /dev/null )
RC=$?
T1=$(date +%s.%N)
kill $MOCK_PID 2>/dev/null; wait $MOCK_PID 2>/dev/null
cp "$REC_LOG" "$CAPTURES/$SC.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.jsonl"
cp "$MOCK_LOG" "$CAPTURES/$SC.mock.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.mock.jsonl"
cp "$RUN/stdout.txt" "$CAPTURES/$SC.stdout.txt"; cp "$RUN/stderr.txt" "$CAPTURES/$SC.stderr.txt"
echo "== $SC  ctl=$CTL layout=$LAYOUT file=$FILE  netns=${IN_NETNS:-0}  exit code: $RC  wall: $(echo "$T1 - $T0" | bc) s"
echo "== final text:"; tail -5 "$RUN/stdout.txt"
echo "== recorder log:"; jq -c '{t, event, tag, mode, answer}' "$REC_LOG" 2>/dev/null | cut -c1-300
echo "== mock requests:"; jq -c '{n, kind, lastRole, last: (.body.messages[-1].content // "" | tostring | .[0:300])}' "$MOCK_LOG" 2>/dev/null
exit 0
