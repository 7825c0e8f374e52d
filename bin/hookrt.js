#!/usr/bin/env node
'use strict'
// The `hookrt` command: all parsing and work happen in the native addon; stdout belongs to the
// protocol and command output alone, logs go to stderr.
const native = require('../index.js')

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => native.stopCli())

native.runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`hookrt: ${err?.message ?? err}\n`)
    process.exit(1)
  },
)
