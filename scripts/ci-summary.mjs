// .ci/run's closing line: `npm test`'s counts and the MCP conformance suite's, added up.
// A part that wrote no counts did not finish, and counts as a failure.
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
for (const file of ['.test-output/summary.json', '.test-output/conformance.json']) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: that part of the run did not finish.`)
    failed += 1
    continue
  }
  const counts = JSON.parse(readFileSync(file, 'utf8'))
  passed += counts.passed
  failed += counts.failed
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
