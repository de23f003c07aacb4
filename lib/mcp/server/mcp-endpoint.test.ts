import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel } from '../../models'
import { createMcpTool } from '../../tools'
import { MODEL_CONTEXT_BOUNDARY } from '../../tools/model-context'
import { pluginTools } from '@/plugins'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from './mcp-endpoint'
import { CANNOT_ASK } from './register-plugin-tool'
import { connectBookingClient, firstFlightAndSeat, freeSeat, type Answer, type Asked } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

const SECRET = 's'.repeat(40)

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

async function start(options: Partial<McpEndpointOptions> = {}) {
  endpoint = await createMcpEndpoint({ tools: pluginTools, model: createOfflineModel(), stateSecret: SECRET, ...options })
  served = await serveFetch((request) => endpoint.handle(request))
}

beforeEach(() => start())
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await served.close()
  await endpoint.close()
})

async function connect(options: Omit<Parameters<typeof connectBookingClient>[0], 'url'>) {
  const connected = await connectBookingClient({ url: served.url, ...options })
  clients.push(connected.client)
  return connected
}

const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

describe.each(['2025', '2026'] as const)('book_flight from an official v2 client (%s)', (era) => {
  it('lists the tools with their descriptions and object input schemas', async () => {
    const { client } = await connect({ era, answer: firstFlightAndSeat })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['book_flight', 'pick_card', 'tictactoe'])
    for (const tool of tools) {
      expect(tool.description).toBeTruthy()
      expect(tool.inputSchema.type).toBe('object')
    }
    expect(tools.find((tool) => tool.name === 'book_flight')!.inputSchema.required).toEqual(['from', 'destination'])
  })

  it('asks for a flight and a seat in forms that carry the context twice, then books, with progress and logs', async () => {
    const { client, asked } = await connect({ era, answer: firstFlightAndSeat })
    const progress: { progress: number; message?: string }[] = []
    const logs: unknown[] = []
    client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data))
    if (era === '2025') await client.setLoggingLevel('info')
    // 2025: the session's level; 2026: the level each request names in its _meta.
    const result = await client.callTool(era === '2026' ? { ...BOOK, _meta: { [LOG_LEVEL_META_KEY]: 'info' } } : BOOK, {
      // The 2026 client's driver reports its own rounds on the same callback ("Fulfilling input required ...").
      onprogress: (update) => void (update.message?.startsWith('Fulfilling') || progress.push({ progress: update.progress, message: update.message })),
    })

    expect(asked.map((question) => Object.keys(question.schema.properties as object))).toEqual([['flightId'], ['row', 'seat']])
    const [flightQuestion, seatQuestion] = asked
    expect(flightQuestion!.message).toMatch(/^Select your flight from NYC to LAX:/)
    expect(flightQuestion!.message).toContain(`\n\n${MODEL_CONTEXT_BOUNDARY}\n`)
    expect(flightQuestion!.schema['x-model-context']).toEqual(flightQuestion!.context)
    expect((flightQuestion!.context.flights as unknown[]).length).toBe(3)
    expect(seatQuestion!.schema.properties).toMatchObject({ row: { type: 'integer' }, seat: { type: 'string' } })
    expect(seatQuestion!.context).toHaveProperty('seatMap')

    const booking = result.structuredContent as { status: string; ticketNumber: string; seat: string; tip: string }
    expect(result.isError).toBeFalsy()
    expect(booking).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(booking)
    const seat = freeSeat(seatQuestion!)
    expect(booking.seat).toBe(`${seat.row}${seat.seat}`)
    // No sampling declared: the app's own (offline) model wrote the tip, naming the destination.
    expect(booking.tip).toMatch(/LAX/)

    expect(progress.map((update) => update.message)).toEqual([
      'Searching flights from NYC to LAX',
      'Waiting for a flight choice',
      'Waiting for a seat choice',
      'Finding a travel tip',
      'Booking confirmed',
    ])
    expect(progress.at(-1)).toMatchObject({ progress: 100, message: 'Booking confirmed' })
    for (let index = 1; index < progress.length; index++) expect(progress[index]!.progress).toBeGreaterThan(progress[index - 1]!.progress)
    await expect.poll(() => logs).toContain(`Issued ticket ${booking.ticketNumber} for ${(booking as unknown as { flight: { flightNumber: string } }).flight.flightNumber}, seat ${booking.seat}`)
  })

  it('asks again, saying why, after a flight that was not offered and after an answer that is not valid', async () => {
    const answers: ((asked: Asked) => Answer)[] = [
      () => ({ action: 'accept', content: { flightId: 'XX-000' } }),
      firstFlightAndSeat,
      () => ({ action: 'accept', content: { row: 12, seat: 'middle' } }),
      firstFlightAndSeat,
    ]
    const { client, asked } = await connect({ era, answer: (question, index) => answers[index]!(question) })
    const result = await client.callTool(BOOK)
    expect(asked).toHaveLength(4)
    expect(asked[1]!.message).toMatch(/^Flight XX-000 is not one of the offered flights/)
    expect(asked[3]!.message).toMatch(/^That answer was not accepted: answer to 'pickSeat' is not valid: seat:/)
    expect(asked[3]!.schema['x-model-context']).toEqual(asked[2]!.schema['x-model-context'])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
  })

  it.each(['decline', 'cancel'] as const)('ends with a result saying so when the user answers %s (not an error)', async (action) => {
    const { client } = await connect({ era, answer: () => ({ action }) })
    const result = await client.callTool(BOOK)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ status: 'cancelled', step: 'flight', message: 'The user declined to choose a flight; nothing was booked.' })
  })

  it('asks the client’s model for the travel tip when the client samples', async () => {
    const { client, sampled } = await connect({ era, answer: firstFlightAndSeat, sample: () => 'Take the FlyAway bus from the client model.' })
    const result = await client.callTool(BOOK)
    expect(sampled).toEqual(['Give one short, practical travel tip for a traveller arriving at LAX airport.'])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Take the FlyAway bus from the client model.' })
  })
})

describe.each(['2025', '2026'] as const)('a client that declared no elicitation (official v2 client, %s)', (era) => {
  async function connectWithoutForms() {
    const client = new Client({ name: 'no-forms', version: '1.0.0' }, { capabilities: {}, ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) })
    await client.connect(new StreamableHTTPClientTransport(served.url))
    clients.push(client)
    return client
  }

  it('gets a tool error in plain words from a tool that needs to ask, not the SDK’s message', async () => {
    const client = await connectWithoutForms()
    for (const call of [BOOK, { name: 'tictactoe', arguments: {} }]) {
      const result = await client.callTool(call)
      expect(result.isError).toBe(true)
      expect(result.content).toEqual([{ type: 'text', text: 'This tool needs to ask you questions; your client cannot show them.' }])
    }
    expect(CANNOT_ASK).toBe('This tool needs to ask you questions; your client cannot show them.')
  })

  it('is served as before by a tool that does not ask', async () => {
    await endpoint.close()
    await served.close()
    const echo = createMcpTool('echo')
      .description('Says it back')
      .parameters(z.object({ text: z.string() }))
      .elicits({ confirm: z.object({ ok: z.boolean() }) })
      .execute(function* ({ text }, ctx) {
        // Asks only when told to: this call never does.
        if (text === 'ask') yield* ctx.elicit('confirm', { message: 'Sure?' })
        return { said: text }
      })
    await start({ tools: [echo] })
    const client = await connectWithoutForms()
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ said: 'hello' })
    expect((await client.callTool({ name: 'echo', arguments: { text: 'ask' } })).content).toEqual([{ type: 'text', text: CANNOT_ASK }])
  })
})
