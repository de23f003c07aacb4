import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AppProcess } from '../e2e/support/app-process'
import { report } from './support/measure'
import { processesPerTest } from './support/processes'

/**
 * Several production processes started at once on one `DATA_DIR` (issue 34): a process
 * manager's cluster mode, or a deploy that starts the new process before the old one has
 * stopped. Every process opens the same embedded databases at the same moment, each creating
 * them, switching them to the write-ahead log and preparing their schema. Contract: every one
 * starts and answers `/api/health`, on a fresh `DATA_DIR` and on one processes used before.
 *
 * `RELIABILITY_START_ROUNDS` (default 5) rounds of four on a fresh directory each; then three at
 * once on a directory three processes used and were stopped on, and three on one whose three
 * were killed (`kill -9`: their write-ahead logs left to recover).
 */
const ROUNDS = Number(process.env.RELIABILITY_START_ROUNDS ?? 5)
const TOGETHER = 4
const AGAIN = 3
/** Four servers starting on two shared cores take a while each: this is a bound, not a measure. */
const READY_TIMEOUT_MS = 120_000

const processes = processesPerTest()
const root = mkdtempSync(join(tmpdir(), 'start-together-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const freshDataDir = () => mkdtempSync(join(root, `data-${++directories}-`))

/**
 * `count` production servers started at the same moment on `dataDir`; every one that did not
 * start is named with its output. Each started one answered `/api/health` once ready
 * (`startApp`), and answers it again once all have started.
 */
async function startTogether(count: number, dataDir: string, what: string): Promise<AppProcess[]> {
  const started = performance.now()
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => processes.app({ dataDir, readyTimeoutMs: READY_TIMEOUT_MS })))
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []))
  expect(failures, `${failures.length} of ${count} servers did not start on ${dataDir}`).toEqual([])
  const apps = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<AppProcess>).value)
  const health = await Promise.all(apps.map(async (app) => (await fetch(`${app.url}/api/health`)).status))
  expect(health).toEqual(apps.map(() => 200))
  report(`start together: ${count} at once on ${what}`, { 'all answering /api/health after': `${((performance.now() - started) / 1000).toFixed(1)} s` })
  return apps
}

describe('several processes start at once on one DATA_DIR', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round} of ${ROUNDS}: ${TOGETHER} at once on a fresh DATA_DIR, every one answers /api/health`, async () => {
      for (const app of await startTogether(TOGETHER, freshDataDir(), `a fresh DATA_DIR (round ${round})`)) await app.stop()
    })
  }

  for (const [ended, end] of [
    ['stopped', (app: AppProcess) => app.stop()],
    ['killed (kill -9)', (app: AppProcess) => app.kill('SIGKILL')],
  ] as const) {
    it(`${AGAIN} at once on a DATA_DIR whose ${AGAIN} processes were ${ended}, every one answers /api/health`, async () => {
      const dataDir = freshDataDir()
      for (const app of await startTogether(AGAIN, dataDir, 'a fresh DATA_DIR')) await end(app)
      for (const app of await startTogether(AGAIN, dataDir, `the DATA_DIR of ${AGAIN} processes ${ended}`)) await app.stop()
    })
  }
})
