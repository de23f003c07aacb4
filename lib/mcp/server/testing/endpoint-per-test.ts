import type { Client } from '@modelcontextprotocol/client'
import { afterEach, beforeEach } from 'vitest'
import { createOfflineModel } from '../../../models'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from '../mcp-endpoint'
import { connectBookingClient, type Answer, type Asked, type Era } from './booking-client'
import { callWithProgress } from './progress-of-call'
import { serveFetch } from './serve-fetch'

/**
 * A test file's MCP endpoint for `tools`, served on a port of its own for each test (the
 * offline model unless `options` say otherwise), with the official v2 clients the tests connect
 * through it. It registers its own `beforeEach` and `afterEach`: every client a test made is
 * closed, then the port, then the endpoint, so no test sees another's sessions.
 */
export function endpointPerTest(options: Pick<McpEndpointOptions, 'tools' | 'stateSecret'> & Partial<McpEndpointOptions>) {
  let endpoint: McpEndpoint | undefined
  let served: { url: URL; close(): Promise<void> } | undefined
  const clients: Client[] = []

  beforeEach(async () => {
    endpoint = await createMcpEndpoint({ model: createOfflineModel(), ...options })
    served = await serveFetch((request) => endpoint!.handle(request))
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
    await served?.close()
    await endpoint?.close()
  })

  const url = () => {
    if (!served) throw new Error('endpointPerTest: the endpoint is served inside a test only')
    return served.url
  }
  return {
    url,
    /** An official v2 client of `era` that answers each question with `answer` (closed after the test). */
    async connect(connectOptions: Omit<Parameters<typeof connectBookingClient>[0], 'url'>) {
      const connected = await connectBookingClient({ url: url(), ...connectOptions })
      clients.push(connected.client)
      return connected
    },
    /** Call `name` with a client of `era` that answers with `answers` in turn; the result, and the progress it reported in order. */
    async callWithProgress(era: Era, name: string, args: Record<string, unknown>, answers: ((asked: Asked) => Answer)[]) {
      const call = await callWithProgress({ url: url(), era, name, args, answers })
      clients.push(call.client)
      return call
    },
    /** Closed with the others after the test. */
    track(client: Client) {
      clients.push(client)
    },
  }
}
