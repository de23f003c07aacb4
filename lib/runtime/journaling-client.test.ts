import { all, run, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { PendingQuestion } from './pending-question'
import { ToolUsageError } from './errors'
import type { JournalEntry } from './journal'
import { replayOnly, startTool } from './testing/start-tool'

const rateSchema = z.object({ stars: z.number().int().min(1).max(5) })
const commentSchema = z.object({ text: z.string().min(1) })
const commentContext = z.object({ stars: z.number(), suggestions: z.array(z.string()) })

/**
 * A small tool that uses every ctx call: log, notify, elicit (plain and typed context), sample
 * and a step whose value is random. It writes what it receives to `trail`, the same log the
 * client's seam writes to, so the order of the two can be asserted.
 */
function surveyTool(trail: string[]) {
  return createMcpTool('survey')
    .parameters(z.object({ topic: z.string().min(1) }))
    .elicits({ rate: rateSchema, comment: { response: commentSchema, context: commentContext } })
    .execute(function* ({ topic }, ctx) {
      yield* ctx.log('info', `Survey about ${topic}`)
      yield* ctx.notify('Asking for a rating', 0.5)
      const rating = yield* ctx.elicit('rate', { message: `How was ${topic}?`, topic })
      trail.push(`tool: rated ${rating.action === 'accept' ? rating.content.stars : rating.action}`)
      if (rating.action !== 'accept') return { status: rating.action }
      const summary = yield* ctx.sample({ prompt: `Summarise a ${rating.content.stars}-star rating of ${topic}` })
      trail.push(`tool: summary ${summary.text}`)
      const code = yield* ctx.step('draw code', function* () {
        trail.push('step work')
        return `code-${Math.random().toString(36).slice(2)}`
      })
      trail.push(`tool: code`)
      const comment = yield* ctx.elicit('comment', {
        message: 'Anything to add?',
        stars: rating.content.stars,
        suggestions: ['More', 'Less'],
      })
      trail.push(`tool: comment ${comment.action}`)
      yield* ctx.notify('Thanks', 1)
      return {
        status: 'done',
        stars: rating.content.stars,
        summary: summary.text,
        code,
        comment: comment.action === 'accept' ? comment.content.text : comment.action,
      }
    })
}

async function failureOf(operation: () => Operation<unknown>): Promise<unknown> {
  try {
    await run(operation)
  } catch (error) {
    return error
  }
  throw new Error('expected the run to fail')
}

function* catchIn<T>(operation: () => Operation<T>): Operation<T | Error> {
  try {
    return yield* operation()
  } catch (error) {
    return error as Error
  }
}

/** The survey answered 4 stars, "Mostly happy", "Lovely", live. */
function answeredSurvey() {
  return run(function* () {
    const trail: string[] = []
    const tool = yield* startTool({ tool: surveyTool(trail), params: { topic: 'tea' }, trail })
    const rate = yield* tool.next('ask')
    expect(rate.answer({ action: 'accept', content: { stars: 4 } })).toEqual({ ok: true, answer: { action: 'accept', content: { stars: 4 } } })
    const sample = yield* tool.next('sample')
    sample.resolve({ text: 'Mostly happy', usage: { inputTokens: 12, outputTokens: 3 } })
    const comment = yield* tool.next('ask')
    comment.answer({ action: 'accept', content: { text: 'Lovely' } })
    const result = yield* tool.task
    return { result, trail, journal: tool.journal, emitted: tool.emitted, requests: { rate, sample, comment } }
  })
}

describe('a journaling client, live', () => {
  it('numbers every ctx call from 1 across log, notify, elicit, sample and step', async () => {
    const { result, trail, journal, emitted, requests } = await answeredSurvey()

    expect(requests.rate.request.id).toEqual({ toolName: 'survey', key: 'rate', callId: 'call-1', seq: 3 })
    expect(requests.sample.request).toEqual({
      toolName: 'survey',
      seq: 4,
      depth: 0,
      messages: [{ role: 'user', content: 'Summarise a 4-star rating of tea' }],
      system: undefined,
      maxTokens: undefined,
      schema: undefined,
    })
    expect(requests.comment.request.id).toEqual({ toolName: 'survey', key: 'comment', callId: 'call-1', seq: 6 })
    expect(emitted).toEqual([
      { type: 'log', seq: 1, level: 'info', message: 'Survey about tea' },
      { type: 'notify', seq: 2, message: 'Asking for a rating', progress: 0.5 },
      { type: 'notify', seq: 7, message: 'Thanks', progress: 1 },
    ])
    const code = (result as { code: string }).code
    expect(code).toMatch(/^code-[0-9a-z]+$/)
    expect(journal).toEqual([
      { seq: 3, kind: 'elicit', key: 'rate', answer: { action: 'accept', content: { stars: 4 } } },
      { seq: 4, kind: 'sample', text: 'Mostly happy', usage: { inputTokens: 12, outputTokens: 3 } },
      { seq: 5, kind: 'step', name: 'draw code', value: code },
      { seq: 6, kind: 'elicit', key: 'comment', answer: { action: 'accept', content: { text: 'Lovely' } } },
    ])
    expect(result).toEqual({ status: 'done', stars: 4, summary: 'Mostly happy', code, comment: 'Lovely' })
    // Every sample and step result is handed to record, and record has returned, before the tool sees it.
    expect(trail).toEqual([
      'emit log 1',
      'emit notify 2',
      'ask rate 3',
      'answered 3',
      'tool: rated 4',
      'sample 4',
      'record sample 4',
      'recorded 4',
      'tool: summary Mostly happy',
      'step work',
      'record step 5',
      'recorded 5',
      'tool: code',
      'ask comment 6',
      'answered 6',
      'tool: comment accept',
      'emit notify 7',
    ])
  })

  it('asks the question with its id, its message and context as given, and the answer’s JSON Schema', async () => {
    await run(function* () {
      const trail: string[] = []
      const tool = yield* startTool({ tool: surveyTool(trail), params: { topic: 'tea' }, callId: 'chat/7', trail })
      const { request, answer } = yield* tool.next('ask')
      expect(request.elicitId).toBe('survey/rate/chat%2F7/3')
      expect(request.key).toBe('rate')
      expect(request.question).toMatchObject({ message: 'How was tea?', context: { topic: 'tea' }, schema: z.toJSONSchema(rateSchema) })

      // An invalid answer leaves the tool waiting; the valid one it gets parsed (unknown keys dropped).
      expect(answer({ action: 'accept', content: { stars: 9 } })).toMatchObject({ ok: false, code: 'invalid_response', issues: [{ path: 'stars' }] })
      expect(answer({ action: 'accept', content: { stars: 2 } }, 'survey/rate/chat%2F7/4')).toMatchObject({ ok: false, code: 'elicit_mismatch' })
      expect(trail).toEqual(['emit log 1', 'emit notify 2', 'ask rate 3'])
      answer({ action: 'accept', content: { stars: 2, extra: 'dropped' } })
      ;(yield* tool.next('sample')).resolve({ text: 'ok' })

      const comment = (yield* tool.next('ask')).request
      expect(comment.elicitId).toBe('survey/comment/chat%2F7/6')
      expect(comment.question).toMatchObject({
        message: 'Anything to add?',
        context: { stars: 2, suggestions: ['More', 'Less'] },
        schema: z.toJSONSchema(commentSchema),
      })
      expect(trail).toContain('tool: rated 2')
      yield* tool.task.halt()
    })
  })

  it.each(['decline', 'cancel'] as const)('passes %s to the tool and journals it', async (action) => {
    const { result, journal } = await run(function* () {
      const trail: string[] = []
      const tool = yield* startTool({ tool: surveyTool(trail), params: { topic: 'tea' }, trail })
      expect((yield* tool.next('ask')).answer({ action })).toEqual({ ok: true, answer: { action } })
      return { result: yield* tool.task, journal: tool.journal }
    })
    expect(result).toEqual({ status: action })
    expect(journal).toEqual([{ seq: 3, kind: 'elicit', key: 'rate', answer: { action } }])
  })

  it('resumes a sample with its result and throws a rejected sample into the tool, recording only the result', async () => {
    const sampler = createMcpTool('sampler')
      .elicits({})
      .execute(function* (_params, ctx) {
        const first = yield* ctx.sample({ messages: [{ role: 'user', content: 'Hi' }], system: 'Be brief', maxTokens: 10 })
        try {
          yield* ctx.sample({ prompt: 'Again' })
          return { first: first.text, second: 'resolved' }
        } catch (error) {
          const second = error instanceof Error ? error.message : 'not an Error'
          const after = yield* ctx.step('after', function* () {
            return 'went on'
          })
          return { first: first.text, second, after }
        }
      })
    const { result, trail, journal } = await run(function* () {
      const tool = yield* startTool({ tool: sampler, params: {} })
      const first = yield* tool.next('sample')
      expect(first.request).toEqual({
        toolName: 'sampler',
        seq: 1,
        depth: 0,
        messages: [{ role: 'user', content: 'Hi' }],
        system: 'Be brief',
        maxTokens: 10,
        schema: undefined,
      })
      first.resolve({ text: 'Hello!', usage: { inputTokens: 3, outputTokens: 2 } })
      const second = yield* tool.next('sample')
      expect(second.request).toMatchObject({ seq: 2, messages: [{ role: 'user', content: 'Again' }] })
      second.reject(new Error('The model is unavailable'))
      return { result: yield* tool.task, trail: tool.trail, journal: tool.journal }
    })
    expect(result).toEqual({ first: 'Hello!', second: 'The model is unavailable', after: 'went on' })
    expect(trail).toEqual(['sample 1', 'record sample 1', 'recorded 1', 'sample 2', 'record step 3', 'recorded 3'])
    expect(journal).toEqual([
      { seq: 1, kind: 'sample', text: 'Hello!', usage: { inputTokens: 3, outputTokens: 2 } },
      { seq: 3, kind: 'step', name: 'after', value: 'went on' },
    ])
  })

  it('lets a rejected sample the tool does not catch fail the run, with nothing recorded', async () => {
    const sampler = createMcpTool('sampler')
      .elicits({})
      .execute(function* (_params, ctx) {
        return yield* ctx.sample({ prompt: 'Hi' })
      })
    const journal: JournalEntry[][] = []
    const failure = await failureOf(function* () {
      const tool = yield* startTool({ tool: sampler, params: {} })
      journal.push(tool.journal)
      ;(yield* tool.next('sample')).reject(new Error('The model is unavailable'))
      return yield* tool.task
    })
    expect(failure).toMatchObject({ message: 'The model is unavailable' })
    expect(journal).toEqual([[]])
  })

  describe('misuse by the tool', () => {
    it.each(['pickSeat', 'toString', 'constructor'])('throws a ToolUsageError for the undeclared key %s, asking nothing', async (key) => {
      const sloppy = createMcpTool('sloppy')
        .elicits({ rate: rateSchema })
        .execute(function* (_params, ctx) {
          const elicit = ctx.elicit as (key: string, options: { message: string }) => Operation<unknown>
          return yield* catchIn(() => elicit(key, { message: 'Which?' }))
        })
      const { error, trail } = await run(function* () {
        const tool = yield* startTool({ tool: sloppy, params: {} })
        return { error: yield* tool.task, trail: tool.trail }
      })
      expect(error).toBeInstanceOf(ToolUsageError)
      expect(error).toMatchObject({ message: `Tool "sloppy" called ctx.elicit('${key}'), which its .elicits() does not declare.` })
      expect(trail).toEqual([])
    })

    it('throws a ToolUsageError when the context does not match its declared schema, asking nothing', async () => {
      const sloppy = createMcpTool('sloppy')
        .elicits({ comment: { response: commentSchema, context: commentContext } })
        .execute(function* (_params, ctx) {
          const options = { message: 'Anything?', stars: 'five', suggestions: [] } as unknown as {
            message: string
            stars: number
            suggestions: string[]
          }
          const error = yield* catchIn(() => ctx.elicit('comment', options))
          yield* ctx.log('info', 'still running')
          return error
        })
      const { error, trail, emitted } = await run(function* () {
        const tool = yield* startTool({ tool: sloppy, params: {} })
        return { error: yield* tool.task, trail: tool.trail, emitted: tool.emitted }
      })
      expect(error).toBeInstanceOf(ToolUsageError)
      expect((error as Error).message).toMatch(
        /^Tool "sloppy" passed a context to ctx\.elicit\('comment'\) that does not match its declared schema: stars: /,
      )
      // The refused elicitation still took its number: the log after it is ctx call 2.
      expect(trail).toEqual(['emit log 2'])
      expect(emitted).toEqual([{ type: 'log', seq: 2, level: 'info', message: 'still running' }])
    })

    it('throws "one elicitation at a time" for a second elicit while one waits, and stops asking the first', async () => {
      const greedy = createMcpTool('greedy')
        .elicits({ rate: rateSchema, comment: commentSchema })
        .execute(function* (_params, ctx) {
          const error = yield* catchIn(() => all([ctx.elicit('rate', { message: 'Stars?' }), ctx.elicit('comment', { message: 'Words?' })]))
          // The first question was given up: the tool may ask again, as ctx call 2.
          const again = yield* ctx.elicit('comment', { message: 'Words, then?' })
          return { error, again }
        })
      const { result, asked, trail, journal } = await run(function* () {
        const tool = yield* startTool({ tool: greedy, params: {} })
        const first = yield* tool.next('ask')
        const second = yield* tool.next('ask')
        second.answer({ action: 'decline' })
        return { result: yield* tool.task, asked: [first.request.elicitId, second.request.elicitId], trail: tool.trail, journal: tool.journal }
      })
      const { error, again } = result as { error: unknown; again: unknown }
      expect(error).toBeInstanceOf(ToolUsageError)
      expect(error).toMatchObject({
        message: `Tool "greedy" called ctx.elicit('comment') while 'rate' is still waiting: one elicitation at a time per tool call. Wait for the first answer (yield* it) before asking again.`,
      })
      expect(again).toEqual({ action: 'decline' })
      expect(asked).toEqual(['greedy/rate/call-1/1', 'greedy/comment/call-1/2'])
      expect(trail).toEqual(['ask rate 1', 'ask halted 1', 'ask comment 2', 'answered 2'])
      expect(journal).toEqual([{ seq: 2, kind: 'elicit', key: 'comment', answer: { action: 'decline' } }])
    })
  })

  it('refuses params that do not match with "Invalid arguments for …", before any ctx call', async () => {
    const trail: string[] = []
    const tooShort = await failureOf(function* () {
      const tool = yield* startTool({ tool: surveyTool(trail), params: { topic: '' }, trail })
      return yield* tool.task
    })
    expect(tooShort).toBeInstanceOf(ToolUsageError)
    expect((tooShort as Error).message).toMatch(/^Invalid arguments for survey: topic: \S/)

    const missing = await failureOf(function* () {
      const tool = yield* startTool({ tool: surveyTool(trail), params: undefined, trail })
      return yield* tool.task
    })
    expect(missing).toBeInstanceOf(ToolUsageError)
    expect((missing as Error).message).toMatch(/^Invalid arguments for survey: \(root\): \S/)

    const train = await failureOf(function* () {
      const tool = yield* startTool({ tool: bookTrainTool, params: { from: 'P', to: 'Lyon' }, trail })
      return yield* tool.task
    })
    expect((train as Error).message).toMatch(/^Invalid arguments for book_train: from: \S/)
    expect(trail).toEqual([])
  })

  it('runs the tool\'s finally when the run is halted while it waits on ask', async () => {
    const patient = (trail: string[]) =>
      createMcpTool('patient')
        .elicits({ rate: rateSchema })
        .execute(function* (_params, ctx) {
          try {
            return yield* ctx.elicit('rate', { message: 'Stars?' })
          } finally {
            trail.push('tool: finally')
          }
        })
    const { trail, journal } = await run(function* () {
      const trail: string[] = []
      const tool = yield* startTool({ tool: patient(trail), params: {}, trail })
      yield* tool.next('ask')
      yield* tool.task.halt()
      return { trail, journal: tool.journal }
    })
    // The question is given up first, then the tool's own cleanup runs; nothing is recorded.
    expect(trail).toEqual(['ask rate 1', 'ask halted 1', 'tool: finally'])
    expect(journal).toEqual([])
  })
})

describe('a journaling client, replayed', () => {
  it('replays a finished run: nothing asked, sampled, stepped or emitted again up to the horizon, the same result', async () => {
    const first = await answeredSurvey()
    const trail: string[] = []
    const again = await replayOnly(surveyTool(trail), { topic: 'tea' }, first.journal)

    expect(again.result).toEqual(first.result)
    // The tool ran again through its code, but the seam saw only the progress after the horizon (6).
    expect(trail).toEqual(['tool: rated 4', 'tool: summary Mostly happy', 'tool: code', 'tool: comment accept'])
    expect(again.trail).toEqual(['emit notify 7'])
    expect(again.emitted).toEqual([{ type: 'notify', seq: 7, message: 'Thanks', progress: 1 }])
    expect(again.journal).toEqual(first.journal)
  })

  it('replays up to a question still waiting and asks it live, then finishes the same', async () => {
    const first = await answeredSurvey()
    // As a session stored while it waited for the comment: the journal up to the step (seq 5).
    const stored = first.journal.filter((entry) => entry.seq <= 5)
    const { result, trail, journal } = await run(function* () {
      const trail: string[] = []
      const tool = yield* startTool({ tool: surveyTool(trail), params: { topic: 'tea' }, journal: stored, trail })
      const comment = yield* tool.next('ask')
      expect(comment.request.elicitId).toBe('survey/comment/call-1/6')
      comment.answer({ action: 'accept', content: { text: 'Lovely' } })
      return { result: yield* tool.task, trail, journal: tool.journal }
    })
    expect(result).toEqual(first.result)
    expect(trail).toEqual([
      'tool: rated 4',
      'tool: summary Mostly happy',
      'tool: code',
      'ask comment 6',
      'answered 6',
      'tool: comment accept',
      'emit notify 7',
    ])
    expect(journal).toEqual(first.journal)
  })
})

describe('a tool that asks again through a journaling client (the book_train fixture)', () => {
  function contextOf<T>(request: PendingQuestion): T {
    return request.context as T
  }

  function* book(trail: string[]) {
    const tool = yield* startTool({ tool: bookTrainTool, params: { from: 'Paris', to: 'Lyon' }, callId: 'call_abc', trail })
    const pickTrain = yield* tool.next('ask')
    expect(pickTrain.request.elicitId).toBe('book_train/pickTrain/call_abc/4')
    const { trains } = contextOf<{ trains: Train[] }>(pickTrain.request)

    // An id that was not offered: the tool's own check asks again, as a ctx call of its own.
    pickTrain.answer({ action: 'accept', content: { trainId: 'XX-000' } })
    const askAgain = yield* tool.next('ask')
    expect(askAgain.request.elicitId).toBe('book_train/pickTrain/call_abc/6')
    expect(askAgain.request.message).toMatch(/^Train XX-000 is not one of the offered trains\. Select your train:\n\n1\. /)
    const train = trains[1]!
    askAgain.answer({ action: 'accept', content: { trainId: train.id } })

    const pickSeat = yield* tool.next('ask')
    const { seatMap, train: shown } = contextOf<{ seatMap: SeatMap; train: Train }>(pickSeat.request)
    expect(shown).toEqual(train)
    // An answer of the wrong shape is refused by the schema: the tool never sees it, and nothing is numbered for it.
    expect(pickSeat.answer({ action: 'accept', content: { row: 2, seat: 'b' } })).toMatchObject({ ok: false, code: 'invalid_response', issues: [{ path: 'seat' }] })
    const taken = seatMap.taken[0]!
    pickSeat.answer({ action: 'accept', content: { row: Number(taken.slice(0, -1)), seat: taken.slice(-1) } })
    const takenAgain = yield* tool.next('ask')
    expect(takenAgain.request.message).toBe(`Seat ${taken} is taken. Select another seat on ${train.number}:`)

    const free = freeSeats(seatMap)[0]!
    takenAgain.answer({ action: 'accept', content: free })
    const sample = yield* tool.next('sample')
    expect(sample.request).toMatchObject({ seq: 12, messages: [{ role: 'user', content: expect.stringContaining('Lyon') }], maxTokens: 120 })
    sample.resolve({ text: '  Platform 3 is at the far end.  ' })
    const result = yield* tool.task
    return { result, journal: tool.journal, emitted: tool.emitted, train, seat: `${free.row}${free.seat}` }
  }

  it('numbers each question asked again as its own ctx call, and records the sample and the step before the tool goes on', async () => {
    const trail: string[] = []
    const { result, journal, emitted, train, seat } = await run(() => book(trail))
    const ticketNumber = (result as { ticketNumber: string }).ticketNumber
    expect(result).toEqual({
      status: 'confirmed',
      ticketNumber: expect.stringMatching(/^TKT-[A-Z2-9]{6}$/),
      train,
      seat,
      price: train.price,
      tip: 'Platform 3 is at the far end.',
    })
    expect(trail).toEqual([
      'emit notify 1',
      'emit log 2',
      'emit notify 3',
      'ask pickTrain 4',
      'answered 4',
      'emit notify 5',
      'ask pickTrain 6',
      'answered 6',
      'emit notify 7',
      'ask pickSeat 8',
      'answered 8',
      'emit notify 9',
      'ask pickSeat 10',
      'answered 10',
      'emit notify 11',
      'sample 12',
      'record sample 12',
      'recorded 12',
      'record step 13',
      'recorded 13',
      'emit log 14',
      'emit notify 15',
    ])
    expect(journal.map((entry) => [entry.seq, entry.kind])).toEqual([
      [4, 'elicit'],
      [6, 'elicit'],
      [8, 'elicit'],
      [10, 'elicit'],
      [12, 'sample'],
      [13, 'step'],
    ])
    expect(journal.at(-1)).toEqual({ seq: 13, kind: 'step', name: 'issue ticket', value: ticketNumber })
    expect(emitted.slice(-2)).toEqual([
      { type: 'log', seq: 14, level: 'info', message: `Issued ticket ${ticketNumber} for ${train.number}, seat ${seat}` },
      { type: 'notify', seq: 15, message: 'Booking confirmed', progress: 1 },
    ])
  })

  it('books the same ticket when replayed from its journal, asking nothing again', async () => {
    const first = await run(() => book([]))
    const again = await replayOnly(bookTrainTool, { from: 'Paris', to: 'Lyon' }, first.journal, 'call_abc')
    expect(again.result).toEqual(first.result)
    expect(again.trail).toEqual(['emit log 14', 'emit notify 15'])
  })

  it('journals a decline of the first question, and ends', async () => {
    const { result, journal } = await run(function* () {
      const tool = yield* startTool({ tool: bookTrainTool, params: { from: 'Paris', to: 'Lyon' } })
      ;(yield* tool.next('ask')).answer({ action: 'decline' })
      return { result: yield* tool.task, journal: tool.journal }
    })
    expect(result).toEqual({ status: 'cancelled', step: 'train', message: 'The user declined to choose a train; nothing was booked.' })
    expect(journal).toEqual([{ seq: 4, kind: 'elicit', key: 'pickTrain', answer: { action: 'decline' } }])
  })
})
