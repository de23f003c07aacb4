import { all, run, sleep, suspend, withResolvers, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createBranchTool, createMcpTool } from '../tools/create-mcp-tool'
import { DEFAULT_BRANCH_LIMITS } from '../tools/limits'
import type { BranchContext } from '../tools/types'
import { BranchDepthError, BranchTimeoutError, BranchTokenError, SampleOutputError, ToolUsageError } from './errors'
import { createMockBranchClient } from './mock-branch-client'
import { runBranchTool } from './run-branch-tool'
import type { ToolSampleRequest } from './tool-client'

/** A tool whose whole work is `fn`, for exercising the ctx. */
function toolDoing<T>(fn: (ctx: BranchContext<{}>) => Operation<T>, limits = {}) {
  return createBranchTool('probe')
    .limits(limits)
    .execute((_params, ctx) => fn(ctx))
}

/** Nest `levels` branches below the tool and report the deepest depth reached. */
function* nest(ctx: BranchContext<{}>, levels: number, siteOptions = {}): Operation<number> {
  if (levels === 0) return ctx.depth
  return yield* ctx.branch((sub) => nest(sub, levels - 1, siteOptions), siteOptions)
}

const usage = (tokens: number) => ({ text: 'ok', usage: { inputTokens: tokens / 2, outputTokens: tokens / 2 } })

async function failureOf(operation: () => Operation<unknown>): Promise<unknown> {
  try {
    await run(operation)
  } catch (error) {
    return error
  }
  throw new Error('expected the run to fail')
}

