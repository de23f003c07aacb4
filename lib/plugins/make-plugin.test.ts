import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import { makePlugin } from './make-plugin'
import type { PluginClientContext } from './types'

const tool = createMcpTool('order_pizza')
  .description('Orders a pizza')
  .elicits({
    pickSize: z.object({ size: z.enum(['S', 'M', 'L']) }),
    confirm: { response: z.object({ ok: z.boolean() }), context: z.object({ total: z.number() }) },
  })
  .execute(function* () {
    return 'ordered'
  })

describe('makePlugin', () => {
  it('builds a plugin exposing the tool for the server and the handlers for the browser', async () => {
    function* pickSize() {
      return { action: 'accept', content: { size: 'M' } } as const
    }
    function* confirm(request: { total: number }) {
      return { action: 'accept', content: { ok: request.total < 30 } } as const
    }
    const plugin = makePlugin(tool).onElicit({ pickSize, confirm }).build()

    expect(plugin.name).toBe('order_pizza')
    expect(plugin.tool).toBe(tool)
    expect(plugin.server.tools).toEqual([tool])
    expect(plugin.server.tools[0]).toBe(tool)
    expect(plugin.client.toolName).toBe('order_pizza')
    expect(Object.keys(plugin.client.handlers).sort()).toEqual(['confirm', 'pickSize'])
    expect(plugin.client.handlers.pickSize).toBe(pickSize)

    const result = await run(() =>
      plugin.client.handlers.confirm!({ total: 12 } as never, {} as PluginClientContext),
    )
    expect(result).toEqual({ action: 'accept', content: { ok: true } })
  })

  it('builds a plugin for a tool with no elicitations', () => {
    const quiet = createMcpTool('quiet').elicits({}).execute(function* () {})
    const plugin = makePlugin(quiet).onElicit({}).build()
    expect(plugin.server.tools).toEqual([quiet])
    expect(plugin.client).toEqual({ toolName: 'quiet', handlers: {} })
  })

  it('throws at run time, naming every missing handler, when a key has no handler', () => {
    const partial = { *pickSize() { return { action: 'decline' } as const } }
    expect(() => makePlugin(tool).onElicit(partial as never)).toThrow('Plugin "order_pizza" has no onElicit handler for: confirm.')
    expect(() => makePlugin(tool).onElicit({} as never)).toThrow(
      'Plugin "order_pizza" has no onElicit handler for: pickSize, confirm.',
    )
  })

  it('counts a handler that is not a function as missing', () => {
    const broken = { *pickSize() { return { action: 'decline' } as const }, confirm: 'yes' }
    expect(() => makePlugin(tool).onElicit(broken as never)).toThrow('Plugin "order_pizza" has no onElicit handler for: confirm.')
  })
})
