// .ci/run's closing lines: the name of each test that failed and each failure outside a test (a
// runner that exited non-zero with nothing failed in its report: scripts/test-counts.mjs), then
// `npm test`'s counts and the MCP conformance suite's, added up. A part that wrote no counts did
// not finish, and counts as a failure.
// The names come last because a CI log is often read from its tail.
import { existsSync, readFileSync } from 'node:fs'

const out = '.test-output'

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined
}

// vitest's JSON reporter: files, each with assertion results.
function vitestFailures(report) {
  return (report?.testResults ?? []).flatMap((file) => {
    const failed = file.assertionResults.filter((test) => test.status === 'failed')
    const name = file.name.replace(`${process.cwd()}/`, '')
    if (failed.length === 0 && file.status === 'failed') return [`${name}: ${firstLine(file.message)}`]
    return failed.map((test) => `${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
  })
}

// Playwright's JSON reporter: nested suites of specs, each with its tests' results.
function playwrightFailures(report) {
  const names = []
  const visit = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results.find((result) => result.error)?.error?.message
          names.push(`${spec.file} › ${[...path, spec.title].join(' › ')}: ${firstLine(error)}`)
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...path, child.title])
  }
  for (const suite of report?.suites ?? []) visit(suite, [])
  return names
}

function firstLine(text) {
  // Strip terminal colours; one line is enough to find the test again.
  return (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim()) ?? ''
}

const failures = [
  ...vitestFailures(readJson(`${out}/vitest.json`)),
  ...playwrightFailures(readJson(`${out}/playwright.json`)),
  ...vitestFailures(readJson(`${out}/reliability.json`)),
]

let passed = 0
let failed = 0
for (const file of [`${out}/summary.json`, `${out}/conformance.json`]) {
  const counts = readJson(file)
  if (!counts) {
    failures.push(`${file} is missing: that part of the run did not finish.`)
    failed += 1
    continue
  }
  passed += counts.passed
  failed += counts.failed
  // Failures outside any named test: a runner that exited non-zero with nothing failed in its report, a build that failed.
  failures.push(...(counts.problems ?? []))
}
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  ✘ ${name.slice(0, 300)}`).join('\n')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
