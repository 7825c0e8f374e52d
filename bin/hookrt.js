#!/bin/sh
':' //; d=$(dirname "$(readlink -f "$0")"); [ -x "$d/hookrt-native" ] && exec "$d/hookrt-native" "$@"; exec node "$0" "$@"
// The `hookrt` command. Run as a program, the line above (shell and JavaScript at once) hands
// over to the native executable built beside this file, which starts in a millisecond instead
// of Node's ~50 ms; `node bin/hookrt.js` (and any host without the executable) runs the same
// Rust command through the addon. stdout belongs to the protocol and command output alone.
const native = require('../index.js')

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => native.stopCli())

native.runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`hookrt: ${err?.message ?? err}\n`)
    process.exit(1)
  },
)
