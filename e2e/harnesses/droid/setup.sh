#!/bin/bash
# setup.sh [DIR] — installs the pinned Factory Droid CLI into DIR (default $DROID_E2E_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/harness-e2e/droid). The `@factory/cli` wrapper's platform binary is missing from the
# registry, so the platform package @factory/cli-linux-x64 (one self-contained binary) is installed directly.
# Only the npm registry is contacted.
set -euo pipefail
VER=${KIT_VERSION:-0.225.2}
D=${1:-${DROID_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-e2e/droid}}
mkdir -p "$D/setup-home"
D=$(cd "$D" && pwd)
cd "$D"
[ -f package.json ] || echo '{"name":"droid-e2e","private":true}' > package.json
npm install --no-audit --no-fund --save-exact --prefix "$D" "@factory/cli-linux-x64@$VER" 2>&1 | tail -3
env HOME="$D/setup-home" "$D/node_modules/@factory/cli-linux-x64/bin/droid" --version
