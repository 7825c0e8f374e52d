// npm install hook: build the native addon from source when no prebuilt binary is present
// (a fresh clone). Uses the non-LTO `ci` profile: a release LTO build is `npm run build`.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const binary = join(root, `hookrt.${process.platform}-${process.arch}-gnu.node`)
if (existsSync(binary) && !process.env.HOOKRT_FORCE_BUILD) process.exit(0)
const napi = join(root, 'node_modules', '.bin', 'napi')
if (!existsSync(napi)) {
  console.error('hookrt: no prebuilt binary for this platform and @napi-rs/cli is not installed; run `npm install` in a clone')
  process.exit(1)
}
const r = spawnSync(napi, ['build', '--platform', '--profile', 'ci'], { cwd: root, stdio: 'inherit' })
process.exit(r.status ?? 1)
