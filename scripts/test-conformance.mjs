// `npm run test:conformance`: the official MCP conformance suite against the production build.
// Starts the server on a free port of 127.0.0.1 with MCP_CONFORMANCE=1 (its fixtures), runs the
// default server scenarios and the ones the default run leaves out, prints "N passed, N failed"
// and writes the counts to .test-output/conformance.json for .ci/run's closing line.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

const SUITE = '@modelcontextprotocol/conformance@0.1.16'
const EXTRA_SCENARIOS = ['json-schema-2020-12', 'server-sse-polling']

if (!existsSync('.next/standalone/server.js') && spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) {
  console.error('The production build failed; the conformance suite did not run.')
  process.exit(1)
}

const port = await new Promise((resolve, reject) => {
  const probe = createServer()
  probe.once('error', reject)
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address()
    probe.close(() => resolve(port))
  })
})
const dataDir = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'))
const server = spawn(process.execPath, ['scripts/start.mjs'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    DATA_DIR: dataDir,
    MCP_CONFORMANCE: '1',
    OPENAI_API_KEY: '',
    MCP_AUTH_TOKEN: '',
    REDIS_URL: '',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
})
let serverOutput = ''
server.stdout.on('data', (chunk) => (serverOutput += chunk))
server.stderr.on('data', (chunk) => (serverOutput += chunk))
const exited = new Promise((resolve) => server.once('exit', resolve))

let passed = 0
let failed = 0
// Each failure no failed check names, one line each, for .ci/run's closing lines.
const problems = []
try {
  await waitForHealth(`http://127.0.0.1:${port}/api/health`)
  const url = `http://127.0.0.1:${port}/api/mcp`
  for (const scenario of [undefined, ...EXTRA_SCENARIOS]) {
    const results = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-results-'))
    const args = ['-y', '-p', 'node@22', '-p', SUITE, '--', 'conformance', 'server', '--url', url, '-o', results, ...(scenario ? ['--scenario', scenario] : [])]
    console.log(`\n$ npx ${args.join(' ')}`)
    const run = spawnSync('npx', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    const output = `${run.stdout}${run.stderr}`
    process.stdout.write(output)
    // The default run prints only a summary line per scenario: say why each failed check failed.
    for (const failure of failedChecks(results)) console.log(`FAILED ${failure}`)
    rmSync(results, { recursive: true, force: true })
    const counts = countChecks(output)
    const name = `The conformance run${scenario ? ` of ${scenario}` : ''}`
    if (!counts) {
      problems.push(`${name} printed no totals (exit ${run.status}).`)
      failed += 1
      continue
    }
    passed += counts.passed
    failed += counts.failed
    // Its exit status counts too: a run that failed with no failed check in its totals is a failure.
    if (run.status !== 0 && counts.failed === 0) {
      problems.push(`${name} exited ${run.status ?? run.signal} although its totals count no failed check (its output above says why).`)
      failed += 1
    }
  }
} catch (error) {
  console.error(serverOutput.slice(-4000))
  problems.push(String(error))
  failed += 1
} finally {
  server.kill('SIGTERM')
  await exited
  rmSync(dataDir, { recursive: true, force: true })
}

mkdirSync('.test-output', { recursive: true })
writeFileSync('.test-output/conformance.json', JSON.stringify({ passed, failed, problems }))
for (const problem of problems) console.error(`✘ ${problem}`)
console.log(`\nconformance: ${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)

/**
 * The suite's totals: "Total: N passed, M failed" after the default run (one count per
 * scenario check), "Passed: N/T, M failed, W warnings" after a single scenario. Warnings are
 * SHOULDs the suite reports without failing them; they are printed above.
 */
function countChecks(output) {
  const total = /Total:\s*(\d+)\s*passed,\s*(\d+)\s*failed/i.exec(output)
  if (total) return { passed: Number(total[1]), failed: Number(total[2]) }
  const single = /Passed:\s*(\d+)\/\d+,\s*(\d+)\s*failed/i.exec(output)
  return single ? { passed: Number(single[1]), failed: Number(single[2]) } : undefined
}

/** Each failed check the suite saved under `directory` (one `checks.json` per scenario), with its message and details. */
function failedChecks(directory) {
  const failures = []
  for (const scenario of readdirSync(directory).sort()) {
    const file = path.join(directory, scenario, 'checks.json')
    if (!existsSync(file)) continue
    for (const check of JSON.parse(readFileSync(file, 'utf8'))) {
      if (check.status !== 'FAILURE') continue
      failures.push(`${scenario} ${check.id}: ${check.errorMessage ?? '(no message)'}${check.details ? ` ${JSON.stringify(check.details)}` : ''}`)
    }
  }
  return failures
}

async function waitForHealth(url) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}) before it was ready.`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('The server did not answer /api/health within 60 s.')
}
