import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMockBranchClient } from '../runtime/mock-branch-client'
import { runBranchTool } from '../runtime/run-branch-tool'
import { createBranchTool, createMcpTool } from './create-mcp-tool'
import { HandoffError, toJsonData } from './handoff'

describe('.handoff()', () => {
  it('runs before once on the server, hands only its data to client, and gives after both', async () => {
    const phases: string[] = []
    const connection = { query: (sql: string) => `rows for ${sql}` }
    const tool = createBranchTool('booker')
      .parameters(z.object({ city: z.string() }))
      .elicits({ pick: z.object({ index: z.number().int() }) })
      .handoff({
        *before({ city }) {
          phases.push('before')
          return { options: [`${city} 9:00`, `${city} 17:00`], rows: connection.query(city) }
        },
        *client(handoff, ctx) {
          phases.push('client')
          expect(Object.isFrozen(handoff) && Object.isFrozen(handoff.options)).toBe(true)
          const answer = yield* ctx.elicit('pick', { message: `Pick: ${handoff.options.join(', ')}`, options: handoff.options })
          return answer.action === 'accept' ? { picked: handoff.options[answer.content.index] } : { picked: undefined }
        },
        *after(handoff, clientResult) {
          phases.push('after')
          return { ...clientResult, from: handoff.rows }
        },
      })
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { index: 1 } }] })
    const result = await run(() => runBranchTool(tool, { city: 'Oslo' }, client))
    expect(result).toEqual({ picked: 'Oslo 17:00', from: 'rows for Oslo' })
    expect(phases).toEqual(['before', 'client', 'after'])
    expect(client.elicitCalls[0]!.context).toEqual({ options: ['Oslo 9:00', 'Oslo 17:00'] })
  })

  it('refuses to hand a connection, a function or a class instance to the client phase', async () => {
    const tool = createBranchTool('leaky').handoff({
      *before() {
        return { cards: [1, 2], db: { close() {} } }
      },
      *client() {
        throw new Error('client must not run')
      },
      *after() {
        return 'unreachable'
      },
    })
    await expect(run(() => runBranchTool(tool, {}, createMockBranchClient()))).rejects.toThrow(
      'leaky: the result of before() is not JSON-serialisable: $.db.close is a function.',
    )
  })

  it('is available on createMcpTool too, after .elicits()', async () => {
    const tool = createMcpTool('same')
      .elicits({})
      .handoff({
        *before() {
          return 2
        },
        *client(n) {
          return n * 3
        },
        *after(n, tripled) {
          return `${n} → ${tripled}`
        },
      })
    await expect(run(() => runBranchTool(tool, {}, createMockBranchClient()))).resolves.toBe('2 → 6')
  })
})

describe('toJsonData', () => {
  it('copies plain data deeply and drops undefined properties, as JSON would', () => {
    const source = { a: [1, { b: 'c' }], d: null, e: undefined, f: true }
    const copy = toJsonData(source, 'x') as typeof source
    expect(copy).toEqual({ a: [1, { b: 'c' }], d: null, f: true })
    expect(copy.a).not.toBe(source.a)
  })

  it.each([
    [{ when: new Date(0) }, '$.when is a Date, not plain data'] as const,
    [{ n: Number.NaN }, '$.n is NaN'] as const,
    [{ list: [1, undefined] }, '$.list[1] is undefined'] as const,
    [{ big: 1n }, '$.big is a bigint'] as const,
    [{ set: new Set([1]) }, '$.set is a Set, not plain data'] as const,
  ])('names what cannot cross (%#): %s', (value, problem) => {
    expect(() => toJsonData(value, 'the handoff')).toThrow(new HandoffError(`the handoff is not JSON-serialisable: ${problem}.`))
  })

  it('names a cycle', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' }
    cyclic.self = cyclic
    expect(() => toJsonData(cyclic, 'h')).toThrow('h is not JSON-serialisable: $.self refers back to itself.')
  })
})
