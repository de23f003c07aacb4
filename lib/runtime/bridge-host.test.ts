import { all, createQueue, run, spawn, withResolvers, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { seatMapFor, type Flight, type SeatMap } from '@/plugins/book-flight/flights'
import { bookFlightTool } from '@/plugins/book-flight/tool'
import { createMcpTool } from '../tools/create-mcp-tool'
import { decodeModelContext, MODEL_CONTEXT_BOUNDARY } from '../tools/model-context'
import type { AnyMcpTool, SampleResult } from '../tools/types'
import { createBridgeHost, type BridgeEvent } from './bridge-host'
import { ToolUsageError } from './errors'
import type { ToolSampleRequest } from './tool-client'

const rateSchema = z.object({ stars: z.number().int().min(1).max(5) })
const commentSchema = z.object({ text: z.string().min(1) })
const commentContext = z.object({ stars: z.number(), suggestions: z.array(z.string()) })

/** A small tool that uses every ctx call: log, notify, elicit (plain and typed context), sample. */
const surveyTool = createMcpTool('survey')
  .parameters(z.object({ topic: z.string().min(1) }))
  .elicits({ rate: rateSchema, comment: { response: commentSchema, context: commentContext } })
  .execute(function* ({ topic }, ctx) {
    yield* ctx.log('info', `Survey about ${topic}`)
    yield* ctx.notify('Asking for a rating', 0.5)
    const rating = yield* ctx.elicit('rate', { message: `How was ${topic}?`, topic })
    if (rating.action !== 'accept') return { status: rating.action }
    const summary = yield* ctx.sample({ prompt: `Summarise a ${rating.content.stars}-star rating of ${topic}` })
    const comment = yield* ctx.elicit('comment', {
      message: 'Anything to add?',
      stars: rating.content.stars,
      suggestions: ['More', 'Less'],
    })
    yield* ctx.notify('Thanks', 1)
    return {
      status: 'done',
      stars: rating.content.stars,
      summary: summary.text,
      comment: comment.action === 'accept' ? comment.content.text : comment.action,
    }
  })

/** The host's events, plus each call to its `sample`, which the test answers by hand. */
type HostEvent =
  | BridgeEvent
  | { type: 'sample'; seq: number; request: ToolSampleRequest; resolve(result: SampleResult): void; reject(error: Error): void }
type EventOf<T extends HostEvent['type']> = Extract<HostEvent, { type: T }>
type Ending = { result: unknown } | { error: unknown }

/** Start a tool in a bridge host, collecting the events it emits in order. */
function* startTool({ tool, params, callId = 'call-1' }: { tool: AnyMcpTool; params: unknown; callId?: string }) {
  const events: HostEvent[] = []
  const queue = createQueue<HostEvent, Ending>()
  const record = (event: HostEvent) => {
    events.push(event)
    queue.add(event)
  }
  const host = createBridgeHost({
    tool,
    params,
    callId,
    emit: record,
    *sample(request) {
      const answer = withResolvers<SampleResult>()
      record({ type: 'sample', seq: request.seq, request, resolve: answer.resolve, reject: answer.reject })
      return yield* answer.operation
    },
  })
  const task = yield* spawn(function* () {
    try {
      const result = yield* host.run()
      queue.close({ result })
      return result
    } catch (error) {
      queue.close({ error })
      throw error
    }
  })

  /** The next event of this type; log and notify events on the way are passed over (they stay in `events`). */
  function* next<T extends HostEvent['type']>(type: T): Operation<EventOf<T>> {
    for (;;) {
      const item = yield* queue.next()
      if (item.done) throw new Error(`Expected a ${type} event, but the tool ended: ${String(JSON.stringify(item.value))}`)
      if (item.value.type === type) return item.value as EventOf<T>
      if (item.value.type === 'elicit' || item.value.type === 'sample') {
        throw new Error(`Expected a ${type} event, got ${JSON.stringify(item.value)}`)
      }
    }
  }

  return { host, events, task, next }
}

// eslint-disable-next-line require-yield
function* unreachableSample(): Operation<SampleResult> {
  throw new Error('This test does not sample.')
}

describe('createBridgeHost', () => {
  it('numbers every ctx call with seq from 1, across log, notify, elicit and sample', async () => {
    const { events, result } = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const rate = yield* tool.next('elicit')
      tool.host.respondToElicit(rate.request.elicitId, { action: 'accept', content: { stars: 4 } })
      const sample = yield* tool.next('sample')
      sample.resolve({ text: 'Mostly happy' })
      const comment = yield* tool.next('elicit')
      tool.host.respondToElicit(comment.request.elicitId, { action: 'accept', content: { text: 'Lovely' } })
      return { events: tool.events, result: yield* tool.task }
    })

    expect(events.map((event) => [event.type, event.type === 'elicit' ? event.request.id.seq : event.seq])).toEqual([
      ['log', 1],
      ['notify', 2],
      ['elicit', 3],
      ['sample', 4],
      ['elicit', 5],
      ['notify', 6],
    ])
    expect(events[0]).toEqual({ type: 'log', seq: 1, level: 'info', message: 'Survey about tea' })
    expect(events[1]).toEqual({ type: 'notify', seq: 2, message: 'Asking for a rating', progress: 0.5 })
    expect(events[3]).toMatchObject({ type: 'sample', seq: 4, request: { messages: [{ role: 'user', content: 'Summarise a 4-star rating of tea' }] } })
    expect(result).toEqual({ status: 'done', stars: 4, summary: 'Mostly happy', comment: 'Lovely' })
  })

  it('emits an elicitation with its id, the encoded message and the JSON Schema with x-model-context', async () => {
    await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' }, callId: 'chat/7' })
      const { request } = yield* tool.next('elicit')

      expect(request.elicitId).toBe('survey/rate/chat%2F7/3')
      expect(request.id).toEqual({ toolName: 'survey', key: 'rate', callId: 'chat/7', seq: 3 })
      expect(request.key).toBe('rate')
      expect(request.message).toBe(`How was tea?\n\n${MODEL_CONTEXT_BOUNDARY}\n{"topic":"tea"}`)
      expect(request.schema).toEqual({ ...z.toJSONSchema(rateSchema), 'x-model-context': { topic: 'tea' } })
      expect(request.schema).toMatchObject({
        type: 'object',
        properties: { stars: { type: 'integer', minimum: 1, maximum: 5 } },
        required: ['stars'],
      })
      expect(decodeModelContext(request)).toEqual({ message: 'How was tea?', context: { topic: 'tea' }, source: 'schema' })
      const wire = { elicitId: request.elicitId, key: request.key, message: request.message, schema: request.schema }
      expect(JSON.parse(JSON.stringify(wire))).toEqual(wire)
      expect(tool.host.pendingElicitation()).toBe(request)

      tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 2 } })
      ;(yield* tool.next('sample')).resolve({ text: 'ok' })
      const comment = (yield* tool.next('elicit')).request
      expect(comment.elicitId).toBe('survey/comment/chat%2F7/5')
      expect(comment.schema).toEqual({
        ...z.toJSONSchema(commentSchema),
        'x-model-context': { stars: 2, suggestions: ['More', 'Less'] },
      })
      expect(decodeModelContext({ message: comment.message })).toEqual({
        message: 'Anything to add?',
        context: { stars: 2, suggestions: ['More', 'Less'] },
        source: 'message',
      })
      yield* tool.task.halt()
    })
  })

  it('rejects an invalid answer with its issues and keeps the tool waiting for a valid one', async () => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const { request } = yield* tool.next('elicit')

      const invalid = tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 9 } })
      expect(invalid).toMatchObject({ ok: false, code: 'invalid_response' })
      if (invalid.ok || invalid.code !== 'invalid_response') throw new Error('unreachable')
      expect(invalid.issues).toEqual([{ path: 'stars', message: expect.any(String) }])
      expect(invalid.message).toMatch(/^The answer to 'rate' is not valid: stars: /)
      expect(tool.host.respondToElicit(request.elicitId, { action: 'accept', content: 'five' })).toMatchObject({
        ok: false,
        code: 'invalid_response',
        issues: [{ path: '(root)' }],
      })
      expect(tool.host.pendingElicitation()).toBe(request)

      const valid = tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 3, extra: 'dropped' } })
      expect(valid).toEqual({ ok: true, result: { action: 'accept', content: { stars: 3 } } })
      ;(yield* tool.next('sample')).resolve({ text: 'fine' })
      const comment = yield* tool.next('elicit')
      tool.host.respondToElicit(comment.request.elicitId, { action: 'decline' })
      return yield* tool.task
    })
    expect(result).toEqual({ status: 'done', stars: 3, summary: 'fine', comment: 'decline' })
  })

  it('refuses an answer for another elicitation, and one for an elicitation already answered', async () => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const rate = (yield* tool.next('elicit')).request
      for (const elicitId of ['survey/rate/other-call/3', 'survey/rate/call-1/8', 'survey/comment/call-1/3', 'nonsense']) {
        expect(tool.host.respondToElicit(elicitId, { action: 'accept', content: { stars: 1 } })).toEqual({
          ok: false,
          code: 'elicit_mismatch',
          message: `Elicitation ${elicitId} is not the one tool call call-1 waits for (survey/rate/call-1/3).`,
        })
      }
      tool.host.respondToElicit(rate.elicitId, { action: 'accept', content: { stars: 5 } })

      const sample = yield* tool.next('sample')
      expect(tool.host.pendingElicitation()).toBeUndefined()
      expect(tool.host.respondToElicit(rate.elicitId, { action: 'accept', content: { stars: 1 } })).toEqual({
        ok: false,
        code: 'session_not_waiting',
        message: 'Tool call call-1 is not waiting for an answer.',
      })
      sample.resolve({ text: 'great' })

      const comment = (yield* tool.next('elicit')).request
      expect(tool.host.respondToElicit(rate.elicitId, { action: 'accept', content: { stars: 1 } })).toEqual({
        ok: false,
        code: 'elicit_already_answered',
        message: 'Elicitation survey/rate/call-1/3 was already answered.',
      })
      expect(tool.host.pendingElicitation()).toBe(comment)
      tool.host.respondToElicit(comment.elicitId, { action: 'accept', content: { text: 'Nice' } })
      return yield* tool.task
    })
    expect(result).toEqual({ status: 'done', stars: 5, summary: 'great', comment: 'Nice' })
  })

  it('reports a second answer given before the tool resumed as not applied', async () => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const { request } = yield* tool.next('elicit')
      expect(tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 2 } })).toMatchObject({ ok: true })
      expect(tool.host.pendingElicitation()).toBeUndefined()
      expect(tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 5 } })).toMatchObject({
        ok: false,
        code: 'session_not_waiting',
      })
      ;(yield* tool.next('sample')).resolve({ text: 'meh' })
      yield* tool.next('elicit')
      yield* tool.task.halt()
      return tool.events.filter((event) => event.type === 'sample').map((event) => event.request)
    })
    expect(result).toEqual([
      { seq: 4, depth: 0, messages: [{ role: 'user', content: 'Summarise a 2-star rating of tea' }] },
    ])
  })

  it('lets checkResponse validate an answer without resuming the tool', async () => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const { request } = yield* tool.next('elicit')
      expect(tool.host.checkResponse(request.elicitId, { action: 'accept', content: { stars: 1 } })).toEqual({
        ok: true,
        result: { action: 'accept', content: { stars: 1 } },
      })
      expect(tool.host.checkResponse(request.elicitId, { action: 'accept', content: { stars: 0 } })).toMatchObject({
        ok: false,
        code: 'invalid_response',
      })
      expect(tool.host.checkResponse('survey/rate/call-1/4', { action: 'decline' })).toMatchObject({ ok: false, code: 'elicit_mismatch' })
      expect(tool.host.pendingElicitation()).toBe(request)

      tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 4 } })
      ;(yield* tool.next('sample')).resolve({ text: 'good' })
      tool.host.respondToElicit((yield* tool.next('elicit')).request.elicitId, { action: 'cancel' })
      return yield* tool.task
    })
    expect(result).toEqual({ status: 'done', stars: 4, summary: 'good', comment: 'cancel' })
  })

  it.each(['decline', 'cancel'] as const)('passes %s to the tool', async (action) => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: surveyTool, params: { topic: 'tea' } })
      const { request } = yield* tool.next('elicit')
      expect(tool.host.respondToElicit(request.elicitId, { action })).toEqual({ ok: true, result: { action } })
      return yield* tool.task
    })
    expect(result).toEqual({ status: action })
  })

  it('resumes a sample with the resolved value and throws a rejected sample into the tool', async () => {
    const sampler = createMcpTool('sampler')
      .elicits({})
      .execute(function* (_params, ctx) {
        const first = yield* ctx.sample({ messages: [{ role: 'user', content: 'Hi' }], system: 'Be brief', maxTokens: 10 })
        try {
          yield* ctx.sample({ prompt: 'Again' })
          return { first: first.text, second: 'resolved' }
        } catch (error) {
          return { first: first.text, second: error instanceof Error ? error.message : 'not an Error' }
        }
      })
    const result = await run(function* () {
      const tool = yield* startTool({ tool: sampler, params: {} })
      const first = yield* tool.next('sample')
      expect(first).toMatchObject({
        seq: 1,
        request: { messages: [{ role: 'user', content: 'Hi' }], system: 'Be brief', maxTokens: 10 },
      })
      first.resolve({ text: 'Hello!', usage: { inputTokens: 3, outputTokens: 2 } })
      const second = yield* tool.next('sample')
      expect(second).toMatchObject({ seq: 2, request: { messages: [{ role: 'user', content: 'Again' }] } })
      second.reject(new Error('The model is unavailable'))
      return yield* tool.task
    })
    expect(result).toEqual({ first: 'Hello!', second: 'The model is unavailable' })
  })

  it('lets a rejected sample the tool does not catch fail the run', async () => {
    const sampler = createMcpTool('sampler')
      .elicits({})
      .execute(function* (_params, ctx) {
        return yield* ctx.sample({ prompt: 'Hi' })
      })
    await expect(
      run(function* () {
        const tool = yield* startTool({ tool: sampler, params: {} })
        ;(yield* tool.next('sample')).reject(new Error('The model is unavailable'))
        return yield* tool.task
      }),
    ).rejects.toThrow('The model is unavailable')
  })

  describe('misuse by the tool', () => {
    function* catchIn<T>(operation: () => Operation<T>): Operation<T | Error> {
      try {
        return yield* operation()
      } catch (error) {
        return error as Error
      }
    }

    it.each(['pickSeat', 'toString', 'constructor'])('throws a ToolUsageError for the undeclared key %s', async (key) => {
      const sloppy = createMcpTool('sloppy')
        .elicits({ rate: rateSchema })
        .execute(function* (_params, ctx) {
          const elicit = ctx.elicit as (key: string, options: { message: string }) => Operation<unknown>
          return yield* catchIn(() => elicit(key, { message: 'Which?' }))
        })
      const { error, events } = await run(function* () {
        const tool = yield* startTool({ tool: sloppy, params: {} })
        return { error: yield* tool.task, events: tool.events }
      })
      expect(error).toBeInstanceOf(ToolUsageError)
      expect(error).toMatchObject({
        name: 'ToolUsageError',
        message: `Tool "sloppy" called ctx.elicit('${key}'), which its .elicits() does not declare.`,
      })
      expect(events).toEqual([])
    })

    it('throws a ToolUsageError when the context does not match its declared schema', async () => {
      const sloppy = createMcpTool('sloppy')
        .elicits({ comment: { response: commentSchema, context: commentContext } })
        .execute(function* (_params, ctx) {
          const options = { message: 'Anything?', stars: 'five', suggestions: [] } as unknown as { message: string; stars: number; suggestions: string[] }
          const error = yield* catchIn(() => ctx.elicit('comment', options))
          yield* ctx.log('info', 'still running')
          return error
        })
      const { error, events, pending } = await run(function* () {
        const tool = yield* startTool({ tool: sloppy, params: {} })
        const error = yield* tool.task
        return { error, events: tool.events, pending: tool.host.pendingElicitation() }
      })
      expect(error).toBeInstanceOf(ToolUsageError)
      expect((error as Error).message).toMatch(
        /^Tool "sloppy" passed a context to ctx\.elicit\('comment'\) that does not match its declared schema: stars: /,
      )
      expect(events.map((event) => event.type)).toEqual(['log'])
      expect(pending).toBeUndefined()
    })

    it('throws "one elicitation at a time" for a second elicit while one is pending', async () => {
      const greedy = createMcpTool('greedy')
        .elicits({ rate: rateSchema, comment: commentSchema })
        .execute(function* (_params, ctx) {
          return yield* catchIn(() => all([ctx.elicit('rate', { message: 'Stars?' }), ctx.elicit('comment', { message: 'Words?' })]))
        })
      const { error, events, pending, late } = await run(function* () {
        const tool = yield* startTool({ tool: greedy, params: {} })
        const first = yield* tool.next('elicit')
        const error = yield* tool.task
        return {
          error,
          events: tool.events,
          pending: tool.host.pendingElicitation(),
          late: tool.host.respondToElicit(first.request.elicitId, { action: 'accept', content: { stars: 1 } }),
        }
      })
      expect(error).toBeInstanceOf(ToolUsageError)
      expect(error).toMatchObject({
        message: `Tool "greedy" called ctx.elicit('comment') while 'rate' is still waiting: one elicitation at a time per tool call. Wait for the first answer (yield* it) before asking again.`,
      })
      expect(events.map((event) => event.type === 'elicit' && event.request.elicitId)).toEqual(['greedy/rate/call-1/1'])
      expect(pending).toBeUndefined()
      expect(late).toMatchObject({ ok: false, code: 'session_not_waiting' })
    })
  })

  it('throws "Invalid arguments for …" from run() when the params do not match', async () => {
    const host = createBridgeHost({ tool: surveyTool, params: { topic: '' }, callId: 'call-1', emit: () => {}, sample: unreachableSample })
    const failure = await run(() => host.run()).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ToolUsageError)
    expect((failure as Error).message).toMatch(/^Invalid arguments for survey: topic: /)

    const missing = createBridgeHost({ tool: surveyTool, params: undefined, callId: 'call-1', emit: () => {}, sample: unreachableSample })
    await expect(run(() => missing.run())).rejects.toThrow('Invalid arguments for survey: (root): ')
  })

  it('stops waiting when halted: the pending elicitation is gone and a late answer is refused', async () => {
    let cleanedUp = false
    const patient = createMcpTool('patient')
      .elicits({ rate: rateSchema })
      .execute(function* (_params, ctx) {
        try {
          return yield* ctx.elicit('rate', { message: 'Stars?' })
        } finally {
          cleanedUp = true
        }
      })
    const late = await run(function* () {
      const tool = yield* startTool({ tool: patient, params: {} })
      const { request } = yield* tool.next('elicit')
      yield* tool.task.halt()
      expect(cleanedUp).toBe(true)
      expect(tool.host.pendingElicitation()).toBeUndefined()
      return tool.host.respondToElicit(request.elicitId, { action: 'accept', content: { stars: 3 } })
    })
    expect(late).toMatchObject({ ok: false, code: 'session_not_waiting' })
  })
})