describe('the branch context', () => {
  it('gives the tool depth 0, the parent conversation and system prompt, and no messages of its own', async () => {
    const parentMessages = [{ role: 'user' as const, content: 'Pick a card' }]
    const seen = await run(() =>
      runBranchTool(
        toolDoing(function* (ctx) {
          return { depth: ctx.depth, parent: ctx.parentMessages, system: ctx.parentSystemPrompt, own: ctx.messages }
        }),
        {},
        createMockBranchClient(),
        { parentMessages, parentSystemPrompt: 'Be helpful' },
      ),
    )
    expect(seen).toEqual({ depth: 0, parent: parentMessages, system: 'Be helpful', own: [] })
  })

  it('tracks sample({ prompt }) in ctx.messages and leaves them alone for sample({ messages })', async () => {
    const client = createMockBranchClient({ sampleResponses: ['Paris', 'About 2.1 million', 'Bonjour'] })
    const messages = await run(() =>
      runBranchTool(
        toolDoing(function* (ctx) {
          yield* ctx.sample({ prompt: 'Capital of France?' })
          yield* ctx.sample({ prompt: 'Population?', system: 'Be brief' })
          yield* ctx.sample({ messages: [{ role: 'user', content: 'Say hello in French' }] })
          return ctx.messages
        }),
        {},
        client,
      ),
    )
    expect(messages).toEqual([
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris' },
      { role: 'user', content: 'Population?' },
      { role: 'assistant', content: 'About 2.1 million' },
    ])
    expect(client.sampleCalls.map((call) => call.messages)).toEqual([
      [{ role: 'user', content: 'Capital of France?' }],
      [
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Paris' },
        { role: 'user', content: 'Population?' },
      ],
      [{ role: 'user', content: 'Say hello in French' }],
    ])
    expect(client.sampleCalls[1]).toMatchObject({ seq: 2, depth: 0, system: 'Be brief' })
  })

  it('gives a sub-branch its own messages, inherited by default or fresh, and reduces it to its value', async () => {
    const client = createMockBranchClient({ sampleResponses: ['root answer', 'inherited answer', 'fresh answer'] })
    const seen = await run(() =>
      runBranchTool(
        toolDoing(function* (ctx) {
          yield* ctx.sample({ prompt: 'root question' })
          const inherited = yield* ctx.branch(function* (sub) {
            yield* sub.sample({ prompt: 'inherited question' })
            return { depth: sub.depth, parent: sub.parentMessages.length, own: sub.messages.length }
          })
          const fresh = yield* ctx.branch(
            function* (sub) {
              const before = sub.messages.length
              yield* sub.sample({ prompt: 'fresh question' })
              return { depth: sub.depth, before, own: sub.messages.length }
            },
            { inheritMessages: false },
          )
          return { inherited, fresh, rootMessages: ctx.messages.length }
        }),
        {},
        client,
      ),
    )
    expect(seen).toEqual({
      inherited: { depth: 1, parent: 2, own: 4 },
      fresh: { depth: 1, before: 0, own: 2 },
      rootMessages: 2,
    })
    expect(client.sampleCalls[2]!.messages).toEqual([{ role: 'user', content: 'fresh question' }])
    expect(client.sampleCalls.map((call) => call.depth)).toEqual([0, 1, 1])
  })

  it('runs branches in parallel with all(): both are sampling at once', async () => {
    const started: string[] = []
    const bothStarted = withResolvers<void>()
    const slowAnswer = (text: string) =>
      function* (request: ToolSampleRequest): Operation<string> {
        started.push(String(request.messages.at(-1)?.content))
        if (started.length === 2) bothStarted.resolve()
        yield* bothStarted.operation
        return text
      }
    const client = createMockBranchClient({ sampleResponses: [slowAnswer('prices look fine'), slowAnswer('schedules look tight')] })
    const result = await run(() =>
      runBranchTool(
        toolDoing(function* (ctx) {
          return yield* all([
            ctx.branch((sub) => sub.sample({ prompt: 'analyse prices' })),
            ctx.branch((sub) => sub.sample({ prompt: 'analyse schedules' })),
          ])
        }),
        {},
        client,
      ),
    )
    expect(started.sort()).toEqual(['analyse prices', 'analyse schedules'])
    expect(result.map((answer) => answer.text)).toEqual(['prices look fine', 'schedules look tight'])
  })

  it('refuses ctx.elicit in a branch, saying why', async () => {
    const tool = createBranchTool('asker')
      .elicits({ pick: z.object({ n: z.number() }) })
      .execute(function* (_params, ctx) {
        return yield* ctx.branch((sub) => sub.elicit('pick', { message: 'n?' }))
      })
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { n: 1 } }] })
    const error = await failureOf(() => runBranchTool(tool, {}, client))
    expect(error).toBeInstanceOf(ToolUsageError)
    expect((error as Error).message).toBe(
      `Tool "asker" called ctx.elicit('pick') in a branch at depth 1. A branch works out a value without the user; only the tool itself (depth 0) may ask. Return what the branch found and call ctx.elicit after it.`,
    )
    expect(client.elicitCalls).toEqual([])
  })

  it('refuses a second elicitation while one is pending, saying how to fix it', async () => {
    const tool = createBranchTool('greedy')
      .elicits({ first: z.object({}), second: z.object({}) })
      .execute(function* (_params, ctx) {
        return yield* all([ctx.elicit('first', { message: 'One?' }), ctx.elicit('second', { message: 'Two?' })])
      })
    const client = createMockBranchClient({
      elicitResponses: [
        function* () {
          yield* suspend()
          throw new Error('never answered')
        },
      ],
    })
    const error = await failureOf(() => runBranchTool(tool, {}, client))
    expect(error).toBeInstanceOf(ToolUsageError)
    expect((error as Error).message).toBe(
      `Tool "greedy" called ctx.elicit('second') while 'first' is still waiting: one elicitation at a time per tool call. Wait for the first answer (yield* it) before asking again.`,
    )
  })

  it('checks the tool’s requirements against the client before running anything', async () => {
    let ran = false
    const tool = createBranchTool('thinker')
      .requires({ sampling: true, elicitation: false })
      .execute(function* () {
        ran = true
      })
    const error = await failureOf(() => runBranchTool(tool, {}, createMockBranchClient({ capabilities: { sampling: false } })))
    expect((error as Error).message).toBe('Tool "thinker" requires sampling, which this client does not offer.')
    expect(ran).toBe(false)
    await run(() => runBranchTool(tool, {}, createMockBranchClient({ capabilities: { elicitation: false } })))
    expect(ran).toBe(true)
  })
})

