import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { test as base, expect } from '@playwright/test'
import { askedOf, connectBookingClient, firstChoices } from '../lib/mcp/server/testing/booking-client'
import type { AppProcess } from './support/app-process'
import { appsFixture, type Apps } from './support/apps-fixture'

// /api/mcp on the production server: the official v2 client in both eras, and 2026-07-28 rounds
// taken in turn by two server processes that share MCP_STATE_SECRET.

const test = base.extend<{ apps: Apps }>({ apps: appsFixture })

const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

for (const era of ['2025', '2026'] as const) {
  test(`an MCP client (${era}) books a flight through /api/mcp`, async ({ baseURL }) => {
    const { client, asked } = await connectBookingClient({ url: new URL('/api/mcp', baseURL), era, answer: firstChoices })
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toContain('book_flight')
      expect(tools.map((tool) => tool.name).filter((name) => name.startsWith('test_'))).toEqual([])
      const result = await client.callTool(BOOK)
      expect(asked).toHaveLength(2)
      // Picked from the seat question's pick list ("10A"), booked as that seat.
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
    } finally {
      await client.close()
    }
  })
}

test('two server processes sharing MCP_STATE_SECRET take a booking’s 2026 rounds in turn; a bearer token is required when set', async ({ apps }) => {
  const env = { MCP_STATE_SECRET: 'e2e-state-secret-shared-by-both-instances', MCP_AUTH_TOKEN: 'e2e-token' }
  const [a, b] = await Promise.all([apps.start({ env }), apps.start({ env })])
  const unauthorized = await fetch(`${a.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  expect(unauthorized.status).toBe(401)

  const connect = async (app: AppProcess) => {
    const client = new Client({ name: 'e2e-rounds', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: { authorization: 'Bearer e2e-token' } } }))
    return client
  }
  const [onA, onB] = await Promise.all([connect(a), connect(b)])
  type Round = { resultType?: string; inputRequests?: Record<string, { params: Parameters<typeof askedOf>[0] }>; requestState?: string; structuredContent?: Record<string, unknown> }
  const round = (client: Client, params: Record<string, unknown> = {}) =>
    client.request({ method: 'tools/call', params: { ...BOOK, ...params } } as never, { allowInputRequired: true } as never) as Promise<Round>
  const question = (result: Round) => {
    expect(result.resultType).toBe('input_required')
    const [[key, request]] = Object.entries(result.inputRequests!)
    return { key: key!, asked: askedOf(request!.params), requestState: result.requestState! }
  }
  try {
    const flight = question(await round(onA))
    const flightId = (flight.asked.context.flights as { id: string }[])[0]!.id
    const seat = question(await round(onB, { requestState: flight.requestState, inputResponses: { [flight.key]: { action: 'accept', content: { flightId } } } }))
    const done = await round(onA, { requestState: seat.requestState, inputResponses: { [seat.key]: firstChoices(seat.asked) } })
    expect(done.structuredContent).toMatchObject({ status: 'confirmed', flight: { id: flightId } })
  } finally {
    await Promise.all([onA.close(), onB.close()])
  }
})

test('MCP answers are sent as they are, not gzipped: a sealed requestState does not compress, and a stream must not wait in a compressor', async ({ baseURL }) => {
  const response = await fetch(new URL('/api/mcp', baseURL), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'accept-encoding': 'gzip, deflate, br',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'book_flight',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...BOOK,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-encoding')).toBeNull()
  expect(response.headers.get('cache-control')).toContain('no-transform')
  const body = (await response.json()) as { result: { resultType: string; requestState: string } }
  expect(body.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) })
  // The trivial route beside it is still compressed as Next does it: only MCP answers opt out.
  const health = await fetch(new URL('/api/health', baseURL), { headers: { 'accept-encoding': 'gzip' } })
  expect(health.headers.get('content-encoding')).toBe('gzip')
})
