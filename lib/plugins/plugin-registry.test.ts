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
})
