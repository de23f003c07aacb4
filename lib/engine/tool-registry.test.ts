import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { AnyMcpTool } from '../tools/types'
import type { ExternalTool } from '../tools/external-tools'
import { createToolRegistry } from './tool-registry'

// eslint-disable-next-line require-yield
const own = createMcpTool('echo').description('Echoes').parameters(z.object({ text: z.string() })).elicits({}).execute(function* ({ text }) {
  return text
}) as AnyMcpTool

function external(name: string): ExternalTool {
  return {
    tool: { ...own, name, liveOnly: { startedBy: 'call the server' } },
    description: `${name} from a server`,
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    source: `mcp:${name.split('__')[0]}`,
    origin: { server: name.split('__')[0]!, tool: name.split('__')[1]! },
  }
}

describe('the tool registry with external tools', () => {
  it('offers them beside the app’s own, with their own schemas; the app’s own keep their names', () => {
    let listed = [external('everything__echo'), { ...external('x__y'), tool: { ...own, name: 'echo' } }]
    const registry = createToolRegistry([own], { list: () => listed, get: (name) => listed.find((entry) => entry.tool.name === name) })
    expect(registry.describe()).toEqual([
      { name: 'echo', description: 'Echoes', source: 'plugin' },
      { name: 'everything__echo', description: 'everything__echo from a server', source: 'mcp:everything' },
    ])
    expect(registry.get('echo')).toBe(own)
    expect(registry.originOf('echo')).toBeUndefined()
    expect(registry.originOf('everything__echo')).toEqual({ server: 'everything', tool: 'echo' })
    const first = registry.forModel()
    expect(Object.keys(first)).toEqual(['echo', 'everything__echo'])
    // The same tools on offer: the same set (converted for the model once); a change: a new one.
    expect(registry.forModel()).toBe(first)
    listed = [listed[0]!, external('files__list')]
    expect(Object.keys(registry.forModel())).toEqual(['echo', 'everything__echo', 'files__list'])
    listed = []
    expect(Object.keys(registry.forModel())).toEqual(['echo'])
  })

  it('keeps an app-only tool from the model and from being started, marks it in the list, still finds it by name', () => {
    const appOnly = { ...external('monitor__poll-system-stats'), appOnly: true }
    const listed = [external('monitor__get-system-stats'), appOnly]
    const registry = createToolRegistry([own], { list: () => listed, get: (name) => listed.find((entry) => entry.tool.name === name) })
    expect(Object.keys(registry.forModel())).toEqual(['echo', 'monitor__get-system-stats'])
    expect(registry.describe().at(-1)).toEqual({ name: 'monitor__poll-system-stats', description: 'monitor__poll-system-stats from a server', source: 'mcp:monitor', appOnly: true })
    expect(registry.describe().at(-2)).not.toHaveProperty('appOnly')
    expect(registry.availabilityOf('monitor__poll-system-stats')).toBe('app-only')
    expect(registry.availabilityOf('monitor__get-system-stats')).toBe('available')
    expect(registry.availabilityOf('echo')).toBe('available')
    expect(registry.availabilityOf('monitor__nope')).toBe('unknown')
    // A session already running with it still reaches its tool.
    expect(registry.get('monitor__poll-system-stats')).toBe(appOnly.tool)
  })

  it('lists, offers and lets start an external server\'s tools only for the people its audience admits', () => {
    const listed = [external('files__read'), external('notes__add')]
    const person = (email: string) => ({ person: { email, emailVerified: true, groups: [], isAdmin: false } })
    const registry = createToolRegistry([own], { list: () => listed, get: (name) => listed.find((entry) => entry.tool.name === name) }, {
      admits: (server, who) => server === 'notes' || who?.email === 'alice@example.com',
    })
    const alice = person('alice@example.com')
    const bob = person('bob@example.com')
    expect(registry.describe(alice).map((tool) => tool.name)).toEqual(['echo', 'files__read', 'notes__add'])
    expect(registry.describe(bob).map((tool) => tool.name)).toEqual(['echo', 'notes__add'])
    expect(Object.keys(registry.forModel(alice))).toEqual(['echo', 'files__read', 'notes__add'])
    expect(Object.keys(registry.forModel(bob))).toEqual(['echo', 'notes__add'])
    expect(Object.keys(registry.forModel(undefined))).toEqual(['echo', 'notes__add'])
    expect(registry.availabilityOf('files__read', alice)).toBe('available')
    expect(registry.availabilityOf('files__read', bob)).toBe('not-allowed')
    expect(registry.availabilityOf('files__nope', bob)).toBe('unknown')
    expect(registry.availabilityOf('echo', bob)).toBe('available')
    // A session already running still finds its tool: the audience decides what starts, not what finishes.
    expect(registry.get('files__read')).toBeDefined()
  })
})

