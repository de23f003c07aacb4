import { describe, expect, it } from 'vitest'
import { createPluginRegistry } from './plugin-registry'
import type { PluginClientRegistration } from './types'

function registration(toolName: string): PluginClientRegistration {
  return {
    toolName,
    handlers: {
      *confirm() {
        return { action: 'decline' }
      },
    },
  }
}

describe('createPluginRegistry', () => {
  it('registers plugins and finds them by tool name', () => {
    const registry = createPluginRegistry()
    const flights = registration('book_flight')
    expect(registry.has('book_flight')).toBe(false)
    expect(registry.get('book_flight')).toBeUndefined()

    registry.register(flights)

    expect(registry.has('book_flight')).toBe(true)
    expect(registry.get('book_flight')).toBe(flights)
    expect(registry.has('order_pizza')).toBe(false)
    expect(registry.get('order_pizza')).toBeUndefined()
  })

  it('is created from a list of plugins', () => {
    const flights = registration('book_flight')
    const pizza = registration('order_pizza')
    const registry = createPluginRegistry([flights, pizza])
    expect(registry.get('book_flight')).toBe(flights)
    expect(registry.get('order_pizza')).toBe(pizza)
  })

  it('throws when a tool name is registered twice, keeping the first plugin', () => {
    const first = registration('book_flight')
    const registry = createPluginRegistry([first])
    expect(() => registry.register(registration('book_flight'))).toThrow('A plugin for tool "book_flight" is already registered.')
    expect(registry.get('book_flight')).toBe(first)
  })

  it('throws when the initial list names a tool twice', () => {
    expect(() => createPluginRegistry([registration('book_flight'), registration('book_flight')])).toThrow(
      'A plugin for tool "book_flight" is already registered.',
    )
  })

  it('does not mistake built-in object names for plugins', () => {
    const registry = createPluginRegistry([registration('book_flight')])
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(registry.has(name)).toBe(false)
      expect(registry.get(name)).toBeUndefined()
    }
  })

  it('keeps registries apart', () => {
    const one = createPluginRegistry([registration('book_flight')])
    const two = createPluginRegistry()
    expect(two.has('book_flight')).toBe(false)
    two.register(registration('book_flight'))
    expect(one.get('book_flight')).not.toBe(two.get('book_flight'))
  })

  it('loads a plugin the first time it is asked for, once', async () => {
    const flights = registration('book_flight')
    let loads = 0
    const registry = createPluginRegistry([
      {
        toolName: 'book_flight',
        load: async () => {
          loads++
          return flights
        },
      },
    ])
    expect(registry.has('book_flight')).toBe(true)
    expect(registry.get('book_flight')).toBeUndefined()
    expect(loads).toBe(0)
    const [first, second] = await Promise.all([registry.load('book_flight'), registry.load('book_flight')])
    expect(first).toBe(flights)
    expect(second).toBe(flights)
    expect(registry.get('book_flight')).toBe(flights)
    expect(loads).toBe(1)
    expect(await registry.load('order_pizza')).toBeUndefined()
  })

  it('gives a plugin registered whole at once', async () => {
    const flights = registration('book_flight')
    expect(await createPluginRegistry([flights]).load('book_flight')).toBe(flights)
  })

  it('tries a failed load again on the next call', async () => {
    const flights = registration('book_flight')
    let attempts = 0
    const registry = createPluginRegistry([
      {
        toolName: 'book_flight',
        load: async () => {
          if (++attempts === 1) throw new Error('ChunkLoadError')
          return flights
        },
      },
    ])
    await expect(registry.load('book_flight')).rejects.toThrow('ChunkLoadError')
    expect(registry.get('book_flight')).toBeUndefined()
    expect(await registry.load('book_flight')).toBe(flights)
    expect(attempts).toBe(2)
  })

  it('refuses a loader that brings another tool’s plugin', async () => {
    const registry = createPluginRegistry([{ toolName: 'book_flight', load: async () => registration('order_pizza') }])
    await expect(registry.load('book_flight')).rejects.toThrow('The plugin loaded for tool "book_flight" is the plugin of "order_pizza".')
  })
})

describe('a fallback for tools no plugin serves', () => {
  it('is asked once per name, and only for names no plugin has', async () => {
    const asked: string[] = []
    const registry = createPluginRegistry([{ toolName: 'book_flight', handlers: {} }], {
      fallback: (toolName) => {
        asked.push(toolName)
        return toolName.includes('__') ? { toolName, load: async () => ({ toolName, handlers: {} }) } : undefined
      },
    })
    expect(registry.has('book_flight')).toBe(true)
    expect(registry.has('everything__echo')).toBe(true)
    expect(registry.get('everything__echo')).toBeUndefined()
    expect((await registry.load('everything__echo'))?.toolName).toBe('everything__echo')
    expect(registry.get('everything__echo')?.toolName).toBe('everything__echo')
    expect(registry.has('unknown')).toBe(false)
    expect(asked).toEqual(['everything__echo', 'unknown'])
  })
})
