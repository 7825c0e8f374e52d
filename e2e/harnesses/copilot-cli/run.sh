#!/bin/bash
# run.sh <scenario>  — one fresh headless GitHub Copilot CLI session against the local mock, with
# .github/hooks/recorder.json pointing every hook event at recorder.mjs in that scenario's mode.
# Scenarios: S1 allow | S2 exit2@preToolUse | S3 json-deny@preToolUse | S4 context@postToolUse |
#   S5 context@userPromptSubmitted | S5b context@sessionStart | S6 update-input@preToolUse |
#   S7 stop-block@agentStop | S8 sleep@preToolUse (timeoutSec 1) | S9 exit1@preToolUse | S10 matchers
# Env: COPILOT_E2E_DIR (install dir from setup.sh, default ${XDG_CACHE_HOME:-~/.cache}/harness-e2e/copilot-cli)
#      RUNS     scratch root for the session folders (default ${TMPDIR:-/tmp}/harness-e2e/copilot-cli/runs)
#      CAPTURES where the logs go (default ${TMPDIR:-/tmp}/harness-e2e/copilot-cli/captures; the checked-in
#               ./captures were made from such a folder with ../sanitize-captures.mjs)
#      HOOK_FORMAT=pascal  use the VS Code/Claude-compatible PascalCase event names (captures get -pascal)
#      TRUST=0             do not pass --trust-folder (to see whether repo hooks load untrusted)
#      TRUST=persist       no --trust-folder; the project listed in trusted_folders of $COPILOT_HOME/config.json
#      UNSHARE=1           run mock + harness inside `unshare -n` (loopback only)
set -uo pipefail
S=${1:?scenario}
KIT=$(cd "$(dirname "$0")" && pwd)
if [ "${UNSHARE:-0}" = 1 ] && [ -z "${IN_UNSHARE:-}" ]; then
  exec unshare -n env IN_UNSHARE=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$KIT/run.sh" "$@"
fi
abspath() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
D=$(abspath "${COPILOT_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/copilot-cli}")
RUNS=$(abspath "${RUNS:-${TMPDIR:-/tmp}/harness-e2e/copilot-cli/runs}")
CAPTURES=$(abspath "${CAPTURES:-${TMPDIR:-/tmp}/harness-e2e/copilot-cli/captures}")
BIN=$D/node_modules/@github/copilot-linux-x64/copilot
NODE=$(command -v node)
SUF=""; [ "${HOOK_FORMAT:-camel}" = pascal ] && SUF="-pascal"; [ "${TRUST:-1}" = 0 ] && SUF="$SUF-untrusted"
[ -n "${IN_UNSHARE:-}" ] && SUF="$SUF-unshare"
NAME=$S$SUF
[ -x "$BIN" ] || { echo "copilot not installed in $D (run setup.sh $D)"; exit 3; }
RUN=$RUNS/$NAME-$(date +%s%N); mkdir -p "$RUN/home/.copilot" "$RUN/proj/.github/hooks" "$CAPTURES"
CAP=$RUN/recorder.jsonl; MOCKLOG=$RUN/mock.jsonl   # copied to $CAPTURES/$NAME.{jsonl,mock.jsonl} afterwards
( cd "$RUN/proj" && git init -q . && echo "# scratch" > README.md )

