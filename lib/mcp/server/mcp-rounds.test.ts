import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { run } from 'effection'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel } from '../../models'
import { createMemorySessionStore, type SessionStore } from '../../sessions'
import { createMcpTool } from '../../tools'
import { askedOf, firstChoices } from './testing/booking-client'
import { servedEndpoints } from './testing/served-endpoints'

const SECRET = 'r'.repeat(40)
type Params = { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> }
const BOOK = { name: 'book_train', arguments: { from: 'Lille', to: 'Nantes' } }

type Round =
  | { resultType: 'input_required'; inputRequests: Record<string, { method: string; params: Params }>; requestState: string }
  | { resultType?: 'complete'; structuredContent: Record<string, unknown>; isError?: boolean }

/** A tool that asks, asks the app's model, then asks again: a round that does model work before its question. */
const nameBoatTool = createMcpTool('name_boat')
  .description('Names a boat: asks its colour, asks the model for a name, and asks whether to keep it.')
  .parameters(z.object({}))
  .elicits({
    pickColour: z.object({ colour: z.string().meta({ title: 'Colour' }) }),
    keepName: z.object({ keep: z.boolean().meta({ title: 'Keep it' }) }),
  })
  .execute(function* (_params, ctx) {
    const colour = yield* ctx.elicit('pickColour', { message: 'Which colour is the boat?' })
    if (colour.action !== 'accept') return { name: null }
    const name = yield* ctx.sample({ prompt: `Name a ${colour.content.colour} boat.` })
    const keep = yield* ctx.elicit('keepName', { message: `Call the ${colour.content.colour} boat ${name.text}?` })
    return { name: keep.action === 'accept' && keep.content.keep ? name.text : null }
  })

const endpoints = servedEndpoints()
const clients: Client[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await endpoints.closeAll()
})

/** An instance of the app's MCP endpoint; instances given one store and one secret share rounds. */
async function instance({ store, secret = SECRET }: { store?: SessionStore; secret?: string } = {}) {
  return endpoints.serve({ stateSecret: secret, useStore: store ? function* () { return store } : undefined })
}

