// `npm run harnesses:drift` against registries served on 127.0.0.1 by the test: the report names
// each kit's pin, what the registry offers, and which pins a newer release has passed.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { KITS, UNKITTED } from '../e2e/harnesses/kits.mjs'
import { compare } from '../e2e/harnesses/drift.mjs'

const run = promisify(execFile)

test('release numbers compare part by part, pre-releases below', () => {
  assert.equal(compare('0.21.3', '0.9.10'), 1)
  assert.equal(compare('v2.1.332', '2.1.332'), 0)
  assert.equal(compare('1.0.102', '1.0.99'), 1)
  assert.equal(compare('0.20.0-rc1', '0.20.0'), -1)
})

test('the drift report reads each registry and marks the pins a newer release has passed', async t => {
  const served = []
  const server = createServer((req, res) => {
    served.push(req.url)
    const npm = req.url.match(/^\/npm\/-\/package\/(.+)\/dist-tags$/)
    const pypi = req.url.match(/^\/pypi\/pypi\/(.+)\/json$/)
    let body
    if (npm) {
      const name = decodeURIComponent(npm[1])
      if (name === '@openai/codex') body = { latest: '0.172.0' }
      else if (name === 'cline') body = null
      else body = { latest: [...Object.values(KITS), ...Object.values(UNKITTED)].find(k => k.registry.npm === name)?.version }
    } else if (pypi?.[1] === 'hermes-agent') {
      body = { info: { version: '0.21.0' } }
    }
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}))
  })
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  t.after(() => server.close())
  const base = `http://127.0.0.1:${server.address().port}`
  const { stdout } = await run(process.execPath, ['e2e/harnesses/drift.mjs', '--npm-registry', `${base}/npm`, '--pypi', `${base}/pypi`, '--no-source', '--json'])
  const rows = Object.fromEntries(JSON.parse(stdout).map(r => [r.name, r]))
  assert.deepEqual(Object.keys(rows).sort(), [...Object.keys(KITS), ...Object.keys(UNKITTED)].sort())
  assert.deepEqual([rows.codex.pinned, rows.codex.published, rows.codex.state], [KITS.codex.version, '0.172.0', 'newer release published'])
  assert.deepEqual([rows.hermes.package, rows.hermes.published, rows.hermes.state], ['PyPI hermes-agent', '0.21.0', 'newer release published'])
  assert.equal(rows['claude-code'].state, "pin is the registry's newest")
  assert.match(rows.cline.published, /^unknown \(.*HTTP 404\)$/)
  assert.equal(rows.kimi.kit, true)
  assert.equal(rows.auggie.kit, false)
  assert.equal(rows['copilot-cli'].source, 'closed source')
  assert.ok(served.includes('/npm/-/package/@openai%2fcodex/dist-tags'), served.join(' '))

  // the table form names the same
  const table = (await run(process.execPath, ['e2e/harnesses/drift.mjs', '--npm-registry', `${base}/npm`, '--pypi', `${base}/pypi`, '--no-source'])).stdout
  assert.match(table, /\| codex +\| yes +\| npm @openai\/codex +\| 0\.171\.0 +\| 0\.172\.0 +\| not asked +\| newer release published +\|/)
})
