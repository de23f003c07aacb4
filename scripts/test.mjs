// `npm test`: unit and type tests (vitest), then a production build, the browser tests
// (Playwright) and the reliability suite against that build (vitest.reliability.config.ts),
// then one closing line that counts all three: "N passed, N failed".
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

const out = '.test-output'
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status === 0
}

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined
}

let passed = 0
let failed = 0
let broken = false

if (!run('bash', ['scripts/ensure-chromium.sh'])) process.exit(1)
if (!run('bash', ['scripts/ensure-redis.sh'])) process.exit(1)
if (!run('bash', ['scripts/ensure-nginx.sh'])) process.exit(1)
if (!run('bash', ['scripts/ensure-prometheus.sh'])) process.exit(1)

run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest.json`])
const unit = readJson(`${out}/vitest.json`)
if (unit) {
  passed += unit.numPassedTests
  failed += unit.numFailedTests
  if (unit.numFailedTestSuites > 0 && unit.numFailedTests === 0) broken = true
} else broken = true

if (run('npm', ['run', 'build'])) {
  run('npx', ['playwright', 'test'])
  const e2e = readJson(`${out}/playwright.json`)
  if (e2e) {
    passed += e2e.stats.expected
    failed += e2e.stats.unexpected + e2e.stats.flaky
    if (e2e.errors?.length) broken = true
  } else broken = true
  run('npx', ['vitest', 'run', '--config', 'vitest.reliability.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/reliability.json`])
  const reliability = readJson(`${out}/reliability.json`)
  if (reliability) {
    passed += reliability.numPassedTests
    failed += reliability.numFailedTests
    if (reliability.numFailedTestSuites > 0 && reliability.numFailedTests === 0) broken = true
  } else broken = true
} else {
  console.error('The production build failed, so the browser tests and the reliability suite did not run.')
  broken = true
}

if (broken) failed = Math.max(failed, 1)
// For .ci/run, which adds the conformance suite's counts to these in its closing line.
writeFileSync(`${out}/summary.json`, JSON.stringify({ passed, failed }))
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