describe('structured sampling', () => {
  const verdict = z.object({ favourite: z.number().int().min(1).max(5), reason: z.string().min(1) })
  const askVerdict = toolDoing(function* (ctx) {
    return (yield* ctx.sample({ prompt: 'Which card?', schema: verdict })).value
  })

  it('returns the parsed, validated value and sends the JSON Schema to the client', async () => {
    const client = createMockBranchClient({ sampleResponses: ['{"favourite": 3, "reason": "Hearts are lucky"}'] })
    await expect(run(() => runBranchTool(askVerdict, {}, client))).resolves.toEqual({ favourite: 3, reason: 'Hearts are lucky' })
    expect(client.sampleCalls[0]!.schema).toEqual(z.toJSONSchema(verdict))
  })

  it('accepts JSON in a fenced block', async () => {
    const client = createMockBranchClient({ sampleResponses: ['```json\n{"favourite": 1, "reason": "Aces high"}\n```'] })
    await expect(run(() => runBranchTool(askVerdict, {}, client))).resolves.toEqual({ favourite: 1, reason: 'Aces high' })
  })

  it('throws a clear SampleOutputError when the answer is not JSON', async () => {
    const client = createMockBranchClient({ sampleResponses: ['I like the third card.'] })
    const error = await failureOf(() => runBranchTool(askVerdict, {}, client))
    expect(error).toBeInstanceOf(SampleOutputError)
    expect((error as Error).message).toBe(`The model's answer is not JSON: "I like the third card."`)
  })

  it('throws a clear SampleOutputError when the JSON does not match the schema', async () => {
    const client = createMockBranchClient({ sampleResponses: ['{"favourite": 9}'] })
    const error = await failureOf(() => runBranchTool(askVerdict, {}, client))
    expect(error).toBeInstanceOf(SampleOutputError)
    expect((error as Error).message).toMatch(/^The model's answer does not match the requested schema \(favourite: .*; reason: .*\): "\{\\"favourite\\": 9\}"$/)
  })
})

describe('branch limits', () => {
  describe('maxDepth', () => {
    it('has a runtime default', async () => {
      const deepest = toolDoing((ctx) => nest(ctx, DEFAULT_BRANCH_LIMITS.maxDepth))
      await expect(run(() => runBranchTool(deepest, {}, createMockBranchClient()))).resolves.toBe(DEFAULT_BRANCH_LIMITS.maxDepth)
      const tooDeep = toolDoing((ctx) => nest(ctx, DEFAULT_BRANCH_LIMITS.maxDepth + 1))
      const error = await failureOf(() => runBranchTool(tooDeep, {}, createMockBranchClient()))
      expect(error).toBeInstanceOf(BranchDepthError)
      expect(error).toMatchObject({ depth: DEFAULT_BRANCH_LIMITS.maxDepth + 1, maxDepth: DEFAULT_BRANCH_LIMITS.maxDepth })
    })

    it('is set by the runtime', async () => {
      const error = await failureOf(() =>
        runBranchTool(toolDoing((ctx) => nest(ctx, 2)), {}, createMockBranchClient(), { limits: { maxDepth: 1 } }),
      )
      expect(error).toBeInstanceOf(BranchDepthError)
      expect((error as Error).message).toBe('A branch at depth 2 exceeds the limit of maxDepth 1.')
    })

    it('is set by the tool, over the runtime', async () => {
      const tool = toolDoing((ctx) => nest(ctx, 3), { maxDepth: 3 })
      await expect(run(() => runBranchTool(tool, {}, createMockBranchClient(), { limits: { maxDepth: 1 } }))).resolves.toBe(3)
      const strict = toolDoing((ctx) => nest(ctx, 1), { maxDepth: 0 })
      const error = await failureOf(() => runBranchTool(strict, {}, createMockBranchClient(), { limits: { maxDepth: 5 } }))
      expect(error).toMatchObject({ name: 'BranchDepthError', depth: 1, maxDepth: 0 })
    })

    it('is set at the branch site, over the tool, and holds for the branches below it', async () => {
      const looser = toolDoing((ctx) => nest(ctx, 3, { maxDepth: 3 }), { maxDepth: 1 })
      await expect(run(() => runBranchTool(looser, {}, createMockBranchClient()))).resolves.toBe(3)
      const stricter = toolDoing(
        (ctx) => ctx.branch((sub) => nest(sub, 1), { maxDepth: 1 }),
        { maxDepth: 4 },
      )
      const error = await failureOf(() => runBranchTool(stricter, {}, createMockBranchClient()))
      expect(error).toMatchObject({ name: 'BranchDepthError', depth: 2, maxDepth: 1 })
    })
  })

  describe('maxTokens', () => {
    const twoSamples = (site = {}) =>
      function* (ctx: BranchContext<{}>) {
        return yield* ctx.branch(function* (sub) {
          yield* sub.sample({ prompt: 'first' })
          yield* sub.sample({ prompt: 'second' })
          return 'done'
        }, site)
      }

    it('is set by the runtime, counting the tokens of every branch', async () => {
      const client = createMockBranchClient({ sampleResponses: [usage(60), usage(60)] })
      const error = await failureOf(() => runBranchTool(toolDoing(twoSamples()), {}, client, { limits: { maxTokens: 100 } }))
      expect(error).toBeInstanceOf(BranchTokenError)
      expect((error as Error).message).toBe('The branch at depth 0 used 120 tokens of its budget of maxTokens 100.')
    })

    it('is set by the tool, over the runtime', async () => {
      const client = createMockBranchClient({ sampleResponses: [usage(60), usage(60)] })
      const tool = toolDoing(twoSamples(), { maxTokens: 500 })
      await expect(run(() => runBranchTool(tool, {}, client, { limits: { maxTokens: 100 } }))).resolves.toBe('done')
    })

    it('is set at the branch site: the branch fails, and its parent may carry on', async () => {
      const client = createMockBranchClient({ sampleResponses: [usage(60), usage(60), usage(10)] })
      const tool = toolDoing(function* (ctx) {
        let failure: unknown
        try {
          yield* twoSamples({ maxTokens: 100 })(ctx)
        } catch (error) {
          failure = error
        }
        const after = yield* ctx.sample({ prompt: 'carry on' })
        return { failure, after: after.text }
      })
      const result = await run(() => runBranchTool(tool, {}, client))
      expect(result.failure).toBeInstanceOf(BranchTokenError)
      expect(result.failure).toMatchObject({ depth: 1, used: 120, maxTokens: 100 })
      expect(result.after).toBe('ok')
    })

    it('refuses to sample once a budget is spent, and caps maxTokens at what is left', async () => {
      const client = createMockBranchClient({ sampleResponses: [usage(100), usage(10)] })
      const tool = toolDoing(function* (ctx) {
        yield* ctx.sample({ prompt: 'first', maxTokens: 500 })
        return yield* ctx.sample({ prompt: 'second' })
      })
      const error = await failureOf(() => runBranchTool(tool, {}, client, { limits: { maxTokens: 100 } }))
      expect(error).toMatchObject({ name: 'BranchTokenError', used: 100, maxTokens: 100 })
      expect(client.sampleCalls.map((call) => call.maxTokens)).toEqual([100])
    })
  })

  describe('timeout', () => {
    let halted: string[] = []
    const neverAnswers = (label: string) =>
      function* (): Operation<string> {
        try {
          yield* suspend()
          throw new Error('never answered')
        } finally {
          halted.push(label)
        }
      }
    const slowBranch = (site = {}) =>
      function* (ctx: BranchContext<{}>) {
        const text = yield* ctx.branch(function* (sub) {
          const answer = yield* sub.sample({ prompt: 'think hard' })
          halted.push('the branch went on after its deadline')
          return answer.text
        }, site)
        return text
      }

    it('is set by the runtime, and halts the branch’s model call in flight', async () => {
      halted = []
      const client = createMockBranchClient({ sampleResponses: [neverAnswers('sample')] })
      const error = await failureOf(() => runBranchTool(toolDoing(slowBranch()), {}, client, { limits: { timeout: 20 } }))
      expect(error).toBeInstanceOf(BranchTimeoutError)
      expect((error as Error).message).toBe('The branch at depth 1 did not finish within its timeout of 20 ms and was halted.')
      expect(halted).toEqual(['sample'])
    })

    it('is set by the tool, over the runtime', async () => {
      halted = []
      const client = createMockBranchClient({ sampleResponses: [neverAnswers('sample')] })
      const tool = toolDoing(slowBranch(), { timeout: 20 })
      const error = await failureOf(() => runBranchTool(tool, {}, client, { limits: { timeout: 60_000 } }))
      expect(error).toMatchObject({ name: 'BranchTimeoutError', timeout: 20, depth: 1 })
      expect(halted).toEqual(['sample'])
    })

    it('is set at the branch site, over the tool', async () => {
      halted = []
      const stuck = createMockBranchClient({ sampleResponses: [neverAnswers('sample')] })
      const strict = toolDoing(slowBranch({ timeout: 20 }), { timeout: 60_000 })
      expect(await failureOf(() => runBranchTool(strict, {}, stuck))).toMatchObject({ name: 'BranchTimeoutError', timeout: 20 })

      const slow = createMockBranchClient({
        sampleResponses: [
          function* () {
            yield* sleep(50)
            return 'worth the wait'
          },
        ],
      })
      const lenient = toolDoing(slowBranch({ timeout: 60_000 }), { timeout: 20 })
      await expect(run(() => runBranchTool(lenient, {}, slow))).resolves.toBe('worth the wait')
    })

    it('lets the parent catch a timed-out branch and go on', async () => {
      halted = []
      const client = createMockBranchClient({ sampleResponses: [neverAnswers('sample'), 'fallback answer'] })
      const tool = toolDoing(function* (ctx) {
        try {
          return yield* slowBranch({ timeout: 20 })(ctx)
        } catch (error) {
          if (!(error instanceof BranchTimeoutError)) throw error
          return (yield* ctx.sample({ prompt: 'quick answer please' })).text
        }
      })
      await expect(run(() => runBranchTool(tool, {}, client))).resolves.toBe('fallback answer')
    })
  })

  it.each([
    [{ maxDepth: -1 }, 'limit maxDepth must be a whole number of at least 0, not -1.'],
    [{ timeout: 0 }, 'limit timeout must be a whole number of at least 1, not 0.'],
    [{ maxTokens: 1.5 }, 'limit maxTokens must be a whole number of at least 1, not 1.5.'],
  ])('rejects the limits %j wherever they are set', async (limits, message) => {
    expect(() => createMcpTool('t').limits(limits)).toThrow(`t: ${message}`)
    const error = await failureOf(() => runBranchTool(toolDoing((ctx) => ctx.branch(function* () {}, limits)), {}, createMockBranchClient()))
    expect((error as Error).message).toBe(`ctx.branch in tool "probe": ${message}`)
    const runtime = await failureOf(() => runBranchTool(toolDoing(function* () {}), {}, createMockBranchClient(), { limits }))
    expect((runtime as Error).message).toBe(`runBranchTool: ${message}`)
  })
})
