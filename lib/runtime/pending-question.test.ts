import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { formatElicitId, readElicitId } from '../protocol/elicit-id'
import { questionSchema } from '../protocol/question'
import type { ElicitAnswer, ElicitId } from '../tools/types'
import { PendingQuestion } from './pending-question'

const rateSchema = z.object({ stars: z.number().int().min(1).max(5), note: z.string().default('none') })
const commentSchema = z.object({ text: z.string().min(1) })

/** The question a tool call `callId` asks as its ctx call `seq`, the way the runtime builds it. */
function question({
  key = 'rate',
  callId = 'call-1',
  seq = 3,
  text = 'How was tea?',
  context = { topic: 'tea' } as Record<string, unknown>,
  schema = rateSchema as z.ZodType,
} = {}): PendingQuestion {
  const id: ElicitId = { toolName: 'survey', key, callId, seq }
  const asked = PendingQuestion.ask(formatElicitId(id), id, text, context, schema)
  if (!(asked instanceof PendingQuestion)) throw new Error(`the context does not fit: ${JSON.stringify(asked.issues)}`)
  return asked
}

const accept = (content: unknown): ElicitAnswer<unknown> => ({ action: 'accept', content })

describe('PendingQuestion.check', () => {
  it('refuses an answer naming another elicitation as a mismatch, whatever its content', () => {
    const request = question()
    expect(request.elicitId).toBe('survey/rate/call-1/3')
    for (const elicitId of [
      'survey/rate/other-call/3', // another tool call
      'survey/rate/other-call/1', // a lower seq, but of another tool call
      'survey/rate/call-1/8', // a later ctx call of this one
      'survey/comment/call-1/3', // the same seq under another key
      'survey/rate/call-1', // not an elicitation id at all
      'nonsense',
      '',
    ]) {
      expect(request.check(readElicitId(elicitId), accept({ stars: 9 }))).toEqual({
        ok: false,
        code: 'elicit_mismatch',
        message: `Elicitation ${elicitId} is not the one tool call call-1 waits for (survey/rate/call-1/3).`,
      })
    }
  })

  it('names the waiting call by its decoded id, and matches ids with encoded call ids', () => {
    const request = question({ callId: 'chat/7' })
    expect(request.elicitId).toBe('survey/rate/chat%2F7/3')
    expect(request.check(readElicitId('survey/rate/chat/7/3'), accept({ stars: 2 }))).toEqual({
      ok: false,
      code: 'elicit_mismatch',
      message: 'Elicitation survey/rate/chat/7/3 is not the one tool call chat/7 waits for (survey/rate/chat%2F7/3).',
    })
    expect(request.check(readElicitId('survey/rate/chat%2F7/3'), accept({ stars: 2 }))).toEqual({
      ok: true,
      answer: { action: 'accept', content: { stars: 2, note: 'none' } },
    })
  })

  it('refuses an answer for an elicitation of the same call that was already answered (a lower seq)', () => {
    const request = question({ key: 'comment', seq: 6, schema: commentSchema, context: {} })
    for (const elicitId of ['survey/rate/call-1/3', 'survey/comment/call-1/5', 'survey/comment/call-1/1']) {
      expect(request.check(readElicitId(elicitId), accept({ text: 'Nice' }))).toEqual({
        ok: false,
        code: 'elicit_already_answered',
        message: `Elicitation ${elicitId} was already answered.`,
      })
    }
    // The encoded call id is decoded before it is compared.
    const encoded = question({ callId: 'chat/7', seq: 6 })
    expect(encoded.check(readElicitId('survey/rate/chat%2F7/4'), accept({ stars: 1 }))).toMatchObject({ ok: false, code: 'elicit_already_answered' })
  })

  it('refuses invalid content with its issues, the message naming the key and the field', () => {
    const request = question()
    const outOfRange = request.check(readElicitId(request.elicitId), accept({ stars: 9 }))
    expect(outOfRange).toEqual({
      ok: false,
      code: 'invalid_response',
      message: expect.stringMatching(/^The answer to 'rate' is not valid: stars: \S/),
      issues: [{ path: 'stars', message: expect.any(String) }],
    })
    if (outOfRange.ok || outOfRange.code !== 'invalid_response') throw new Error('unreachable')
    expect(outOfRange.message).toBe(`The answer to 'rate' is not valid: stars: ${outOfRange.issues[0]!.message}`)

    expect(request.check(readElicitId(request.elicitId), accept('five'))).toMatchObject({
      ok: false,
      code: 'invalid_response',
      message: expect.stringMatching(/^The answer to 'rate' is not valid: \(root\): /),
      issues: [{ path: '(root)' }],
    })
    expect(request.check(readElicitId(request.elicitId), { action: 'accept' } as ElicitAnswer<unknown>)).toMatchObject({
      ok: false,
      code: 'invalid_response',
      issues: [{ path: '(root)' }],
    })
    // Two fields wrong: both named, in order, separated by "; ".
    const two = request.check(readElicitId(request.elicitId), accept({ stars: 'x', note: 3 }))
    expect(two).toMatchObject({ ok: false, code: 'invalid_response', issues: [{ path: 'stars' }, { path: 'note' }] })
    expect(two.ok === false && two.message).toMatch(/^The answer to 'rate' is not valid: stars: .+; note: .+$/)
  })

  it('names nested fields by their path', () => {
    const request = question({ key: 'pickSeat', schema: z.object({ seat: z.object({ row: z.number().int().positive() }) }) })
    expect(request.check(readElicitId(request.elicitId), accept({ seat: { row: -1 } }))).toMatchObject({
      ok: false,
      code: 'invalid_response',
      message: expect.stringMatching(/^The answer to 'pickSeat' is not valid: seat\.row: /),
      issues: [{ path: 'seat.row' }],
    })
  })

  it('accepts valid content and returns it parsed: defaults applied, unknown keys dropped', () => {
    const request = question()
    expect(request.check(readElicitId(request.elicitId), accept({ stars: 3, extra: 'dropped' }))).toEqual({
      ok: true,
      answer: { action: 'accept', content: { stars: 3, note: 'none' } },
    })
    expect(request.check(readElicitId(request.elicitId), accept({ stars: 5, note: 'Lovely' }))).toEqual({
      ok: true,
      answer: { action: 'accept', content: { stars: 5, note: 'Lovely' } },
    })
  })

  it.each(['decline', 'cancel'] as const)('passes %s without content, and drops any content sent with it', (action) => {
    const request = question()
    expect(request.check(readElicitId(request.elicitId), { action })).toEqual({ ok: true, answer: { action } })
    const withContent = { action, content: { stars: 99 } } as unknown as ElicitAnswer<unknown>
    expect(request.check(readElicitId(request.elicitId), withContent)).toEqual({ ok: true, answer: { action } })
    // The id is checked first: a decline for another elicitation is still a mismatch.
    expect(request.check(readElicitId('survey/rate/call-1/4'), { action })).toMatchObject({ ok: false, code: 'elicit_mismatch' })
  })
})

