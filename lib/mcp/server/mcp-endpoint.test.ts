import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../../models'
import { decodeModelContext } from '../../tools/model-context'
import { pluginTools } from '@/plugins'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { serveFetch } from './testing/serve-fetch'

const SECRET = 's'.repeat(40)

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: pluginTools, model: createOfflineModel(), stateSecret: SECRET })
  served = await serveFetch((request) => endpoint.handle(request))
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await served.close()
  await endpoint.close()
})

type Era = '2025' | '2026'

async function connect(era: Era, { sampling = false } = {}) {
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, ...(sampling ? { sampling: {} } : {}) },
      ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  )
  await client.connect(new StreamableHTTPClientTransport(served.url))
  clients.push(client)
  return client
}

describe.each(['2025', '2026'] as const)('book_flight over MCP (%s)', (era) => {
  it('lists the tools, asks for a flight and a seat in forms with x-model-context, and books', async () => {
    const client = await connect(era)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['book_flight', 'pick_card', 'tictactoe'])
    const asked: { message: string; schema: Record<string, unknown> }[] = []
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema: Record<string, unknown> }
      asked.push({ message: params.message, schema: params.requestedSchema })
      const { context } = decodeModelContext({ message: params.message, schema: params.requestedSchema })
      if ('flights' in context) return { action: 'accept', content: { flightId: (context.flights as { id: string }[])[0]!.id } }
      return { action: 'accept', content: { row: 21, seat: 'F' } }
    })
    const result = await client.callTool({ name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } })
    console.log(JSON.stringify(asked, null, 1).slice(0, 3000), JSON.stringify(result))
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
  })
})
