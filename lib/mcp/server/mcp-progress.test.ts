import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../tools/create-mcp-tool'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { QUESTION_META_KEY } from '../../protocol/question-form'
import { PROGRESS_TOTAL } from './progress-sequence'
import { askedOf, firstChoices } from './testing/booking-client'
import { expectIncreasingToTotal } from './testing/progress-of-call'
import { endpointPerTest } from './testing/endpoint-per-test'

// A tool's progress over MCP, in both eras: the values of one call strictly increase across its
// rounds (a question asked again included) and the last is the total.
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

const served = endpointPerTest({ tools: [bookTrainTool, failingTool, evenTool], stateSecret: 'g'.repeat(32) })

describe.each(['2025', '2026'] as const)('progress over MCP (%s)', (era) => {
  it('book_train: increases across a train asked again, and ends at the total', async () => {
    const { result, progress, asked } = await served.callWithProgress(era, 'book_train', { from: 'Paris', to: 'Lyon' }, [
      () => ({ action: 'accept', content: { trainId: 'XX-000' } }),
      firstChoices,
      firstChoices,
    ])
    expect(asked).toHaveLength(3)
    expect(asked[1]!.message).toMatch(/^That answer was not accepted: "XX-000" is not one of the offered choices for Train/)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
    expectIncreasingToTotal(progress)
    // Refused before the tool saw it: the tool asked once, and reported once.
    expect(progress.map((update) => update.message)).toEqual([
      'Searching trains from Paris to Lyon',
      'Waiting for a train choice',
      'Waiting for a seat choice',
      'Finding a travel tip',
      'Booking confirmed',
    ])
  })

  it('a tool that asks again itself: increases past its first report, not back to it, and ends at the total', async () => {
    const { result, progress, asked } = await served.callWithProgress(era, 'even', {}, [
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

  it('book_train: a call the user ends early still ends at the total', async () => {
    const { result, progress } = await served.callWithProgress(era, 'book_train', { from: 'Paris', to: 'Lyon' }, [() => ({ action: 'decline' })])
    expect(result.structuredContent).toMatchObject({ status: 'cancelled', step: 'train' })
    expectIncreasingToTotal(progress)
    expect(progress.map((update) => [update.progress, update.message])).toEqual([
      [10, 'Searching trains from Paris to Lyon'],
      [25, 'Waiting for a train choice'],
      [PROGRESS_TOTAL, 'Done'],
    ])
  })

  it('a tool that fails still ends at the total, before its error', async () => {
    const { result, progress } = await served.callWithProgress(era, 'failing', {}, [() => ({ action: 'accept', content: { n: 1 } })])
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
    await client.connect(new StreamableHTTPClientTransport(served.url()))
    served.track(client)
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