# per-scenario modes (event -> mode) and pre-tool timeout
PRE_TIMEOUT=10
case $S in
  S1) CTL='{}' ;;
  S2) CTL='{"preToolUse":"exit2","PreToolUse":"exit2"}' ;;
  S3) CTL='{"preToolUse":"json-deny","PreToolUse":"json-deny"}' ;;
  S4) CTL='{"postToolUse":"context","PostToolUse":"context"}' ;;
  S5) CTL='{"userPromptSubmitted":"context","UserPromptSubmit":"context"}' ;;
  S5b) CTL='{"sessionStart":"context","SessionStart":"context"}' ;;
  S6) CTL='{"preToolUse":"update-input","PreToolUse":"update-input"}' ;;
  S7) CTL='{"agentStop":"stop-block","Stop":"stop-block"}' ;;
  S8) CTL='{"preToolUse":"sleep","PreToolUse":"sleep"}'; PRE_TIMEOUT=1 ;;
  S9) CTL='{"preToolUse":"exit1","PreToolUse":"exit1"}' ;;
  S10) CTL='{}' ;;
  S11) CTL='{"preToolUse":"hso-deny","PreToolUse":"hso-deny"}' ;;        # Claude's hookSpecificOutput deny
  S12) CTL='{"preToolUse":"legacy-block"}' ;;    # Claude's decision:block
  S13) CTL='{"preToolUse":"continue-false"}' ;;  # continue:false
  S14) CTL='{"preToolUse":"exit2-json"}' ;;      # exit 2 with a JSON deny on stdout
  S15) CTL='{"preToolUse:first":"json-deny"}' ;; # two preToolUse hooks, the first denies
  # the unusual answers
  S16) CTL='{"preToolUse":"exit1-json-deny"}' ;;    # exit 1 with a JSON deny on stdout
  S17) CTL='{"preToolUse":"exit2-silent"}' ;;       # exit 2, nothing on stderr
  S18) CTL='{"preToolUse":"exit2-json-stdout"}' ;;  # exit 2, a JSON deny on stdout, nothing on stderr
  S19) CTL='{"preToolUse":"exit2-plain-stdout"}' ;; # exit 2, plain text on stdout
  S20) CTL='{"preToolUse":"exit3-plain-stdout"}' ;; # exit 3, plain text on stdout
  S21) CTL='{"preToolUse":"truncated-json"}' ;;     # a JSON deny cut short
  S22) CTL='{"preToolUse":"log-then-json"}' ;;      # a log line before the JSON deny
  S23) CTL='{"preToolUse":"killed"}' ;;             # killed by SIGKILL
  *) echo "unknown scenario $S" >&2; exit 64 ;;
esac
echo "$CTL" > "$RUN/ctl.json"

if [ "${HOOK_FORMAT:-camel}" = pascal ]; then
  EVENTS="SessionStart SessionEnd UserPromptSubmit PreToolUse PostToolUse PostToolUseFailure PermissionRequest Stop SubagentStop ErrorOccurred PreCompact Notification"; PRE=PreToolUse; SHELLNAME=Bash
else
  EVENTS="sessionStart sessionEnd userPromptSubmitted userPromptTransformed preToolUse postToolUse postToolUseFailure permissionRequest agentStop subagentStart subagentStop errorOccurred preCompact notification"; PRE=preToolUse; SHELLNAME=bash
fi
"$NODE" - "$RUN/proj/.github/hooks/recorder.json" "$NODE" "$KIT/recorder.mjs" "$S" "$PRE" "$PRE_TIMEOUT" "$SHELLNAME" $EVENTS <<'JS'
const [file, node, rec, S, PRE, preTimeout, shellName, ...events] = process.argv.slice(2)
// shell-quote a word only when it needs it (a kit folder whose path holds spaces etc.); Copilot runs `bash -c`
const q = w => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)
const entry = (ev, extra = {}, tag = '') => ({ type: 'command', bash: `${q(node)} ${q(rec)} ${ev}${tag ? ' ' + tag : ''}`, timeoutSec: ev === PRE ? Number(preTimeout) : 10, ...extra })
const hooks = {}
for (const ev of events) hooks[ev] = [entry(ev)]
if (S === 'S10') hooks[PRE] = [entry(PRE, { matcher: 'view' }, 'matcher=view'), entry(PRE, { matcher: shellName }, 'matcher=' + shellName)]
if (S === 'S15') hooks[PRE] = [entry(PRE, {}, 'first'), entry(PRE, {}, 'second')]
require('fs').writeFileSync(file, JSON.stringify({ version: 1, hooks }, null, 2))
JS

