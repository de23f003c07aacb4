import { run, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMockBranchClient } from '../runtime/mock-branch-client'
import { runBranchTool } from '../runtime/run-branch-tool'
import { createMcpTool } from './create-mcp-tool'

const pickName = z.object({ name: z.string() })

describe('createMcpTool', () => {
  it('builds a tool from its description, parameters, elicitations and execute', async () => {
    const parameters = z.object({ greeting: z.string() })
    const elicits = { pickName }
    const tool = createMcpTool('greet')
      .description('Greets the user by a name they choose')
      .parameters(parameters)
      .elicits(elicits)
      .execute(function* ({ greeting }, ctx) {
        const answer = yield* ctx.elicit('pickName', { message: 'Your name?' })
        return answer.action === 'accept' ? `${greeting}, ${answer.content.name}` : greeting
      })

    expect(tool).toMatchObject({ kind: 'mcp-tool', name: 'greet', description: 'Greets the user by a name they choose' })
    expect(tool.parameters).toBe(parameters)
    expect(tool.elicits).toBe(elicits)

    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { name: 'Ada' } }] })
    await expect(run(() => runBranchTool(tool, { greeting: 'Hello' }, client))).resolves.toBe('Hello, Ada')
    expect(client.elicitCalls).toMatchObject([{ key: 'pickName', message: 'Your name?', context: {} }])
  })

  it('accepts the builder steps in any order before execute', () => {
    const parameters = z.object({ city: z.string() })
    const tool = createMcpTool('weather')
      .elicits({})
      .parameters(parameters)
      .description('Tells the weather')
      .execute(function* ({ city }) {
        return city
      })
    expect(tool).toMatchObject({ name: 'weather', description: 'Tells the weather', elicits: {} })
    expect(tool.parameters).toBe(parameters)
  })

  it('defaults to an empty description and an empty object as parameters', () => {
    const tool = createMcpTool('noop')
      .elicits({})
      .execute(function* () {
        return 'done'
      })
    expect(tool.description).toBe('')
    expect(tool.parameters.safeParse({}).success).toBe(true)
    expect(tool.parameters.safeParse('not an object').success).toBe(false)
  })

  it('works with .elicits({}) for a tool that never asks', async () => {
    const tool = createMcpTool('add')
      .parameters(z.object({ a: z.number(), b: z.number() }))
      .elicits({})
      .execute(function* ({ a, b }) {
        return a + b
      })
    expect(tool.elicits).toEqual({})
    const client = createMockBranchClient()
    await expect(run(() => runBranchTool(tool, { a: 2, b: 3 }, client))).resolves.toBe(5)
    expect(client.elicitCalls).toEqual([])
  })

  it('does not let one builder step change a tool built earlier from the same builder', () => {
    const base = createMcpTool('shared').description('first')
    const first = base.elicits({ pickName }).execute(function* () {})
    const second = base.description('second').elicits({}).execute(function* () {})
    expect(first.description).toBe('first')
    expect(first.elicits).toEqual({ pickName })
    expect(second.description).toBe('second')
    expect(second.elicits).toEqual({})
  })

  it('throws a helpful error when .execute is called without .elicits()', () => {
    const builder = createMcpTool('forgetful').description('never declared its elicitations') as unknown as {
      execute(fn: () => Operation<void>): unknown
    }
    expect(() => builder.execute(function* () {})).toThrow(
      'Tool "forgetful" must declare its elicitations with .elicits({...}) before .execute() (use .elicits({}) for none).',
    )
  })

  it.each(['', 'has space', 'slash/name', 'dot.name', 'ünïcode', 'x'.repeat(65)])('rejects the tool name %j', (name) => {
    expect(() => createMcpTool(name)).toThrow(`Tool name "${name}" must be 1-64 letters, digits, "_" or "-"`)
  })

  it.each(['a', 'book_flight', 'Book-Flight-2', 'x'.repeat(64)])('accepts the tool name %j', (name) => {
    expect(createMcpTool(name).elicits({}).execute(function* () {}).name).toBe(name)
  })
})
