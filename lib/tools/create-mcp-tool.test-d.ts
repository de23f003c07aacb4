import type { Operation } from 'effection'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from './create-mcp-tool'
import type { ElicitResult, McpTool } from './types'

const pickName = z.object({ name: z.string(), age: z.number().optional() })
const confirmTrip = {
  response: z.object({ ok: z.boolean() }),
  context: z.object({ destination: z.string(), nights: z.number().int() }),
}

describe('ctx.elicit', () => {
  it('accepts only the keys declared in .elicits()', () => {
    createMcpTool('t')
      .elicits({ pickName, confirmTrip })
      .execute(function* (_params, ctx) {
        expectTypeOf(ctx.elicit).parameter(0).toEqualTypeOf<'pickName' | 'confirmTrip'>()
        yield* ctx.elicit('pickName', { message: 'Name?' })
        // @ts-expect-error 'pickSeat' is not declared
        yield* ctx.elicit('pickSeat', { message: 'Seat?' })
      })
  })

  it('accepts no key at all for a tool declaring .elicits({})', () => {
    createMcpTool('t')
      .elicits({})
      .execute(function* (_params, ctx) {
        expectTypeOf(ctx.elicit).parameter(0).toEqualTypeOf<never>()
        // @ts-expect-error nothing is declared
        yield* ctx.elicit('anything', { message: 'Hm?' })
      })
  })

  it('requires a message', () => {
    createMcpTool('t')
      .elicits({ pickName })
      .execute(function* (_params, ctx) {
        // @ts-expect-error message is missing
        yield* ctx.elicit('pickName', { hint: 'first name' })
      })
  })

  it('types the accepted content by the key’s schema', () => {
    createMcpTool('t')
      .elicits({ pickName, confirmTrip })
      .execute(function* (_params, ctx) {
        const name = yield* ctx.elicit('pickName', { message: 'Name?' })
        expectTypeOf(name).toEqualTypeOf<ElicitResult<{}, { name: string; age?: number | undefined }>>()
        if (name.action === 'accept') {
          expectTypeOf(name.content.name).toEqualTypeOf<string>()
          // @ts-expect-error the response schema has no such field
          void name.content.flightId
        } else {
          // @ts-expect-error only accept carries content
          void name.content
        }
        const confirmed = yield* ctx.elicit('confirmTrip', { message: 'Go?', destination: 'LAX', nights: 3 })
        expectTypeOf(confirmed).toEqualTypeOf<ElicitResult<{ destination: string; nights: number }, { ok: boolean }>>()
      })
  })

  it('lets a plain schema key take any JSON context besides the message', () => {
    createMcpTool('t')
      .elicits({ pickName })
      .execute(function* (_params, ctx) {
        yield* ctx.elicit('pickName', { message: 'Name?', suggestions: ['Ada', 'Grace'], limit: 2 })
      })
  })

  it('requires and checks the typed context of a { response, context } spec', () => {
    createMcpTool('t')
      .elicits({ confirmTrip })
      .execute(function* (_params, ctx) {
        yield* ctx.elicit('confirmTrip', { message: 'Go?', destination: 'LAX', nights: 3 })
        // @ts-expect-error nights is missing
        yield* ctx.elicit('confirmTrip', { message: 'Go?', destination: 'LAX' })
        // @ts-expect-error the whole context is missing
        yield* ctx.elicit('confirmTrip', { message: 'Go?' })
        // @ts-expect-error nights must be a number
        yield* ctx.elicit('confirmTrip', { message: 'Go?', destination: 'LAX', nights: 'three' })
        // @ts-expect-error message is still required
        yield* ctx.elicit('confirmTrip', { destination: 'LAX', nights: 3 })
      })
  })
})

describe('the builder', () => {
  it('has no .execute before .elicits()', () => {
    const builder = createMcpTool('t').description('d').parameters(z.object({ a: z.string() }))
    // @ts-expect-error .elicits() must come first
    builder.execute(function* () {})
    expectTypeOf(builder).not.toHaveProperty('execute')
    expectTypeOf(builder.elicits({})).toHaveProperty('execute')
  })

  it('types params from .parameters(), whichever step comes last', () => {
    createMcpTool('t')
      .parameters(z.object({ from: z.string(), seats: z.number().default(1) }))
      .elicits({})
      .execute(function* (params) {
        expectTypeOf(params).toEqualTypeOf<{ from: string; seats: number }>()
        // @ts-expect-error not a parameter
        void params.destination
      })

    createMcpTool('t')
      .elicits({})
      .parameters(z.object({ city: z.string() }))
      .execute(function* (params) {
        expectTypeOf(params).toEqualTypeOf<{ city: string }>()
      })
  })

  it('gives params of an empty object by default', () => {
    createMcpTool('t')
      .elicits({})
      .execute(function* (params) {
        expectTypeOf(params).toEqualTypeOf<Record<string, never>>()
      })
  })

  it('keeps the tool name, parameters, elicitations and result in the tool’s type', () => {
    const parameters = z.object({ q: z.string() })
    const tool = createMcpTool('search')
      .parameters(parameters)
      .elicits({ pickName })
      .execute(function* (): Operation<{ hits: number }> {
        return { hits: 1 }
      })
    expectTypeOf(tool).toEqualTypeOf<McpTool<'search', typeof parameters, { pickName: typeof pickName }, { hits: number }>>()
    expectTypeOf(tool.name).toEqualTypeOf<'search'>()
  })

  it('checks the returned value against a declared result type', () => {
    createMcpTool('t')
      .elicits({})
      .execute(function* (): Operation<number> {
        // @ts-expect-error returns a string where a number is declared
        return 'not a number'
      })
  })
})

describe('.title', () => {
  it('makes a call’s title from its parsed parameters, before or after .elicits()', () => {
    createMcpTool('trip')
      .parameters(z.object({ from: z.string(), nights: z.number().int().default(2) }))
      .title((params) => {
        expectTypeOf(params).toEqualTypeOf<{ from: string; nights: number }>()
        return `${params.from}, ${params.nights} nights`
      })
      .elicits({})
      .title(({ from }) => from)
      .execute(function* () {})
    createMcpTool('trip')
      .parameters(z.object({ from: z.string() }))
      // @ts-expect-error a title is text
      .title(() => 5)
  })
})
