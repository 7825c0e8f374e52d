#!/bin/bash
# setup.sh [DIR] — installs the pinned Qwen Code (npm @qwen-code/qwen-code, a JS bundle for Node 20) into DIR
# (default $QWEN_E2E_DIR, else ${XDG_CACHE_HOME:-~/.cache}/harness-e2e/qwen-code). Only the npm registry is contacted.
set -euo pipefail
VER=${KIT_VERSION:-0.24.4}
D=${1:-${QWEN_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/qwen-code}}
mkdir -p "$D/setup-home"
D=$(cd "$D" && pwd)
cd "$D"
[ -f package.json ] || echo '{"name":"qwen-e2e","private":true}' > package.json
npm install --no-audit --no-fund --save-exact --prefix "$D" "@qwen-code/qwen-code@$VER" 2>&1 | grep -v '^npm warn install-scripts' | tail -3
env HOME="$D/setup-home" node "$D/node_modules/@qwen-code/qwen-code/cli.js" --version
