// The harness pages' "As recorded" sections are what the recordings say (regenerate them with
// `node e2e/harnesses/tables.mjs` after `npm run record:harnesses`).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PAGES, updated } from '../e2e/harnesses/tables.mjs'

for (const kit of Object.keys(PAGES)) {
  test(`docs/harnesses/${PAGES[kit]}.md has the tables of e2e/recordings/${kit}`, () => {
    const { text, next } = updated(kit)
    assert.ok(text === next, `docs/harnesses/${PAGES[kit]}.md is out of date: run node e2e/harnesses/tables.mjs`)
  })
}