/** An official v2 client speaking 2026-07-28 that drives the rounds itself (`allowInputRequired`). */
async function manualClient(url: URL) {
  const client = new Client({ name: 'rounds-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(new StreamableHTTPClientTransport(url))
  clients.push(client)
  return {
    round: (params: Record<string, unknown> = {}) =>
      client.request({ method: 'tools/call', params: { ...BOOK, ...params } } as never, { allowInputRequired: true } as never) as Promise<Round>,
  }
}

/** The rounds the ledger keeps (their answers, by state id). */
async function listedRounds(store: SessionStore) {
  return run(function* () {
    return yield* store.list({ statuses: ['waiting', 'running', 'completed', 'failed', 'aborted'], limit: 100 })
  })
}

function only(round: Round) {
  if (round.resultType !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(round)}`)
  const [[key, request]] = Object.entries(round.inputRequests) as [[string, { method: string; params: Params }]]
  const asked = askedOf(request.params)
  return { key, request, asked, context: asked.context, requestState: round.requestState }
}

/** Round 1 asks for a train; round 2, answered, asks for a seat. */
async function toTheSeatQuestion(round: (params?: Record<string, unknown>) => Promise<Round>) {
  const train = only(await round())
  const seat = only(await round({ requestState: train.requestState, inputResponses: { [train.key]: firstChoices(train.asked) } }))
  return { train, seat, seatAnswer: { [seat.key]: firstChoices(seat.asked) } }
}

describe('2026-07-28 rounds', () => {
  it('return each question as input_required with a requestState, and no Mcp-Session-Id', async () => {
    const url = await instance()
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'book_train' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { ...BOOK, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } },
      }),
    })
    expect(response.headers.get('mcp-session-id')).toBeNull()
    const text = await response.text()
    expect(response.status, text).toBe(200)
    expect(text).toContain('"resultType":"input_required"')
    expect(text).toContain('"requestState":"v1.')
  })

  it('refuse a tampered requestState with a JSON-RPC error', async () => {
    const { round } = await manualClient(await instance())
    const train = only(await round())
    const [prefix, body, mac] = [train.requestState.slice(0, 3), ...train.requestState.slice(3).split('.')] as [string, string, string]
    const tampered = `${prefix}${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}.${mac}`
    await expect(round({ requestState: tampered, inputResponses: { [train.key]: { action: 'accept', content: { trainId: 'x' } } } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid or expired requestState'),
    })
    // One signed by another secret is refused the same way.
    const { round: elsewhere } = await manualClient(await instance({ secret: 'another-secret-of-at-least-32-bytes!!' }))
    const foreign = only(await elsewhere())
    await expect(round({ requestState: foreign.requestState, inputResponses: {} })).rejects.toMatchObject({ code: -32602 })
  })

  it('refuse a state presented for the same tool with other arguments (an error result)', async () => {
    const { round } = await manualClient(await instance())
    const train = only(await round())
    const answer = { [train.key]: { action: 'accept', content: { trainId: (train.context.trains as { id: string }[])[0]!.id } } }
    const refused = (await round({ arguments: { from: 'Lille', to: 'Brest' }, requestState: train.requestState, inputResponses: answer })) as unknown as { isError?: boolean; content: { text: string }[] }
    expect(refused.isError).toBe(true)
    expect(refused.content[0]!.text).toMatch(/This requestState belongs to another call than book_train/)
  })

  it('never book twice: the final round presented again returns the same ticket', async () => {
    const { round } = await manualClient(await instance())
    const { seat, seatAnswer } = await toTheSeatQuestion(round)
    const first = (await round({ requestState: seat.requestState, inputResponses: seatAnswer })) as Extract<Round, { structuredContent: unknown }>
    expect(first.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    const again = (await round({ requestState: seat.requestState, inputResponses: seatAnswer })) as Extract<Round, { structuredContent: unknown }>
    expect(again.structuredContent).toEqual(first.structuredContent)
  })

  it('ask again, with the reason, when a retry answers with a seat the form did not offer; the tool books only an offered one', async () => {
    const { round } = await manualClient(await instance())
    const { seat, seatAnswer } = await toTheSeatQuestion(round)
    const taken = (seat.context.seatMap as { taken: string[] }).taken[0]!
    // The chat's shape ({ row, seat }) is not the form's either: a form answers with its own fields.
    for (const content of [{ seat: taken }, { row: Number(taken.slice(0, -1)), seat: taken.slice(-1) }]) {
      const again = only(await round({ requestState: seat.requestState, inputResponses: { [seat.key]: { action: 'accept', content } } }))
      expect(again.key).toBe(seat.key)
      expect(again.request.params.message).toBe(
        `That answer was not accepted: ${JSON.stringify(content.seat)} is not one of the offered choices for Seat. Please answer again.\n\n${seat.request.params.message}`,
      )
      expect(again.asked.meta).toEqual(seat.asked.meta)
    }
    const done = (await round({ requestState: seat.requestState, inputResponses: seatAnswer })) as Extract<Round, { structuredContent: unknown }>
    expect(done.structuredContent).toMatchObject({ status: 'confirmed', seat: seatAnswer[seat.key]!.content.seat })
  })

  it('asks the same question again when a round that only asked is presented twice, and keeps nothing for it', async () => {
    const store = createMemorySessionStore()
    const { round } = await manualClient(await instance({ store }))
    const train = only(await round())
    const trainId = (train.context.trains as { id: string }[])[0]!.id
    const answered = { requestState: train.requestState, inputResponses: { [train.key]: { action: 'accept', content: { trainId } } } }
    const seat = only(await round(answered))
    const again = only(await round(answered))
    expect(again.key).toBe(seat.key)
    expect(again.context).toEqual(seat.context)
    // Nothing was done that a second presentation could redo, so the ledger holds nothing.
    expect(await listedRounds(store)).toEqual([])
  })

  it('keeps a round that asked the app’s model, so presenting it again gives the same answer, not a second model call', async () => {
    const store = createMemorySessionStore()
    const offline = createOfflineModel()
    let modelCalls = 0
    const model: typeof offline = {
      ...offline,
      doGenerate(options) {
        modelCalls++
        return offline.doGenerate(options)
      },
    }
    const client = new Client({ name: 'rounds-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(await endpoints.serve({ stateSecret: SECRET, tools: [nameBoatTool], model, useStore: function* () { return store } })))
    clients.push(client)
    const play = (params: Record<string, unknown> = {}) =>
      client.request({ method: 'tools/call', params: { name: 'name_boat', arguments: {}, ...params } } as never, { allowInputRequired: true } as never) as Promise<Round>
    const colour = only(await play())
    // This round asks the model for a name, then asks whether to keep it.
    const answered = { requestState: colour.requestState, inputResponses: { [colour.key]: { action: 'accept', content: { colour: 'red' } } } }
    const first = await play(answered)
    expect(only(first).asked.message).toMatch(/^Call the red boat /)
    const second = await play(answered)
    expect(second).toEqual(first)
    expect(modelCalls).toBe(1)
    expect((await listedRounds(store)).length).toBe(1)
  })

  it('can be taken by any instance sharing MCP_STATE_SECRET and the store, alternating', async () => {
    const store = createMemorySessionStore()
    const a = await manualClient(await instance({ store }))
    const b = await manualClient(await instance({ store }))
    const train = only(await a.round())
    const trainId = (train.context.trains as { id: string }[])[1]!.id
    const seat = only(await b.round({ requestState: train.requestState, inputResponses: { [train.key]: { action: 'accept', content: { trainId } } } }))
    expect((seat.context.train as { id: string }).id).toBe(trainId)
    const answer = { [seat.key]: firstChoices(seat.asked) }
    const done = (await a.round({ requestState: seat.requestState, inputResponses: answer })) as Extract<Round, { structuredContent: unknown }>
    expect(done.structuredContent).toMatchObject({ status: 'confirmed', train: { id: trainId } })
    // The other instance, asked the same final round, answers from the shared record: the same ticket.
    const replayed = (await b.round({ requestState: seat.requestState, inputResponses: answer })) as Extract<Round, { structuredContent: unknown }>
    expect(replayed.structuredContent).toEqual(done.structuredContent)
  })

  it('keep what the tool keeps from the user out of sight: the journal in requestState is encrypted', async () => {
    const { round } = await manualClient(await instance())
    const train = only(await round())
    const trainId = (train.context.trains as { id: string }[])[0]!.id
    const seat = only(await round({ requestState: train.requestState, inputResponses: { [train.key]: { action: 'accept', content: { trainId } } } }))
    const payload = Buffer.from(seat.requestState.slice(3).split('.')[0]!, 'base64url').toString('utf8')
    expect(payload).not.toContain(trainId)
    expect(payload).not.toContain('pickTrain')
  })
})
