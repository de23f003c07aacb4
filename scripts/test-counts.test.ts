import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { addCounts, countPlaywrightRun, countVitestRun, type Exit } from './test-counts.mjs'

// What `npm test` counts (scripts/test.mjs), from real vitest runs of the files in
// scripts/fixtures/vitest-runs (left out of the main run: they fail on purpose), each run alone
// with the project's vitest settings and without CI in its environment.
const FIXTURES = 'scripts/fixtures/vitest-runs'
// A safety net for a run that hangs, not a bound on speed: a vitest start on a loaded 2-core machine takes a minute.
const RUN_TIMEOUT_MS = 300_000
const reports = mkdtempSync(path.join(tmpdir(), 'test-counts-'))
afterAll(() => rmSync(reports, { recursive: true, force: true }))

async function runVitest(file: string): Promise<{ exit: Exit; report: unknown }> {
  const output = path.join(reports, `${file}.json`)
  // The child is a vitest of its own, not a worker of this one, and does not learn of CI from us.
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'CI') delete env[key]
  const child = spawn('npx', ['vitest', 'run', '--config', `${FIXTURES}/vitest.config.ts`, `${FIXTURES}/${file}`, '--reporter=json', `--outputFile.json=${output}`], { env, stdio: 'ignore' })
  const exit = await new Promise<Exit>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (status, signal) => resolve({ status, signal }))
  })
  return { exit, report: existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : undefined }
}

describe('scripts/test-counts.mjs on real vitest runs', () => {
  it('counts a clean run as its report does', async () => {
    const { exit, report } = await runVitest('passes.test.ts')
    expect(exit.status).toBe(0)
    expect(countVitestRun('vitest', exit, report)).toEqual({ passed: 1, failed: 0, problems: [] })
  }, RUN_TIMEOUT_MS)

  it('counts a run whose tests pass but which leaves an unhandled rejection as a failure, and says why', async () => {
    const { exit, report } = await runVitest('passes-leaving-an-unhandled-rejection.test.ts')
    // The gap: vitest exits 1, its report counts the test passed and nothing failed.
    expect(exit.status).toBe(1)
    expect(report).toMatchObject({ numPassedTests: 1, numFailedTests: 0, numFailedTestSuites: 0 })
    expect(countVitestRun('vitest', exit, report)).toEqual({
      passed: 1,
      failed: 1,
      problems: [expect.stringMatching(/^vitest exited 1 although its report counts no failed test: an unhandled error or rejection/)],
    })
  }, RUN_TIMEOUT_MS)

  it('counts a file that fails while it loads as a failure, naming it', async () => {
    const { exit, report } = await runVitest('fails-while-loading.test.ts')
    expect(report).toMatchObject({ numFailedTests: 0, numFailedTestSuites: 1 })
    expect(countVitestRun('vitest', exit, report)).toEqual({
      passed: 0,
      failed: 1,
      problems: [expect.stringMatching(/^vitest: .*fails-while-loading\.test\.ts failed outside its tests: this file fails while it loads$/)],
    })
  }, RUN_TIMEOUT_MS)

  it('fails a `.only` left in a file instead of running that test alone', async () => {
    const { exit, report } = await runVitest('narrowed-by-only.test.ts')
    expect(exit.status).toBe(1)
    expect(countVitestRun('vitest', exit, report)).toMatchObject({ passed: 0, failed: 1 })
  }, RUN_TIMEOUT_MS)
})

describe('scripts/test-counts.mjs', () => {
  it('counts a runner that wrote no report as a failure, saying how it ended', () => {
    expect(countVitestRun('vitest (reliability)', { status: null, signal: 'SIGKILL' }, undefined)).toEqual({
      passed: 0,
      failed: 1,
      problems: ['vitest (reliability) was ended by SIGKILL and wrote no report: it did not finish.'],
    })
    expect(countVitestRun('vitest', { status: null, error: new Error('spawn npx ENOENT') }, undefined).problems).toEqual([
      'vitest could not start (spawn npx ENOENT) and wrote no report: it did not finish.',
    ])
  })

  it('counts a Playwright run that exited 1 with nothing failed in its report as a failure, and adds the runs up', () => {
    const playwright = countPlaywrightRun('playwright', { status: 1 }, { stats: { expected: 3, unexpected: 0, flaky: 0 }, errors: [] })
    expect(playwright).toEqual({ passed: 3, failed: 1, problems: [expect.stringMatching(/^playwright exited 1 although its report counts no failed test/)] })
    expect(addCounts(playwright, { passed: 2, failed: 0, problems: [] })).toEqual({ passed: 5, failed: 1, problems: playwright.problems })
  })
})
