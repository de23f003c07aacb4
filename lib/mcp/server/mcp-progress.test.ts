import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel } from '../../models'
import { createMcpTool } from '../../tools/create-mcp-tool'
import { pluginTools } from '@/plugins'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { QUESTION_META_KEY } from '../../protocol/question-form'
import { PROGRESS_TOTAL } from './progress-sequence'
import { askedOf, connectBookingClient, firstChoices, type Answer, type Asked, type Era } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

// Every plugin tool's progress over MCP, in both eras: the values of one call strictly increase
// across its rounds (a question asked again included) and the last is the total.
/** A tool that fails after its question, short of its total. */
const failingTool = createMcpTool('failing')
  .description('Asks for a number, then fails.')
  .parameters(z.object({}))
  .elicits({ pickNumber: z.object({ n: z.number() }) })
  .execute(function* (_params, ctx) {
    yield* ctx.notify('Waiting for a number', 0.4)
    yield* ctx.elicit('pickNumber', { message: 'Pick a number' })
    throw new Error('The number machine broke')
  })

/** A tool that asks again itself, with its own reason, until the number is even: a rule no form carries. */
const evenTool = createMcpTool('even')
  .description('Asks for an even number.')
  .parameters(z.object({}))
  .elicits({ pickNumber: z.object({ n: z.number().int().meta({ title: 'Number' }) }) })
  .execute(function* (_params, ctx) {
    let message = 'Pick an even number'
    for (;;) {
      yield* ctx.notify('Waiting for a number', 0.4)
      const answer = yield* ctx.elicit('pickNumber', { message })
      if (answer.action !== 'accept') return { n: null }
      if (answer.content.n % 2 === 0) return { n: answer.content.n }
      message = `${answer.content.n} is odd. Pick an even number`
    }
  })

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: [...pluginTools, failingTool, evenTool], model: createOfflineModel(), stateSecret: 'g'.repeat(32) })
  served = await serveFetch((request) => endpoint.handle(request))
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await served.close()
  await endpoint.close()
})

type Update = { progress: number; total?: number; message?: string }

/** Call `name` with a client of `era` that answers with `answers` in turn; the progress the call reported, in order. */
async function callWithProgress(era: Era, name: string, args: Record<string, unknown>, answers: ((asked: Asked) => Answer)[]) {
  const connected = await connectBookingClient({ url: served.url, era, answer: (asked, index) => answers[index]!(asked) })
  clients.push(connected.client)
  const progress: Update[] = []
  const result = await connected.client.callTool({ name, arguments: args }, {
    // The 2026 client's driver reports its own rounds on the same callback ("Fulfilling input required ...").
    onprogress: (update) => void (update.message?.startsWith('Fulfilling') || progress.push(update)),
  })
  return { result, progress, asked: connected.asked }
}

function expectIncreasingToTotal(progress: Update[]) {
  const values = progress.map((update) => update.progress)
  expect(values.length).toBeGreaterThan(0)
  for (let index = 1; index < values.length; index++) expect(values[index], `value ${index} of ${values.join(', ')}`).toBeGreaterThan(values[index - 1]!)
  expect(new Set(values).size).toBe(values.length)
  expect(progress.every((update) => update.total === PROGRESS_TOTAL && update.progress <= PROGRESS_TOTAL)).toBe(true)
  expect(values.at(-1)).toBe(PROGRESS_TOTAL)
}

const emptyCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell === null) + 1
const takenCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell !== null) + 1

