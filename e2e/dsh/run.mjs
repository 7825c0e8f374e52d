// `npm run test:e2e`: installs the real dsh (once, into a cache folder) and runs the hookrt/dsh
// plugin inside it against a scripted local model. Where the machine allows it (root with
// `unshare` and `ip`), the tests run in a fresh network namespace that has only loopback, which
// proves that nothing leaves 127.0.0.1.
import { spawnSync } from 'node:child_process'
import { homedir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const dir = process.env.DSH_E2E_DIR || join(homedir(), '.cache', 'hookrt-dsh-e2e')
const setup = spawnSync('bash', [join(here, 'setup.sh'), dir], { stdio: 'inherit' })
if (setup.status !== 0) process.exit(setup.status ?? 1)

const testArgs = ['--test', '--test-concurrency=1', join(here, 'dsh.test.mjs')]
const env = { ...process.env, DSH_E2E_DIR: dir }
const isolated = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0
let r
if (isolated && !process.env.HOOKRT_E2E_NO_NETNS) {
  console.log('dsh e2e: running in a network namespace with loopback only')
  const quoted = [process.execPath, ...testArgs].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  r = spawnSync('unshare', ['-n', 'sh', '-c', `ip link set lo up && exec ${quoted}`], { stdio: 'inherit', env })
} else {
  console.log('dsh e2e: no network namespace available; running in the host network')
  r = spawnSync(process.execPath, testArgs, { stdio: 'inherit', env })
}
process.exit(r.status ?? 1)
