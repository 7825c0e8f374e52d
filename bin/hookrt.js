#!/bin/sh
':' //; case $0 in */*) d=${0%/*};; *) d=.;; esac; for e in "$d/hookrt-native" "$d"/../hookrt-*-*/hookrt "$d"/../hookrt/node_modules/hookrt-*-*/hookrt "$d"/../lib/node_modules/hookrt/node_modules/hookrt-*-*/hookrt; do [ -x "$e" ] && exec "$e" "$@"; done
':' //; d=$(dirname "$(readlink -f "$0")"); [ -x "$d/hookrt-native" ] && exec "$d/hookrt-native" "$@"
':' //; case "$(uname -sm)" in "Linux x86_64") p=linux-x64-gnu;; "Linux aarch64") p=linux-arm64-gnu;; "Darwin x86_64") p=darwin-x64;; "Darwin arm64") p=darwin-arm64;; *) p=none;; esac
':' //; for e in "$d/../node_modules/hookrt-$p/hookrt" "$d/../../hookrt-$p/hookrt"; do [ -x "$e" ] && exec "$e" "$@"; done; exec node "$0" "$@"
// The `hookrt` command. Run as a program, the lines above (shell and JavaScript at once) hand
// over to the native executable, which starts in a millisecond instead of Node's ~50 ms: the
// one built beside this file in a clone, else the one in this platform's package
// (node_modules/hookrt-<platform>/hookrt, nested or hoisted). The first line finds it from the
// path the command was started by (npm's .bin link, a global bin) with no process of its own —
// one-shot commands pay for every fork — and the next ones resolve links when it did not.
// `node bin/hookrt.js` (and any host without the executable) runs the same Rust command
// through the addon. stdout belongs to the protocol and command output alone.
const native = require('../index.js')

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => native.stopCli())

// The launcher: how `hookrt install` entries start this command again when no executable exists.
native.runCli(process.argv.slice(2), [process.execPath, __filename]).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`hookrt: ${err?.message ?? err}\n`)
    process.exit(1)
  },
)
