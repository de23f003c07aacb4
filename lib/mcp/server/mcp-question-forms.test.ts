import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { QUESTION_META_KEY, type FormSchema } from '../../protocol/question-form'
import { createMcpTool, field, question } from '../../tools'
import { whyNotInFormSubset } from './form-subset'
import { askedOf, connectBookingClient, firstChoices, type Answer, type Asked, type Era } from './testing/booking-client'
import { servedEndpoints } from './testing/served-endpoints'
import { createQuestionApps } from './question-apps'

const endpoints = servedEndpoints()
const clients: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await endpoints.closeAll()
})

const SECRET = 'q'.repeat(40)
const ERAS = ['2025', '2026'] as const

async function connect(options: Omit<Parameters<typeof connectBookingClient>[0], 'url'> & { url: URL }) {
  const connected = await connectBookingClient(options)
  clients.push(connected.client)
  return connected
}

describe.each(ERAS)('a question with a form of its own (official v2 client, %s)', (era) => {
  /** Every answer the tool itself received. */
  const received: unknown[] = []
  const sizes = createMcpTool('order_shirt')
    .description('Orders a shirt in a size that is in stock')
    .parameters(z.object({}))
    .elicits({
      pickSize: question({
        response: z.object({ size: z.enum(['S', 'M', 'L']).meta({ title: 'Size' }), chest: z.number().meta({ title: 'Chest (cm)' }) }),
        context: z.object({ inStock: z.array(z.object({ size: z.enum(['S', 'M', 'L']), chest: z.number() })), note: z.string() }),
        form: ({ inStock }) => ({
          fit: field.choice(
            'Size',
            inStock.map((shirt) => ({ value: shirt.size.toLowerCase(), title: `${shirt.size} — chest ${shirt.chest} cm`, answer: shirt })),
          ),
        }),
      }),
    })
    .execute(function* (_params, ctx) {
      const answer = yield* ctx.elicit('pickSize', {
        message: 'Which size?',
        inStock: [
          { size: 'S', chest: 92 },
          { size: 'L', chest: 108 },
        ],
        note: '{"json": "in the context, never in the message"}',
      })
      received.push(answer.action === 'accept' ? answer.content : answer.action)
      return answer.action === 'accept' ? { ordered: answer.content.size } : { ordered: null }
    })

  it('is asked again with the reason when the answer names a value the form did not offer; the tool gets only an offered one, as its own answer', async () => {
    received.length = 0
    const url = await endpoints.serve({ stateSecret: SECRET, tools: [sizes] })
    const answers: Answer[] = [
      { action: 'accept', content: { fit: 'm' } },
      { action: 'accept', content: { fit: 'L' } },
      { action: 'accept', content: { fit: 'l' } },
    ]
    const { client, asked } = await connect({ url, era, answer: (_question, index) => answers[index]! })
    const result = await client.callTool({ name: 'order_shirt', arguments: {} })
    expect(result.structuredContent).toEqual({ ordered: 'L' })
    expect(received).toEqual([{ size: 'L', chest: 108 }])
    expect(asked.map((question) => question.message)).toEqual([
      'Which size?',
      'That answer was not accepted: "m" is not one of the offered choices for Size. Please answer again.\n\nWhich size?',
      'That answer was not accepted: "L" is not one of the offered choices for Size. Please answer again.\n\nWhich size?',
    ])
    expect(asked[0]!.schema).toEqual({
      type: 'object',
      properties: { fit: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'S — chest 92 cm' }, { const: 'l', title: 'L — chest 108 cm' }] } },
      required: ['fit'],
    })
    expect(asked[0]!.meta[QUESTION_META_KEY]).toEqual({
      tool: 'order_shirt',
      key: 'pickSize',
      context: { inStock: [{ size: 'S', chest: 92 }, { size: 'L', chest: 108 }], note: '{"json": "in the context, never in the message"}' },
      answers: { fit: { s: { size: 'S', chest: 92 }, l: { size: 'L', chest: 108 } } },
    })
  })

  it('starts from the question’s defaults: the form’s default in its own terms, and the answer they stand for in _meta', async () => {
    const invite = createMcpTool('invite')
      .description('Sends an invitation the person may edit')
      .parameters(z.object({}))
      .elicits({
        draft: question({
          response: z.object({ text: z.string().min(1).meta({ title: 'Invitation' }), size: z.enum(['S', 'L']) }),
          context: z.object({ attendee: z.string() }),
          form: () => ({
            text: field.text('Invitation', { maxLength: 500 }),
            fit: field.choice<{ size: 'S' | 'L' }>('Size', [
              { value: 's', title: 'Small', answer: { size: 'S' } },
              { value: 'l', title: 'Large', answer: { size: 'L' } },
            ]),
          }),
          defaults: ({ attendee }) => ({ text: `Hi ${attendee}, shall we meet?`, size: 'L' as const }),
        }),
      })
      .execute(function* (_params, ctx) {
        const answer = yield* ctx.elicit('draft', { message: 'Your invitation?', attendee: 'Dana' })
        return answer.action === 'accept' ? answer.content : { text: null }
      })
    const url = await endpoints.serve({ stateSecret: SECRET, tools: [invite] })
    // A client that takes what the form starts from.
    const { client, asked } = await connect({
      url,
      era,
      answer: (question) => {
        const properties = (question.schema as unknown as FormSchema).properties
        return { action: 'accept', content: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.default as string])) }
      },
    })
    const result = await client.callTool({ name: 'invite', arguments: {} })
    expect(result.structuredContent).toEqual({ text: 'Hi Dana, shall we meet?', size: 'L' })
    expect((asked[0]!.schema as unknown as FormSchema).properties).toEqual({
      text: { type: 'string', title: 'Invitation', maxLength: 500, default: 'Hi Dana, shall we meet?' },
      fit: { type: 'string', title: 'Size', default: 'l', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    })
    expect(asked[0]!.meta[QUESTION_META_KEY]).toMatchObject({ defaults: { text: 'Hi Dana, shall we meet?', size: 'L' } })
  })

  it('fails the call, naming the tool, the key and why, when its form leaves the subset; nothing is asked', async () => {
    const untitled = createMcpTool('untitled')
      .description('Asks with a form no client can show well')
      .parameters(z.object({}))
      .elicits({
        pickCount: question({ response: z.object({ count: z.number() }), context: z.object({ unit: z.string() }), form: () => ({ count: field.number('', { maximum: 2 ** 60 }) }) }),
      })
      .execute(function* (_params, ctx) {
        try {
          yield* ctx.elicit('pickCount', { message: 'How many?', unit: 'kg' })
        } catch {
          // A tool's own catch never sees it: the call ends outside the tool.
          return 'caught'
        }
        return 'asked'
      })
    const url = await endpoints.serve({ stateSecret: SECRET, tools: [untitled] })
    const { client, asked } = await connect({ url, era, answer: () => ({ action: 'cancel' }) })
    const result = await client.callTool({ name: 'untitled', arguments: {} })
    expect(asked).toEqual([])
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([{ type: 'text', text: `Tool "untitled" cannot ask 'pickCount' over MCP: its form property 'count' has no title.` }])
  })
})