describe.each(['2025', '2026'] as const)('progress over MCP (%s)', (era) => {
  it('book_flight: increases across a flight asked again, and ends at the total', async () => {
    const { result, progress, asked } = await callWithProgress(era, 'book_flight', { from: 'NYC', destination: 'LAX' }, [
      () => ({ action: 'accept', content: { flightId: 'XX-000' } }),
      firstChoices,
      firstChoices,
    ])
    expect(asked).toHaveLength(3)
    expect(asked[1]!.message).toMatch(/^That answer was not accepted: "XX-000" is not one of the offered choices for Flight/)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
    expectIncreasingToTotal(progress)
    // Refused before the tool saw it: the tool asked once, and reported once.
    expect(progress.map((update) => update.message)).toEqual([
      'Searching flights from NYC to LAX',
      'Waiting for a flight choice',
      'Waiting for a seat choice',
      'Finding a travel tip',
      'Booking confirmed',
    ])
  })

  it('a tool that asks again itself: increases past its first report, not back to it, and ends at the total', async () => {
    const { result, progress, asked } = await callWithProgress(era, 'even', {}, [
      () => ({ action: 'accept', content: { n: 3 } }),
      () => ({ action: 'accept', content: { n: 4 } }),
    ])
    expect(asked.map((question) => question.message)).toEqual(['Pick an even number', '3 is odd. Pick an even number'])
    expect(result.structuredContent).toEqual({ n: 4 })
    expectIncreasingToTotal(progress)
    expect(progress.map((update) => update.message)).toEqual(['Waiting for a number', 'Waiting for a number', 'Done'])
    expect(progress[1]!.progress).toBeGreaterThan(40)
    expect(progress[1]!.progress).toBeLessThan(41)
  })

  it('book_flight: a call the user ends early still ends at the total', async () => {
    const { result, progress } = await callWithProgress(era, 'book_flight', { from: 'NYC', destination: 'LAX' }, [() => ({ action: 'decline' })])
    expect(result.structuredContent).toMatchObject({ status: 'cancelled', step: 'flight' })
    expectIncreasingToTotal(progress)
    expect(progress.map((update) => [update.progress, update.message])).toEqual([
      [10, 'Searching flights from NYC to LAX'],
      [25, 'Waiting for a flight choice'],
      [PROGRESS_TOTAL, 'Done'],
    ])
  })

  it('tictactoe: increases over a whole game with a taken cell asked again, and ends at the total', async () => {
    const answers = [emptyCell, takenCell, ...Array.from({ length: 5 }, () => emptyCell)].map(
      (cell) => (asked: Asked): Answer => ({ action: 'accept', content: { cell: String(cell(asked)) } }),
    )
    const { result, progress, asked } = await callWithProgress(era, 'tictactoe', {}, answers)
    const game = result.structuredContent as { outcome: string; moves: { player: string }[] }
    expect(['win', 'loss', 'draw']).toContain(game.outcome)
    expect(asked.length).toBe(game.moves.filter((move) => move.player === 'user').length + 1)
    expectIncreasingToTotal(progress)
    expect(progress[0]).toMatchObject({ progress: 0, message: 'Your move: you are X' })
    expect(progress.at(-1)!.message).toMatch(/^Game over/)
  })

  it('pick_card: increases across a card asked again, and ends at the total', async () => {
    const { result, progress, asked } = await callWithProgress(era, 'pick_card', { count: 4, analyze: true }, [
      () => ({ action: 'accept', content: { cardNumber: '9' } }),
      () => ({ action: 'accept', content: { cardNumber: '2' } }),
    ])
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'picked', pickedNumber: 2 })
    expectIncreasingToTotal(progress)
    expect(asked[1]!.message).toMatch(/^That answer was not accepted: "9" is not one of the offered choices for Card/)
    expect(progress.map((update) => update.message)).toEqual(['Analysing the cards', 'Waiting for your pick', 'You picked card 2'])
  })

  it('pick_card: a call the user ends early still ends at the total', async () => {
    const { result, progress } = await callWithProgress(era, 'pick_card', { count: 3 }, [() => ({ action: 'cancel' })])
    expect(result.structuredContent).toMatchObject({ status: 'cancelled' })
    expectIncreasingToTotal(progress)
  })

  it('a tool that fails still ends at the total, before its error', async () => {
    const { result, progress } = await callWithProgress(era, 'failing', {}, [() => ({ action: 'accept', content: { n: 1 } })])
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([{ type: 'text', text: 'The number machine broke' }])
    expectIncreasingToTotal(progress)
    expect(progress.map((update) => [update.progress, update.message])).toEqual([
      [40, 'Waiting for a number'],
      [PROGRESS_TOTAL, 'Failed'],
    ])
  })
})

describe('2026-07-28 rounds that name the same progressToken', () => {
  it('get one increasing sequence over the whole call, ending at the total', async () => {
    const client = new Client({ name: 'progress-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(served.url))
    clients.push(client)
    const seen: { progressToken: unknown; progress: number }[] = []
    // Every notification as it arrives, whatever its token (the client's own handler knows only the tokens it made).
    client.setNotificationHandler('notifications/progress', (notification) => void seen.push(notification.params))
    type Params = { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> }
    type Round = { resultType?: string; inputRequests?: Record<string, { params: Params }>; requestState?: string; structuredContent?: unknown }
    const round = (params: Record<string, unknown>) =>
      client.request(
        { method: 'tools/call', params: { name: 'even', arguments: {}, _meta: { progressToken: 'one-call' }, ...params } } as never,
        { allowInputRequired: true } as never,
      ) as Promise<Round>

    let current = await round({})
    // Two odd numbers the tool itself asks again for, each round reporting under the same token, then an even one.
    for (const n of [7, 9, 4]) {
      const [[key, request]] = Object.entries(current.inputRequests!) as [[string, { params: Params }]]
      expect(askedOf(request.params).meta).toHaveProperty([QUESTION_META_KEY, 'key'], 'pickNumber')
      current = await round({ requestState: current.requestState, inputResponses: { [key]: { action: 'accept', content: { n } } } })
    }
    expect(current.structuredContent).toEqual({ n: 4 })
    expect(new Set(seen.map((update) => update.progressToken))).toEqual(new Set(['one-call']))
    expectIncreasingToTotal(seen)
    expect(seen).toHaveLength(4)
  })
})
