import { run, sleep } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createBranchTool } from '../tools/create-mcp-tool'
import { createMockBranchClient } from './mock-branch-client'
import { runBranchTool } from './run-branch-tool'

const quiz = createBranchTool('quiz')
  .parameters(z.object({ topic: z.string() }))
  .elicits({ answer: z.object({ text: z.string() }) })
  .execute(function* ({ topic }, ctx) {
    yield* ctx.log('info', `Quiz on ${topic}`)
    const question = yield* ctx.sample({ prompt: `A question about ${topic}` })
    yield* ctx.notify('Asking', 0.5)
    const answer = yield* ctx.elicit('answer', { message: question.text, topic })
    if (answer.action !== 'accept') return { question: question.text, answer: null }
    const grade = yield* ctx.sample({ prompt: `Grade: ${answer.content.text}` })
    return { question: question.text, answer: answer.content.text, grade: grade.text }
  })

describe('createMockBranchClient', () => {
  it('scripts the model and the person, and records every call in order', async () => {
    const client = createMockBranchClient({
      sampleResponses: ['What is 2 + 2?', { text: 'Correct', usage: { inputTokens: 7, outputTokens: 1 } }],
      elicitResponses: [{ action: 'accept', content: { text: '4' } }],
    })
    const result = await run(() => runBranchTool(quiz, { topic: 'sums' }, client, { callId: 'call_q' }))
    expect(result).toEqual({ question: 'What is 2 + 2?', answer: '4', grade: 'Correct' })
    expect(client.sampleCalls.map((call) => [call.seq, call.messages.at(-1)])).toEqual([
      [2, { role: 'user', content: 'A question about sums' }],
      [5, { role: 'user', content: 'Grade: 4' }],
    ])
    expect(client.elicitCalls).toEqual([
      {
        sessionId: 'call_q',
        callId: 'call_q',
        toolName: 'quiz',
        elicitId: 'quiz/answer/call_q/4',
        key: 'answer',
        message: 'What is 2 + 2?',
        context: { topic: 'sums' },
        schema: z.toJSONSchema(z.object({ text: z.string() })),
        fieldTitles: { text: 'text' },
        form: { type: 'object', properties: { text: { type: 'string', title: 'text' } }, required: ['text'] },
      },
    ])
    expect(client.logs).toEqual([{ seq: 1, level: 'info', message: 'Quiz on sums' }])
    expect(client.notifications).toEqual([{ seq: 3, message: 'Asking', progress: 0.5 }])
  })

  it('estimates usage for a plain text answer, about four characters to a token', async () => {
    const client = createMockBranchClient({ sampleResponses: ['12345678'] })
    const tool = createBranchTool('t').execute(function* (_params, ctx) {
      return (yield* ctx.sample({ prompt: 'x' })).usage
    })
    const usage = await run(() => runBranchTool(tool, {}, client))
    expect(usage).toEqual({ inputTokens: Math.ceil(JSON.stringify([{ role: 'user', content: 'x' }]).length / 4), outputTokens: 2 })
  })

  it('takes operations as answers, to be slow or to answer from the request', async () => {
    const client = createMockBranchClient({
      sampleResponses: [
        function* (request) {
          yield* sleep(1)
          return `echo: ${String(request.messages[0]?.content)}`
        },
        'Fine',
      ],
      elicitResponses: [
        function* (call) {
          return { action: 'accept', content: { text: `answered ${call.key}` } }
        },
      ],
    })
    const result = await run(() => runBranchTool(quiz, { topic: 'echoes' }, client))
    expect(result).toEqual({ question: 'echo: A question about echoes', answer: 'answered answer', grade: 'Fine' })
  })

  it('says which call had no scripted answer', async () => {
    await expect(run(() => runBranchTool(quiz, { topic: 'gaps' }, createMockBranchClient()))).rejects.toThrow(
      'The mock client has no sample response for call 1 (last message: "A question about gaps").',
    )
    const noHuman = createMockBranchClient({ sampleResponses: ['Why?'] })
    await expect(run(() => runBranchTool(quiz, { topic: 'gaps' }, noHuman))).rejects.toThrow(
      `The mock client has no elicit response for call 1 ('answer': "Why?").`,
    )
  })

  it('validates a scripted answer like a real one: invalid content fails the run with the issues', async () => {
    const client = createMockBranchClient({ sampleResponses: ['Q'], elicitResponses: [{ action: 'accept', content: { text: 4 } }] })
    await expect(run(() => runBranchTool(quiz, { topic: 't' }, client))).rejects.toThrow(
      "The answer to 'answer' is not valid: text: Invalid input: expected string, received number",
    )
  })

  it('passes decline and cancel through', async () => {
    const client = createMockBranchClient({ sampleResponses: ['Q'], elicitResponses: [{ action: 'decline' }] })
    await expect(run(() => runBranchTool(quiz, { topic: 't' }, client))).resolves.toEqual({ question: 'Q', answer: null })
  })

  it('refuses parameters the tool does not accept', async () => {
    await expect(run(() => runBranchTool(quiz, { topic: 3 } as never, createMockBranchClient()))).rejects.toThrow(
      'Invalid arguments for quiz: topic: Invalid input: expected string, received number',
    )
  })
})
