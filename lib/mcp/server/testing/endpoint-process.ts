// Run by lib/mcp/server/mcp-round-takeover.test.ts as a child process, then killed with SIGKILL in
// the middle of a round: an MCP endpoint on the Redis and prefix given (`<redis url> <prefix>
// <round lease ms> <state secret>`), serving the fixture `reserve_table` whose step never ends
// here. Prints `url <url>` once it listens, and `in step` each time a round enters the step.
import { suspend } from 'effection'
import { createOfflineModel } from '../../../models'
import { useRedisSessionStore } from '../../../sessions/stores/redis-store'
import { createMcpEndpoint } from '../mcp-endpoint'
import { createGatedTool } from './gated-tool'
import { serveFetch } from './serve-fetch'

const [url, prefix, leaseMs, secret] = process.argv.slice(2)
if (!url || !prefix || !leaseMs || !secret) throw new Error('usage: endpoint-process.ts <redis url> <prefix> <round lease ms> <state secret>')

const stuck = createGatedTool(function* () {
  process.stdout.write('in step\n')
  yield* suspend()
})
const endpoint = await createMcpEndpoint({
  tools: [stuck],
  model: createOfflineModel(),
  stateSecret: secret,
  roundLeaseMs: Number(leaseMs),
  useStore: () => useRedisSessionStore({ url, prefix }),
})
const served = await serveFetch((request) => endpoint.handle(request))
process.stdout.write(`url ${served.url.href}\n`)
