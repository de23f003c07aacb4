import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel } from '../../models'
import { createMcpTool } from '../../tools'
import { QUESTION_META_KEY } from '../../protocol/question-form'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import type { Train } from '@/fixtures/book-train/trains'
import { whyNotInFormSubset } from './form-subset'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from './mcp-endpoint'
import { CANNOT_ASK } from './register-plugin-tool'
import { connectBookingClient, firstChoices, firstFreeSeat, type Answer, type Asked } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

const SECRET = 's'.repeat(40)

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

/** A tool that asks only when told to, beside the fixture that always asks. */
const echoTool = createMcpTool('echo')
  .description('Says it back')
  .parameters(z.object({ text: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* ({ text }, ctx) {
    if (text === 'ask') yield* ctx.elicit('confirm', { message: 'Sure?' })
    return { said: text }
  })

async function start(options: Partial<McpEndpointOptions> = {}) {
  endpoint = await createMcpEndpoint({ tools: [bookTrainTool, echoTool], model: createOfflineModel(), stateSecret: SECRET, ...options })
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

const BOOK = { name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }

describe.each(['2025', '2026'] as const)('a tool that asks, from an official v2 client (%s)', (era) => {
  it('lists the tools with their descriptions and object input schemas', async () => {
    const { client } = await connect({ era, answer: firstChoices })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['book_train', 'echo'])
    for (const tool of tools) {
      expect(tool.description).toBeTruthy()
      expect(tool.inputSchema.type).toBe('object')
    }
    expect(tools.find((tool) => tool.name === 'book_train')!.inputSchema.required).toEqual(['from', 'to'])
  })

  it('asks for a train and a seat in native forms (titled pick lists, the context in _meta), then books, with progress and logs', async () => {
    const { client, asked } = await connect({ era, answer: firstChoices })
    const progress: { progress: number; message?: string }[] = []
    const logs: unknown[] = []
    client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data))
    if (era === '2025') await client.setLoggingLevel('info')
    // 2025: the session's level; 2026: the level each request names in its _meta.
    const result = await client.callTool(era === '2026' ? { ...BOOK, _meta: { [LOG_LEVEL_META_KEY]: 'info' } } : BOOK, {
      // The 2026 client's driver reports its own rounds on the same callback ("Fulfilling input required ...").
      onprogress: (update) => void (update.message?.startsWith('Fulfilling') || progress.push({ progress: update.progress, message: update.message })),
    })

    const [trainQuestion, seatQuestion] = asked
    for (const question of asked) {
      expect(whyNotInFormSubset(question.schema)).toBeUndefined()
      // A person reads the message: no context block, no JSON.
      expect(question.message).not.toContain('x-model-context')
      expect(question.message).not.toMatch(/[{}[\]"]/)
      // A client that did not negotiate app-rendered elicitations never sees _meta.ui.
      expect(question.meta).not.toHaveProperty('ui')
    }
    expect(trainQuestion!.message).toMatch(/^Select your train from Paris to Lyon:\n\n1\. IC \d+ · \d\d:\d\d · \$\d+\n2\. /)
    const trains = trainQuestion!.context.trains as Train[]
    expect(trainQuestion!.meta[QUESTION_META_KEY]).toEqual({ tool: 'book_train', key: 'pickTrain', context: { from: 'Paris', to: 'Lyon', trains } })
    expect(trainQuestion!.schema).toEqual({
      type: 'object',
      properties: {
        trainId: {
          type: 'string',
          title: 'Train',
          oneOf: trains.map((train) => ({ const: train.id, title: `${train.number} · ${train.departure} · $${train.price}` })),
        },
      },
      required: ['trainId'],
    })
    expect(trains).toHaveLength(3)

    const seat = firstFreeSeat(seatQuestion!)
    const seatMap = seatQuestion!.context.seatMap as { taken: string[] }
    expect(seatQuestion!.message).toBe(`Select your seat on ${trains[0]!.number}: ${24 - seatMap.taken.length} of 24 seats are free.`)
    const seatField = (seatQuestion!.schema.properties as Record<string, { title: string; oneOf: { const: string; title: string }[] }>).seat!
    expect(seatField.title).toBe('Seat')
    expect(seatField.oneOf).toHaveLength(24 - seatMap.taken.length)
    expect(seatField.oneOf.map((choice) => choice.const)).not.toContain(seatMap.taken[0])
    expect(seatField.oneOf[0]).toEqual({ const: seat, title: `Row ${seat.slice(0, -1)}, seat ${seat.slice(-1)}` })
    const seatMeta = seatQuestion!.meta[QUESTION_META_KEY] as { key: string; context: Record<string, unknown>; answers: Record<string, Record<string, unknown>> }
    expect(seatMeta).toMatchObject({ tool: 'book_train', key: 'pickSeat', context: { train: { id: trains[0]!.id }, seatMap } })
    // The choice stands for the tool's own answer: what the form's "1B" gives the tool.
    expect(seatMeta.answers.seat![seat]).toEqual({ row: Number(seat.slice(0, -1)), seat: seat.slice(-1) })

    const booking = result.structuredContent as { status: string; ticketNumber: string; seat: string; tip: string }
    expect(result.isError).toBeFalsy()
    expect(booking).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(booking)
    expect(booking.seat).toBe(seat)
    // No sampling declared: the app's own (offline) model wrote the tip, naming the destination.
    expect(booking.tip).toMatch(/Lyon/)

    expect(progress.map((update) => update.message)).toEqual([
      'Searching trains from Paris to Lyon',
      'Waiting for a train choice',
      'Waiting for a seat choice',
      'Finding a travel tip',
      'Booking confirmed',
    ])
    expect(progress.at(-1)).toMatchObject({ progress: 100, message: 'Booking confirmed' })
    for (let index = 1; index < progress.length; index++) expect(progress[index]!.progress).toBeGreaterThan(progress[index - 1]!.progress)
    await expect.poll(() => logs).toContain(`Issued ticket ${booking.ticketNumber} for ${(booking as unknown as { train: Train }).train.number}, seat ${booking.seat}`)
  })

  it('asks again, saying why, after a train or a seat that was not offered; neither reaches the tool', async () => {
    const answers: ((asked: Asked) => Answer)[] = [
      // The train's number as the list shows it, not its id: a pick list offers only ids.
      (asked) => ({ action: 'accept', content: { trainId: (asked.context.trains as Train[])[0]!.number } }),
      firstChoices,
      (asked) => ({ action: 'accept', content: { seat: (asked.context.seatMap as { taken: string[] }).taken[0]! } }),
      () => ({ action: 'accept', content: {} }),
      firstChoices,
    ]
    const { client, asked } = await connect({ era, answer: (question, index) => answers[index]!(question) })
    const result = await client.callTool(BOOK)
    expect(asked).toHaveLength(5)
    const trainNumber = (asked[0]!.context.trains as Train[])[0]!.number
    expect(asked[1]!.message).toBe(`That answer was not accepted: "${trainNumber}" is not one of the offered choices for Train. Please answer again.\n\n${asked[0]!.message}`)
    const taken = (asked[2]!.context.seatMap as { taken: string[] }).taken[0]!
    expect(asked[3]!.message).toBe(`That answer was not accepted: "${taken}" is not one of the offered choices for Seat. Please answer again.\n\n${asked[2]!.message}`)
    expect(asked[4]!.message).toMatch(/^That answer was not accepted: Seat is missing\. Please answer again\.\n\nSelect your seat on /)
    // The same question each time: the tool never saw the answers (its own check would say "Seat … is taken").
    expect(asked[3]!.meta[QUESTION_META_KEY]).toEqual(asked[2]!.meta[QUESTION_META_KEY])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', seat: firstFreeSeat(asked[4]!) })
  })

  it.each(['decline', 'cancel'] as const)('ends with a result saying so when the user answers %s (not an error)', async (action) => {
    const { client } = await connect({ era, answer: () => ({ action }) })
    const result = await client.callTool(BOOK)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ status: 'cancelled', step: 'train', message: 'The user declined to choose a train; nothing was booked.' })
  })

  it('asks the client’s model for the travel tip when the client samples', async () => {
    const { client, sampled } = await connect({ era, answer: firstChoices, sample: () => 'Take the metro from the client model.' })
    const result = await client.callTool(BOOK)
    expect(sampled).toEqual(['Give one short, practical travel tip for a traveller arriving at Lyon station.'])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Take the metro from the client model.' })
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
    for (const call of [BOOK, { name: 'echo', arguments: { text: 'ask' } }]) {
      const result = await client.callTool(call)
      expect(result.isError).toBe(true)
      expect(result.content).toEqual([{ type: 'text', text: 'This tool needs to ask you questions; your client cannot show them.' }])
    }
    expect(CANNOT_ASK).toBe('This tool needs to ask you questions; your client cannot show them.')
  })

  it('is served as before by a tool that does not ask', async () => {
    const client = await connectWithoutForms()
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ said: 'hello' })
    expect((await client.callTool({ name: 'echo', arguments: { text: 'ask' } })).content).toEqual([{ type: 'text', text: CANNOT_ASK }])
  })
})
