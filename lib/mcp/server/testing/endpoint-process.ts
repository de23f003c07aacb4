// Run by lib/mcp/server/mcp-round-takeover.test.ts as a child process, then killed with SIGKILL in
// the middle of a round: an MCP endpoint on the Redis and prefix given (`<redis url> <prefix>
// <round lease ms> <state secret> <step|model>`), serving the fixture `reserve_table` whose step
// (`step`) or whose call to the app's model (`model`) never ends here. Prints `url <url>` once it
// listens, and `in step` or `in model` each time a round gets there.
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { suspend } from 'effection'
import { createOfflineModel } from '../../../models'
import { useRedisSessionStore } from '../../../sessions/stores/redis-store'
import { createMcpEndpoint } from '../mcp-endpoint'
import { createGatedTool } from './gated-tool'
import { serveFetch } from './serve-fetch'

const [url, prefix, leaseMs, secret, stuckIn] = process.argv.slice(2)
if (!url || !prefix || !leaseMs || !secret || (stuckIn !== 'step' && stuckIn !== 'model')) {
  throw new Error('usage: endpoint-process.ts <redis url> <prefix> <round lease ms> <state secret> <step|model>')
}

const tool = createGatedTool(function* () {
  if (stuckIn !== 'step') return
  process.stdout.write('in step\n')
  yield* suspend()
})
const offline = createOfflineModel()
/** The app's model, which never answers when the process is to be killed in it. */
const model: LanguageModelV3 =
  stuckIn === 'model'
    ? {
        ...offline,
        doGenerate() {
          process.stdout.write('in model\n')
          return new Promise<never>(() => {})
        },
      }
    : offline
const endpoint = await createMcpEndpoint({
  tools: [tool],
  model,
  stateSecret: secret,
  roundLeaseMs: Number(leaseMs),
  useStore: () => useRedisSessionStore({ url, prefix }),
})
const served = await serveFetch((request) => endpoint.handle(request))
process.stdout.write(`url ${served.url.href}\n`)