describe('a question’s MCP App (_meta.ui, SEP-3118), only for a client that negotiated app-rendered elicitations', () => {
  const APPS: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} } } }
  /** Only the seat question has an app here. */
  const questionApps = createQuestionApps([{ tool: 'book_train', key: 'pickSeat', uri: 'ui://book_train/pickSeat', html: '<!doctype html>' }])
  const BOOK = { name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }

  it.each(ERAS)('official v2 client (%s): declared, the seat question names its app; the train question, which has none, is a plain form', async (era: Era) => {
    const url = await endpoints.serve({ stateSecret: SECRET, questionApps })
    const { client, asked } = await connect({ url, era, answer: firstChoices, capabilities: APPS })
    expect((await client.callTool(BOOK)).structuredContent).toMatchObject({ status: 'confirmed' })
    expect(asked.map((question) => question.meta.ui)).toEqual([undefined, { resourceUri: 'ui://book_train/pickSeat' }])
    // The app is shown in place of the same form: the form and the context are there all the same.
    expect(asked[1]!.meta[QUESTION_META_KEY]).toMatchObject({ key: 'pickSeat' })
    expect(whyNotInFormSubset(asked[1]!.schema)).toBeUndefined()
  })

  it.each([
    ['2025', {}],
    ['2026', {}],
    ['2025', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }],
    ['2026', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }],
    // An elicitation member without the app's MIME type among those it shows (SEP-3118 asks for both).
    ['2025', { extensions: { 'io.modelcontextprotocol/ui': { elicitation: {} } } }],
    ['2026', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'], elicitation: {} } } }],
  ] as Array<[Era, ClientCapabilities]>)('official v2 client (%s) that declared %j: never gets _meta.ui', async (era, capabilities) => {
    const url = await endpoints.serve({ stateSecret: SECRET, questionApps })
    const { client, asked } = await connect({ url, era, answer: firstChoices, capabilities })
    expect((await client.callTool(BOOK)).structuredContent).toMatchObject({ status: 'confirmed' })
    expect(asked).toHaveLength(2)
    for (const question of asked) expect(question.meta).not.toHaveProperty('ui')
  })

  it('a 2026-07-28 retry that stops declaring the extension gets the plain form: each request’s own capabilities count', async () => {
    const url = await endpoints.serve({ stateSecret: SECRET, questionApps })
    const pinned = (capabilities: ClientCapabilities) => {
      const client = new Client({ name: 'apps-test', version: '1' }, { capabilities: { elicitation: { form: {} }, ...capabilities }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
      clients.push(client)
      return client
    }
    type Round = { inputRequests: Record<string, { params: Parameters<typeof askedOf>[0] }>; requestState: string }
    const round = (client: Client, params: Record<string, unknown> = {}) =>
      client.request({ method: 'tools/call', params: { ...BOOK, ...params } } as never, { allowInputRequired: true } as never) as Promise<Round>
    const [withApps, without] = [pinned(APPS), pinned({})]
    await withApps.connect(new StreamableHTTPClientTransport(url))
    await without.connect(new StreamableHTTPClientTransport(url))
    const train = await round(withApps)
    const [[key, request]] = Object.entries(train.inputRequests)
    const answered = { requestState: train.requestState, inputResponses: { [key!]: firstChoices(askedOf(request!.params)) } }
    const seatWithApp = Object.values((await round(withApps, answered)).inputRequests)[0]!
    const seatWithout = Object.values((await round(without, answered)).inputRequests)[0]!
    expect(seatWithApp.params._meta?.ui).toEqual({ resourceUri: 'ui://book_train/pickSeat' })
    expect(seatWithout.params._meta).not.toHaveProperty('ui')
  })

  it.each([
    ['declared', APPS, { resourceUri: 'ui://book_train/pickSeat' }],
    ['not declared', {}, undefined],
  ] as const)('the v1 SDK client (2025-11-25), extension %s', async (_what, capabilities, ui) => {
    const url = await endpoints.serve({ stateSecret: SECRET, questionApps })
    const client = new V1Client({ name: 'v1-apps', version: '1' }, { capabilities: { elicitation: {}, ...capabilities } })
    clients.push(client)
    const asked: Asked[] = []
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const question = askedOf(request.params as Parameters<typeof askedOf>[0])
      asked.push(question)
      return firstChoices(question)
    })
    await client.connect(new V1Transport(url))
    expect((await client.callTool(BOOK)).structuredContent).toMatchObject({ status: 'confirmed' })
    expect(asked.map((question) => question.meta.ui)).toEqual([undefined, ui])
  })
})