describe('PendingQuestion.validate', () => {
  it('checks content like check, without an id, its message without the leading "The"', () => {
    const request = question()
    expect(request.validate(accept({ stars: 1 }))).toEqual({ ok: true, answer: { action: 'accept', content: { stars: 1, note: 'none' } } })
    expect(request.validate({ action: 'cancel' })).toEqual({ ok: true, answer: { action: 'cancel' } })
    expect(request.validate(accept({ stars: 0 }))).toMatchObject({
      ok: false,
      code: 'invalid_response',
      message: expect.stringMatching(/^answer to 'rate' is not valid: stars: /),
      issues: [{ path: 'stars' }],
    })
  })
})

describe('the question on the wire', () => {
  it('carries its ids, its message and its context as given, and the answer’s JSON Schema: the shape that travels', () => {
    const request = question({ callId: 'chat/7' })
    expect(request.key).toBe('rate')
    expect(request.id).toEqual({ toolName: 'survey', key: 'rate', callId: 'chat/7', seq: 3 })
    expect(request.question).toEqual({
      sessionId: 'chat/7',
      callId: 'chat/7',
      toolName: 'survey',
      elicitId: 'survey/rate/chat%2F7/3',
      key: 'rate',
      message: 'How was tea?',
      context: { topic: 'tea' },
      schema: z.toJSONSchema(rateSchema),
      fieldTitles: { stars: 'stars', note: 'note' },
      form: expect.objectContaining({ type: 'object', properties: expect.objectContaining({ stars: expect.objectContaining({ type: 'integer' }) }) }),
    })
    expect(request.question.schema).toMatchObject({
      type: 'object',
      properties: { stars: { type: 'integer', minimum: 1, maximum: 5 }, note: { type: 'string', default: 'none' } },
      // (z.toJSONSchema's output form also lists `note`, which has a default, as required.)
      required: expect.arrayContaining(['stars']),
    })
    // The message is the tool's own words: nothing is encoded into it, nor into the schema.
    expect(JSON.stringify(request.question.schema)).not.toContain('tea')
    // What travels is what the protocol's schema reads, unchanged.
    const wire = JSON.parse(JSON.stringify(request.question)) as unknown
    expect(questionSchema.parse(wire)).toEqual(wire)
  })

  it('keeps a context whose keys are named as the question’s own fields intact, beside them', () => {
    const context = { message: 'the context’s', key: 'k', elicitId: 'e', schema: 's', choices: 'c', context: 'inner', type: 't' }
    const request = question({ text: 'How was tea?', context })
    expect(request.question).toMatchObject({ message: 'How was tea?', key: 'rate', elicitId: 'survey/rate/call-1/3', context })
    expect(request.toRecord()).toEqual({ seq: 3, key: 'rate', elicitId: 'survey/rate/call-1/3', message: 'How was tea?', context })
  })

  it('keeps each question its own context when two share a schema', () => {
    const first = question({ seq: 3, context: { topic: 'tea', suggestions: ['More', 'Less'] } })
    const second = question({ seq: 5, context: { topic: 'coffee' } })
    expect(first.question.context).toEqual({ topic: 'tea', suggestions: ['More', 'Less'] })
    expect(second.question.context).toEqual({ topic: 'coffee' })
    expect(first.question.schema).toEqual(second.question.schema)
  })

  it('sends a question without context with an empty one', () => {
    const request = question({ key: 'comment', schema: commentSchema, context: {}, text: 'Anything to add?' })
    expect(request.question).toMatchObject({ message: 'Anything to add?', context: {}, schema: z.toJSONSchema(commentSchema) })
  })
})
