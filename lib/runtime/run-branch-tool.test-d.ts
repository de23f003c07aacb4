import { run } from 'effection'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createBranchTool } from '../tools/create-mcp-tool'
import { createMockBranchClient } from './mock-branch-client'
import { runBranchTool } from './run-branch-tool'

describe('branch tools', () => {
  const tool = createBranchTool('pick')
    .parameters(z.object({ count: z.number().default(5) }))
    .elicits({ pickCard: z.object({ cardNumber: z.number() }) })
    .handoff({
      *before(params) {
        expectTypeOf(params).toEqualTypeOf<{ count: number }>()
        return { cards: ['A♠', 'K♥'], secret: 'K♥' }
      },
      *client(handoff, ctx) {
        expectTypeOf(handoff).toEqualTypeOf<{ cards: string[]; secret: string }>()
        const analysis = yield* ctx.branch(function* (sub) {
          expectTypeOf(sub.depth).toEqualTypeOf<number>()
          const verdict = yield* sub.sample({ prompt: 'Which?', schema: z.object({ favourite: z.number(), reason: z.string() }) })
          expectTypeOf(verdict.value).toEqualTypeOf<{ favourite: number; reason: string }>()
          const plain = yield* sub.sample({ prompt: 'Why?' })
          // @ts-expect-error a sample without a schema has no value
          void plain.value
          return verdict.value.reason
        })
        expectTypeOf(analysis).toEqualTypeOf<string>()
        const pick = yield* ctx.elicit('pickCard', { message: 'Pick', cards: handoff.cards })
        return pick.action === 'accept' ? pick.content.cardNumber : null
      },
      *after(handoff, picked) {
        expectTypeOf(picked).toEqualTypeOf<number | null>()
        return { won: picked !== null && handoff.cards[picked - 1] === handoff.secret }
      },
    })

  it('types runBranchTool’s params by the tool’s input and its result by after()', () => {
    const result = run(() => runBranchTool(tool, {}, createMockBranchClient()))
    expectTypeOf(result).resolves.toEqualTypeOf<{ won: boolean }>()
    // @ts-expect-error count must be a number
    void run(() => runBranchTool(tool, { count: 'five' }, createMockBranchClient()))
  })
})
