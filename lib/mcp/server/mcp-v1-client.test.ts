import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../../models'
import { decodeModelContext } from '../../tools/model-context'
import { pluginTools } from '@/plugins'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { freeSeat } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

// The v1 SDK (1.32) speaks the 2025 revisions only (its latest is 2025-11-25): it gets a session.
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
let client: Client

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: pluginTools, model: createOfflineModel(), stateSecret: 'v'.repeat(32) })
  served = await serveFetch((request) => endpoint.handle(request))
})
afterEach(async () => {
  await client?.close()
  await served.close()
  await endpoint.close()
})

async function connect({ sampling = false } = {}) {
  client = new Client({ name: 'v1-test', version: '1.0.0' }, { capabilities: { elicitation: {}, ...(sampling ? { sampling: {} } : {}) } })
  await client.connect(new StreamableHTTPClientTransport(served.url))
  return client
}

const BOOK = { name: 'book_flight', arguments: { from: 'SFO', destination: 'SEA' } }

describe('book_flight from the v1 SDK client (1.32, 2025-11-25)', () => {
  it('books: the context reaches it after the message boundary, with progress and logs', async () => {
    await connect()
    const asked: { source: string; context: Record<string, unknown> }[] = []
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { message: string; requestedSchema: Record<string, unknown> }
      const decoded = decodeModelContext({ message: params.message, schema: params.requestedSchema })
      asked.push(decoded)
      if ('flights' in decoded.context) return { action: 'accept', content: { flightId: (decoded.context.flights as { id: string }[])[2]!.id } }
      return { action: 'accept', content: freeSeat({ message: '', schema: {}, context: decoded.context }) }
    })
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data))
    await client.setLoggingLevel('info')
    const progress: (string | undefined)[] = []
    const result = await client.callTool(BOOK, undefined, { onprogress: (update) => void progress.push(update.message) })

    expect(asked).toHaveLength(2)
    // The v1 client drops the schema's unknown top-level `x-model-context`: the message boundary carried the context.
    expect(asked.map((question) => question.source)).toEqual(['message', 'message'])
    expect((asked[0]!.context.flights as unknown[]).length).toBe(3)
    expect(asked[1]!.context).toHaveProperty('seatMap')
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', flight: { id: (asked[0]!.context.flights as { id: string }[])[2]!.id } })
    expect(progress).toEqual(['Searching flights from SFO to SEA', 'Waiting for a flight choice', 'Waiting for a seat choice', 'Finding a travel tip', 'Booking confirmed'])
    await expect.poll(() => logs.length).toBeGreaterThanOrEqual(2)
    expect(logs[0]).toBe('Found 3 flights from SFO to SEA')
  })

  it('ends the booking with a result saying so when the user declines the seat', async () => {
    await connect()
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const { context } = decodeModelContext({ message: request.params.message, schema: (request.params as { requestedSchema?: Record<string, unknown> }).requestedSchema })
      return 'flights' in context ? { action: 'accept', content: { flightId: (context.flights as { id: string }[])[0]!.id } } : { action: 'decline' }
    })
    const result = await client.callTool(BOOK)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ status: 'cancelled', step: 'seat' })
  })

  it('asks its model for the tip when it declares sampling', async () => {
    await connect({ sampling: true })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const { context } = decodeModelContext({ message: request.params.message, schema: (request.params as { requestedSchema?: Record<string, unknown> }).requestedSchema })
      if ('flights' in context) return { action: 'accept', content: { flightId: (context.flights as { id: string }[])[0]!.id } }
      return { action: 'accept', content: freeSeat({ message: '', schema: {}, context }) }
    })
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', model: 'v1-model', content: { type: 'text', text: 'Ride the Link light rail.' } }))
    const result = await client.callTool(BOOK)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Ride the Link light rail.' })
  })
})
