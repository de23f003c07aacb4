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
  it('builds a plugin’s browser half: the tool’s name and one handler per key', async () => {
    function* pickSize() {
      return { action: 'accept', content: { size: 'M' } } as const
    }
    function* confirm(request: { total: number }) {
      return { action: 'accept', content: { ok: request.total < 30 } } as const
    }
    const plugin = makePlugin<typeof tool>('order_pizza').onElicit({ pickSize, confirm }).build()
    expect(plugin.toolName).toBe('order_pizza')
    expect(Object.keys(plugin.handlers).sort()).toEqual(['confirm', 'pickSize'])
    expect(plugin.handlers.pickSize).toBe(pickSize)
    expect(plugin).not.toHaveProperty('resultView')
    const result = await run(() => plugin.handlers.confirm!({ total: 12 } as never, {} as PluginClientContext))
    expect(result).toEqual({ action: 'accept', content: { ok: true } })
  })

  it('carries the result view when one is given', () => {
    const View = () => null
    const plugin = makePlugin<typeof tool>('order_pizza')
      .onElicit({
        *pickSize() {
          return { action: 'decline' }
        },
        *confirm() {
          return { action: 'decline' }
        },
      })
      .resultView(View)
      .build()
    expect(plugin.resultView).toBe(View)
  })

  it('builds a plugin for a tool with no elicitations', () => {
    const quiet = createMcpTool('quiet').elicits({}).execute(function* () {})
    const plugin = makePlugin<typeof quiet>('quiet').onElicit({}).build()
    expect(plugin).toEqual({ toolName: 'quiet', handlers: {} })
  })
})
