// `npm test`: unit and type tests (vitest), then a production build, the browser tests
// (Playwright) and the reliability suite against that build (vitest.reliability.config.ts),
// then one closing line that counts all three: "N passed, N failed". A runner that exits
// non-zero while its report counts no failed test counts as a failure, with a line saying why
// (scripts/test-counts.mjs).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { addCounts, countPlaywrightRun, countVitestRun } from './test-counts.mjs'

const out = '.test-output'
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

function run(command, args) {
  const { status, signal, error } = spawnSync(command, args, { stdio: 'inherit' })
  return { status, signal, error }
}

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined
}

for (const script of ['ensure-chromium.sh', 'ensure-redis.sh', 'ensure-nginx.sh', 'ensure-prometheus.sh']) {
  if (run('bash', [`scripts/${script}`]).status !== 0) process.exit(1)
}

const vitest = (config, report) => ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}/${report}`]
const runs = [countVitestRun('vitest', run('npx', vitest('vitest.config.ts', 'vitest.json')), readJson(`${out}/vitest.json`))]

if (run('npm', ['run', 'build']).status === 0) {
  runs.push(countPlaywrightRun('playwright', run('npx', ['playwright', 'test']), readJson(`${out}/playwright.json`)))
  runs.push(countVitestRun('vitest (reliability)', run('npx', vitest('vitest.reliability.config.ts', 'reliability.json')), readJson(`${out}/reliability.json`)))
} else {
  runs.push({ passed: 0, failed: 1, problems: ['The production build failed, so the browser tests and the reliability suite did not run.'] })
}

const { passed, failed, problems } = addCounts(...runs)
// For .ci/run, which adds the conformance suite's counts to these in its closing line.
writeFileSync(`${out}/summary.json`, JSON.stringify({ passed, failed, problems }))
if (problems.length > 0) console.error(`\n${problems.map((problem) => `✘ ${problem}`).join('\n')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
