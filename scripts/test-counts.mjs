// What one test runner's run adds to `npm test`'s closing line: the tests its JSON report counts,
// plus one failure for each thing that failed outside any test, and one if the runner's exit says
// it failed while its report counts nothing failed. Vitest, for one, exits 1 after a run whose
// tests all passed but which left an unhandled error or rejection, and its report says 0 failed.

/**
 * @typedef {{ status: number | null, signal?: string | null, error?: Error }} Exit what `spawnSync` returned
 * @typedef {{ passed: number, failed: number, problems: string[] }} Counts `problems`: one line for
 *   each failure the report does not name as a failed test
 */

/** A vitest run (`--reporter=json`): `report` is its JSON report, undefined when none was written. */
export function countVitestRun(name, exit, report) {
  if (!report) return noReport(name, exit)
  const problems = []
  for (const file of report.testResults ?? []) {
    const testFailed = file.assertionResults.some((test) => test.status === 'failed')
    if (file.status === 'failed' && !testFailed) problems.push(`${name}: ${file.name} failed outside its tests: ${firstLine(file.message) || 'see the output above'}`)
  }
  return withExit(name, exit, { passed: report.numPassedTests, failed: report.numFailedTests + problems.length, problems }, 'an unhandled error or rejection during the run, or an error outside any test (its output above says which)')
}

/** A Playwright run (`json` reporter): `report` is its JSON report, undefined when none was written. */
export function countPlaywrightRun(name, exit, report) {
  if (!report) return noReport(name, exit)
  const problems = (report.errors ?? []).map((error) => `${name}: ${firstLine(error.message) || 'an error outside any test'}`)
  const { expected, unexpected, flaky } = report.stats
  return withExit(name, exit, { passed: expected, failed: unexpected + flaky + problems.length, problems }, 'an error outside any test (its output above says which)')
}

/** Several runs' counts, added up. */
export function addCounts(...runs) {
  return {
    passed: runs.reduce((sum, run) => sum + run.passed, 0),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
    problems: runs.flatMap((run) => run.problems),
  }
}

function withExit(name, exit, counts, likelyCause) {
  if (exit.status === 0 || counts.failed > 0) return counts
  return { ...counts, failed: 1, problems: [...counts.problems, `${name} ${exited(exit)} although its report counts no failed test: ${likelyCause}.`] }
}

function noReport(name, exit) {
  return { passed: 0, failed: 1, problems: [`${name} ${exited(exit)} and wrote no report: it did not finish.`] }
}

function exited(exit) {
  if (exit.error) return `could not start (${exit.error.message})`
  return exit.status === null ? `was ended by ${exit.signal}` : `exited ${exit.status}`
}

function firstLine(text) {
  // Without terminal colours; one line is enough to find the failure again.
  return (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim())?.trim() ?? ''
}
