#!/bin/bash
# run.sh <scenario> — one fresh headless Cline CLI session (`cline --yolo --json …`) against the local chat-completions
# mock (provider openai-compatible, set with `cline auth`), with a hook file per event in the project's
# .clinerules/hooks/ (each `exec node recorder.mjs <Event>`).
# Scenarios: S1 allow | S2 exit2@PreToolUse | S3 cancel@PreToolUse | S4 context@PostToolUse
#   S5 context@UserPromptSubmit | S6 overrideInput@PreToolUse | S7 cancel@TaskComplete | S9 exit1@PreToolUse
#   S10 a PreToolUse file in .clinerules/hooks and another in .cline/hooks | S11 hook files by extension (.mjs, no shebang)
# Env: CLINE_E2E_DIR (install dir from setup.sh), RUNS (scratch root; the session folder is $RUNS/<scenario>),
#      CAPTURES (where the logs are copied), UNSHARE=1 (run mock + harness inside `unshare -n`, loopback only),
#      HOOKRT_SETUP (hookrt's e2e: a command run once the session's files are written, before the harness starts)
set -u
SC=${1:?usage: run.sh <S1..S11>}
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
D=$(abspath "${CLINE_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/cline}")
RUNS=$(abspath "${RUNS:-${TMPDIR:-/tmp}/harness-e2e/cline/runs}")
CAPTURES=$(abspath "${CAPTURES:-${TMPDIR:-/tmp}/harness-e2e/cline/captures}")
if [ "${UNSHARE:-0}" = 1 ] && [ -z "${IN_NETNS:-}" ]; then
  exec unshare -n env IN_NETNS=1 bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi
BIN=$D/node_modules/@cline/cli-linux-x64/bin/cline
NODE=${NODE:-$(command -v node)}
[ -x "$BIN" ] || { echo "cline not installed in $D (run setup.sh)"; exit 3; }

RUN=$RUNS/$SC
rm -rf "$RUN"; mkdir -p "$RUN/home" "$RUN/proj/.clinerules/hooks" "$CAPTURES"
REC_LOG=$RUN/recorder.jsonl MOCK_LOG=$RUN/mock.jsonl
LAYOUT=plain
case $SC in
  S1) CTL='{}' ;;
  S2) CTL='{"PreToolUse":"exit2"}' ;;
  S3) CTL='{"PreToolUse":"json-deny"}' ;;
  S4) CTL='{"PostToolUse":"context"}' ;;
  S5) CTL='{"UserPromptSubmit":"context"}' ;;
  S6) CTL='{"PreToolUse":"update-input"}' ;;
  S7) CTL='{"TaskComplete":"stop-block"}' ;;
  S9) CTL='{"PreToolUse":"exit1"}' ;;
  S10) CTL='{}'; LAYOUT=two-folders ;;
  S11) CTL='{}'; LAYOUT=extensions ;;
  # the unusual answers
  S12) CTL='{"PreToolUse":"exit1-json-deny"}' ;;    # exit 1 with a cancel on stdout
  S13) CTL='{"PreToolUse":"exit2-silent"}' ;;       # exit 2, nothing on stderr
  S14) CTL='{"PreToolUse":"exit2-json-stdout"}' ;;  # exit 2, a cancel on stdout
  S15) CTL='{"PreToolUse":"exit2-plain-stdout"}' ;; # exit 2, plain text on stdout
  S16) CTL='{"PreToolUse":"exit3-plain-stdout"}' ;; # exit 3, plain text on stdout
  S17) CTL='{"PreToolUse":"truncated-json"}' ;;     # a cancel cut short
  S18) CTL='{"PreToolUse":"log-then-json"}' ;;      # a log line before the cancel
  S19) CTL='{"PreToolUse":"hso-deny"}' ;;           # Claude Code's hookSpecificOutput deny
  S20) CTL='{"PreToolUse":"legacy-block"}' ;;       # the legacy {"decision":"block"}
  S21) CTL='{"PreToolUse":"continue-false"}' ;;     # Claude Code's continue:false
  S22) CTL='{"PreToolUse":"killed"}' ;;             # killed by SIGKILL
  *) echo "unknown scenario $SC"; exit 2 ;;
