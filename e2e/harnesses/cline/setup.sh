#!/bin/bash
# setup.sh [DIR] — installs the pinned Cline CLI (npm `cline`, whose platform package @cline/cli-linux-x64 holds one
# self-contained binary) into DIR (default $CLINE_E2E_DIR, else ${XDG_CACHE_HOME:-~/.cache}/harness-e2e/cline).
# Only the npm registry is contacted.
set -euo pipefail
VER=${KIT_VERSION:-3.0.65}
D=${1:-${CLINE_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/cline}}
mkdir -p "$D/setup-home"
D=$(cd "$D" && pwd)
cd "$D"
[ -f package.json ] || echo '{"name":"cline-e2e","private":true}' > package.json
npm install --no-audit --no-fund --save-exact --prefix "$D" "cline@$VER" 2>&1 | tail -3
env HOME="$D/setup-home" "$D/node_modules/@cline/cli-linux-x64/bin/cline" --version