describe('book_flight through the bridge host', () => {
  function contextOf<T>(event: EventOf<'elicit'>): T {
    return event.request.schema['x-model-context'] as T
  }
  function seatAnswer(seat: string) {
    return { row: Number(seat.slice(0, -1)), seat: seat.slice(-1) }
  }

  it('books a flight: flight, a taken seat that is asked again, a free seat, then the tip', async () => {
    const { result, events, chosen } = await run(function* () {
      const tool = yield* startTool({ tool: bookFlightTool, params: { from: 'NYC', destination: 'LAX' }, callId: 'call_abc' })
      const pickFlight = yield* tool.next('elicit')
      expect(pickFlight.request.elicitId).toBe('book_flight/pickFlight/call_abc/4')
      const { from, destination, flights } = contextOf<{ from: string; destination: string; flights: Flight[] }>(pickFlight)
      expect({ from, destination }).toEqual({ from: 'NYC', destination: 'LAX' })
      expect(flights.length).toBeGreaterThan(0)
      expect(decodeModelContext(pickFlight.request).message).toMatch(/^Select your flight from NYC to LAX:\n\n1\. /)

      tool.host.respondToElicit(pickFlight.request.elicitId, { action: 'accept', content: { flightId: 'XX-000' } })
      yield* tool.next('notify')
      const askAgain = yield* tool.next('elicit')
      expect(askAgain.request.key).toBe('pickFlight')
      expect(decodeModelContext(askAgain.request).message).toMatch(/^Flight XX-000 is not one of the offered flights/)
      const flight = flights[1]!
      tool.host.respondToElicit(askAgain.request.elicitId, { action: 'accept', content: { flightId: flight.id } })

      yield* tool.next('notify')
      const pickSeat = yield* tool.next('elicit')
      const { seatMap, flight: shown } = contextOf<{ seatMap: SeatMap; flight: Flight }>(pickSeat)
      expect(shown).toEqual(flight)
      expect(seatMap).toEqual(seatMapFor(flight))
      expect(decodeModelContext(pickSeat.request).message).toBe(`Select your seat on ${flight.flightNumber}:`)

      const lowercase = tool.host.respondToElicit(pickSeat.request.elicitId, { action: 'accept', content: { row: 12, seat: 'c' } })
      expect(lowercase).toMatchObject({ ok: false, code: 'invalid_response', issues: [{ path: 'seat' }] })

      const taken = seatMap.taken[0]!
      expect(taken).toBeDefined()
      tool.host.respondToElicit(pickSeat.request.elicitId, { action: 'accept', content: seatAnswer(taken) })
      yield* tool.next('notify')
      const takenAgain = yield* tool.next('elicit')
      expect(takenAgain.request.key).toBe('pickSeat')
      expect(decodeModelContext(takenAgain.request).message).toBe(
        `Seat ${taken} is taken. Select another seat on ${flight.flightNumber}:`,
      )

      tool.host.respondToElicit(takenAgain.request.elicitId, { action: 'accept', content: { row: 99, seat: 'A' } })
      yield* tool.next('notify')
      const notOnBoard = yield* tool.next('elicit')
      expect(decodeModelContext(notOnBoard.request).message).toMatch(/^Seat 99A is not on this aircraft\./)

      const free = freeSeat(seatMap)
      tool.host.respondToElicit(notOnBoard.request.elicitId, { action: 'accept', content: seatAnswer(free) })
      expect(yield* tool.next('notify')).toMatchObject({ message: 'Finding a travel tip', progress: 0.8 })
      const sample = yield* tool.next('sample')
      expect(sample.request).toMatchObject({
        messages: [{ role: 'user', content: expect.stringContaining('LAX') }],
        maxTokens: 120,
      })
      sample.resolve({ text: '  Take the FlyAway bus to Union Station.  ' })
      const result = yield* tool.task
      return { result, events: tool.events, chosen: { flight, free } }
    })

    expect(result).toEqual({
      status: 'confirmed',
      ticketNumber: expect.stringMatching(/^TKT-[A-Z2-9]{6}$/),
      flight: chosen.flight,
      seat: chosen.free,
      price: chosen.flight.price,
      tip: 'Take the FlyAway bus to Union Station.',
    })
    expect(events.map((event) => (event.type === 'elicit' ? event.request.id.seq : event.seq))).toEqual(
      events.map((_event, index) => index + 1),
    )
    expect(events.slice(-2)).toEqual([
      { type: 'log', seq: events.length - 1, level: 'info', message: `Issued a ticket for ${chosen.flight.flightNumber}, seat ${chosen.free}` },
      { type: 'notify', seq: events.length, message: 'Booking confirmed', progress: 1 },
    ])
  })

  it('returns cancelled at the flight step when the user declines', async () => {
    const result = await run(function* () {
      const tool = yield* startTool({ tool: bookFlightTool, params: { from: 'NYC', destination: 'LAX' } })
      const pickFlight = yield* tool.next('elicit')
      tool.host.respondToElicit(pickFlight.request.elicitId, { action: 'decline' })
      return yield* tool.task
    })
    expect(result).toEqual({
      status: 'cancelled',
      step: 'flight',
      message: 'The user declined to choose a flight; nothing was booked.',
    })
  })

  it('refuses arguments that are too short', async () => {
    const host = createBridgeHost({ tool: bookFlightTool, params: { from: 'N', destination: 'LAX' }, callId: 'c', emit: () => {}, sample: unreachableSample })
    await expect(run(() => host.run())).rejects.toThrow(/^Invalid arguments for book_flight: from: /)
  })
})

function freeSeat(seatMap: SeatMap): string {
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const letter of seatMap.letters) {
      if (!seatMap.taken.includes(`${row}${letter}`)) return `${row}${letter}`
    }
  }
  throw new Error('The cabin is full')
}
