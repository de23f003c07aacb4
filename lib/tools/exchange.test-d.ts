import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from './create-mcp-tool'
import type { AssistantToolCallMessage, ExtendedMessage, ToolResultMessage } from './sample-messages'

type Cell = 'X' | 'O' | null

describe('ElicitResult exchange', () => {
  it('types the context from what was passed to elicit, and the content from the key', () => {
    createMcpTool('t')
      .elicits({ pickMove: z.object({ position: z.number() }) })
      .execute(function* (_params, ctx) {
        const board: Cell[] = [null, 'X']
        const result = yield* ctx.elicit('pickMove', { message: 'Move', board, moveHistory: [{ by: 'X' as const, cell: 1 }] })
        if (result.action === 'accept') {
          expectTypeOf(result.content).toEqualTypeOf<{ position: number }>()
          expectTypeOf(result.exchange.context).toEqualTypeOf<{ board: Cell[]; moveHistory: { by: 'X'; cell: number }[] }>()
          expectTypeOf(result.exchange.messages).toEqualTypeOf<[AssistantToolCallMessage, ToolResultMessage]>()
          const pair = result.exchange.withArguments((context) => {
            expectTypeOf(context.board).toEqualTypeOf<Cell[]>()
            expectTypeOf(context.moveHistory[0]!.cell).toEqualTypeOf<number>()
            // @ts-expect-error not in the context
            void context.score
            return { moves: context.moveHistory.length }
          })
          const history: ExtendedMessage[] = [...pair, ...result.exchange.messages]
          void history
        } else {
          // @ts-expect-error decline and cancel carry no exchange
          void result.exchange
        }
      })
  })

  it('types the context of a declared { response, context } key from the call', () => {
    createMcpTool('t')
      .elicits({ confirm: { response: z.object({ ok: z.boolean() }), context: z.object({ nights: z.number() }) } })
      .execute(function* (_params, ctx) {
        const result = yield* ctx.elicit('confirm', { message: 'Go?', nights: 3 })
        if (result.action === 'accept') expectTypeOf(result.exchange.context).toEqualTypeOf<{ nights: number }>()
      })
  })

  it('lets withArguments return only an object of arguments', () => {
    createMcpTool('t')
      .elicits({ pick: z.object({ n: z.number() }) })
      .execute(function* (_params, ctx) {
        const result = yield* ctx.elicit('pick', { message: 'n?' })
        if (result.action !== 'accept') return
        // @ts-expect-error arguments are an object, not a string
        result.exchange.withArguments(() => 'n')
      })
  })
})