esac
echo "$CTL" > "$RUN/ctl.json"

q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
hookfile() { # dir event [tag]
  printf '#!/bin/bash\nexec %s %s %s %s\n' "$(q "$NODE")" "$(q "$KIT/recorder.mjs")" "$2" "${3:-}" > "$1/$2"; chmod +x "$1/$2"
}
H=$RUN/proj/.clinerules/hooks
for e in TaskStart TaskResume TaskCancel TaskComplete TaskError PreToolUse PostToolUse UserPromptSubmit SessionShutdown; do
  if [ "$LAYOUT" = extensions ]; then
    printf 'process.argv.splice(2, 0, %s)\nawait import(%s)\n' "\"$e\"" "\"$KIT/recorder.mjs\"" > "$H/$e.mjs"
  else hookfile "$H" "$e"; fi
done
if [ "$LAYOUT" = two-folders ]; then
  mkdir -p "$RUN/proj/.cline/hooks"; hookfile "$RUN/proj/.cline/hooks" PreToolUse cline-folder
  hookfile "$H" PreToolUse clinerules-folder
fi

MOCK_PORT_FILE=$RUN/port "$NODE" "$KIT/mock-llm.mjs" 0 "$MOCK_LOG" > "$RUN/mock.out" 2>&1 & MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT=$(cat "$RUN/port")
CLENV=(env -i PATH="$PATH" TERM=dumb LANG=C.UTF-8 HOME="$RUN/home")
( cd "$RUN/proj" && "${CLENV[@]}" timeout 60 "$BIN" auth --provider openai --apikey test --modelid mock-model \
    --baseurl "http://127.0.0.1:$PORT/v1" > "$RUN/auth.txt" 2>&1 )
if [ -n "${HOOKRT_SETUP:-}" ]; then RUN="$RUN" bash -c "$HOOKRT_SETUP" || { echo "HOOKRT_SETUP failed"; exit 65; }; fi
PROMPT=${PROMPT:-Run the shell command: echo hi}
T0=$(date +%s.%N)
( cd "$RUN/proj" && "${CLENV[@]}" RECORDER_LOG="$REC_LOG" RECORDER_CTL="$RUN/ctl.json" \
    timeout 120 "$BIN" --yolo --json "$PROMPT" > "$RUN/stdout.jsonl" 2> "$RUN/stderr.txt" < /dev/null )
RC=$?
T1=$(date +%s.%N)
sleep 1   # detached hooks (TaskStart, UserPromptSubmit) may still be writing
kill $MOCK_PID 2>/dev/null; wait $MOCK_PID 2>/dev/null
cp "$REC_LOG" "$CAPTURES/$SC.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.jsonl"
cp "$MOCK_LOG" "$CAPTURES/$SC.mock.jsonl" 2>/dev/null || : > "$CAPTURES/$SC.mock.jsonl"
cp "$RUN/stdout.jsonl" "$CAPTURES/$SC.stdout.jsonl"; cp "$RUN/stderr.txt" "$CAPTURES/$SC.stderr.txt"
echo "== $SC  ctl=$CTL layout=$LAYOUT  netns=${IN_NETNS:-0}  exit code: $RC  wall: $(echo "$T1 - $T0" | bc) s"
echo "== final text:"; jq -r 'select(.type=="run_result") | "\(.finishReason) \(.text)"' "$RUN/stdout.jsonl" 2>/dev/null | tail -2
echo "== recorder log:"; jq -c '{t, event, tag, mode, answer}' "$REC_LOG" 2>/dev/null | cut -c1-300
echo "== mock requests:"; jq -c '{n, kind, lastRole, last: (.body.messages[-1].content // "" | tostring | .[0:300])}' "$MOCK_LOG" 2>/dev/null
exit 0
