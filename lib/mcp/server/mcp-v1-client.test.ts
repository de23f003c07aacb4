import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../../models'
import { QUESTION_META_KEY } from '../../protocol/question-form'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { whyNotInFormSubset } from './form-subset'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { askedOf, firstChoices, type Asked } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

// The v1 SDK (1.32) speaks the 2025 revisions only (its latest is 2025-11-25): it gets a session.
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
let client: Client

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'v'.repeat(32) })
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

const BOOK = { name: 'book_train', arguments: { from: 'Nice', to: 'Lyon' } }

/** A question as the v1 client's handler gets it. */
const asked = (request: { params: unknown }): Asked => askedOf(request.params as Parameters<typeof askedOf>[0])

describe('a tool that asks, from the v1 SDK client (1.32, 2025-11-25)', () => {
  it('books from the native forms: titled choices, the context in _meta, with progress and logs', async () => {
    await connect()
    const questions: Asked[] = []
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const question = asked(request)
      questions.push(question)
      // The third train: its id, as the pick list offers it.
      if ('trains' in question.context) return { action: 'accept', content: { trainId: (question.context.trains as { id: string }[])[2]!.id } }
      return firstChoices(question)
    })
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data))
    await client.setLoggingLevel('info')
    const progress: (string | undefined)[] = []
    const result = await client.callTool(BOOK, undefined, { onprogress: (update) => void progress.push(update.message) })

    expect(questions).toHaveLength(2)
    // The v1 client passes the request's _meta on: the context reaches it there, and the schema is a plain form.
    expect(questions.map((question) => (question.meta[QUESTION_META_KEY] as { key: string }).key)).toEqual(['pickTrain', 'pickSeat'])
    for (const question of questions) expect(whyNotInFormSubset(question.schema)).toBeUndefined()
    expect((questions[0]!.context.trains as unknown[]).length).toBe(3)
    expect(questions[1]!.context).toHaveProperty('seatMap')
    expect(result.structuredContent).toMatchObject({
      status: 'confirmed',
      train: { id: (questions[0]!.context.trains as { id: string }[])[2]!.id },
      seat: firstChoices(questions[1]!).content.seat,
    })
    expect(progress).toEqual(['Searching trains from Nice to Lyon', 'Waiting for a train choice', 'Waiting for a seat choice', 'Finding a travel tip', 'Booking confirmed'])
    await expect.poll(() => logs.length).toBeGreaterThanOrEqual(2)
    expect(logs[0]).toBe('Found 3 trains from Nice to Lyon')
  })

  it('ends the booking with a result saying so when the user declines the seat', async () => {
    await connect()
    client.setRequestHandler(ElicitRequestSchema, async (request) => ('trains' in asked(request).context ? firstChoices(asked(request)) : { action: 'decline' }))
    const result = await client.callTool(BOOK)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ status: 'cancelled', step: 'seat' })
  })

  it('asks its model for the tip when it declares sampling', async () => {
    await connect({ sampling: true })
    client.setRequestHandler(ElicitRequestSchema, async (request) => firstChoices(asked(request)))
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', model: 'v1-model', content: { type: 'text', text: 'Take the tram from the station.' } }))
    const result = await client.callTool(BOOK)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Take the tram from the station.' })
  })
})
