import { run } from 'effection'
import { Component, memo } from 'react'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import { makePlugin } from './make-plugin'
import type { ElicitProps, PluginClientContext } from './types'

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
    function* confirm(request: { context: { total: number } }) {
      return { action: 'accept', content: { ok: request.context.total < 30 } } as const
    }
    const plugin = makePlugin<typeof tool>('order_pizza').onElicit({ pickSize, confirm }).build()
    expect(plugin.toolName).toBe('order_pizza')
    expect(Object.keys(plugin.handlers).sort()).toEqual(['confirm', 'pickSize'])
    expect(plugin.handlers.pickSize).toBe(pickSize)
    expect(plugin).not.toHaveProperty('resultView')
    expect(plugin).not.toHaveProperty('components')
    const result = await run(() => plugin.handlers.confirm!({ context: { total: 12 } } as never, {} as PluginClientContext))
    expect(result).toEqual({ action: 'accept', content: { ok: true } })
  })

  it('tells components from generator handlers: a component is listed, and answered by a handler of its own', () => {
    const SizePicker = (_props: ElicitProps<typeof tool, 'pickSize'>) => null
    function* confirm(_request: unknown, _ctx: unknown) {
      return { action: 'decline' } as const
    }
    const plugin = makePlugin<typeof tool>('order_pizza').onElicit({ pickSize: SizePicker, confirm }).build()
    expect(plugin.components).toEqual({ pickSize: SizePicker })
    expect(plugin.handlers.confirm).toBe(confirm)
    expect(typeof plugin.handlers.pickSize).toBe('function')
    expect(plugin.handlers.pickSize).not.toBe(SizePicker)
  })

  it.each([
    ['a function component', function Sizes(_props: ElicitProps<typeof tool, 'pickSize'>) {
      return null
    }],
    ['an arrow function component', (_props: ElicitProps<typeof tool, 'pickSize'>) => null],
    ['a memo component', memo((_props: ElicitProps<typeof tool, 'pickSize'>) => null)],
    [
      'a class component',
      class Sizes extends Component<ElicitProps<typeof tool, 'pickSize'>> {
        override render() {
          return null
        }
      },
    ],
  ])('takes %s for a component', (_kind, SizePicker) => {
    const plugin = makePlugin<typeof tool>('order_pizza')
      .onElicit({
        pickSize: SizePicker,
        *confirm(_request, _ctx) {
          return { action: 'decline' }
        },
      })
      .build()
    expect(plugin.components).toEqual({ pickSize: SizePicker })
  })

  it('carries the result view when one is given', () => {
    const View = () => null
    const plugin = makePlugin<typeof tool>('order_pizza')
      .onElicit({
        *pickSize(_request, _ctx) {
          return { action: 'decline' }
        },
        *confirm(_request, _ctx) {
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