MOCK_PORT_FILE=$RUN/port "$NODE" "$KIT/mock-llm.mjs" 0 "$MOCKLOG" > "$RUN/mock.out" 2>&1 & MP=$!
for i in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done; P=$(cat "$RUN/port")
TRUSTFLAG=--trust-folder; [ "${TRUST:-1}" = 1 ] || TRUSTFLAG=
# TRUST=persist: no flag; the project is a trusted folder in $COPILOT_HOME/config.json, as Copilot records
# "trust this folder for future sessions"
if [ "${TRUST:-1}" = persist ]; then
  "$NODE" -e 'const fs=require("fs"),[f,d]=process.argv.slice(1);let j={};try{j=JSON.parse(fs.readFileSync(f,"utf8"))}catch{};j.trusted_folders=[...(j.trusted_folders||[]),d];fs.writeFileSync(f,JSON.stringify(j,null,2))' "$RUN/home/.copilot/config.json" "$RUN/proj"
fi
# hookrt's e2e (../inside.mjs): HOOKRT_SETUP runs once the session's files are written and before the
# harness starts, with RUN the session folder (it runs `hookrt install`)
if [ -n "${HOOKRT_SETUP:-}" ]; then RUN="$RUN" bash -c "$HOOKRT_SETUP" || { echo "HOOKRT_SETUP failed"; exit 65; }; fi
PROMPT="Run the shell command: echo hi"
T0=$(date +%s.%N)
( cd "$RUN/proj" && env -i PATH="$(dirname "$NODE"):/usr/local/bin:/usr/bin:/bin" HOME="$RUN/home" COPILOT_HOME="$RUN/home/.copilot" \
    TERM=dumb NO_COLOR=1 LANG=C.UTF-8 \
    COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false \
    COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$P/v1" COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=mock-model \
    RECORDER_LOG="$CAP" RECORDER_CTL="$RUN/ctl.json" \
    timeout 120 "$BIN" -p "$PROMPT" --allow-all-tools $TRUSTFLAG --no-auto-update --disable-client-telemetry \
      --log-dir "$RUN/logs" --log-level debug --output-format json > "$RUN/stdout.jsonl" 2> "$RUN/stderr.txt" )
RC=$?; T1=$(date +%s.%N)
kill $MP 2>/dev/null; wait $MP 2>/dev/null
cp "$CAP" "$CAPTURES/$NAME.jsonl" 2>/dev/null || : > "$CAPTURES/$NAME.jsonl"
cp "$MOCKLOG" "$CAPTURES/$NAME.mock.jsonl" 2>/dev/null || : > "$CAPTURES/$NAME.mock.jsonl"
cp "$RUN/stdout.jsonl" "$CAPTURES/$NAME.events.jsonl"
cat "$RUN"/home/.copilot/session-state/*/events.jsonl > "$CAPTURES/$NAME.session-events.jsonl" 2>/dev/null || true
grep -h '"type":"hook\.' "$CAPTURES/$NAME.session-events.jsonl" > "$CAPTURES/$NAME.session-hooks.jsonl" 2>/dev/null || true
grep -h -i -E 'hook' "$RUN"/logs/*.log 2>/dev/null | grep -v -E '^\s*$' | cut -c1-600 > "$CAPTURES/$NAME.copilot-log.txt" || true
echo "== $NAME  exit code: $RC   wall: $(echo "$T1 - $T0" | bc) s   run dir: $RUN"
echo "== final text:"
jq -rs '[.[] | select(.type=="assistant.message" and (.data.content // "") != "") | .data.content] | last // "(none)"' "$RUN/stdout.jsonl" 2>/dev/null
[ -s "$RUN/stderr.txt" ] && { echo "== stderr:"; tail -5 "$RUN/stderr.txt"; }
echo "== recorder log ($CAP):"
jq -c '{t, event, tag, mode, answer, stdin}' "$CAP" 2>/dev/null | cut -c1-700
echo "== mock requests ($MOCKLOG):"
jq -c '{n, t, kind, url, lastRole, last: (.body.messages[-1].content // "" | tostring | .[0:300])}' "$MOCKLOG" 2>/dev/null
