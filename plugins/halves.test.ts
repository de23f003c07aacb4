import { describe, expect, it } from 'vitest'
import { pluginUis } from './browser'
import { plugins } from './index'

// The compiler holds the two lists to the same names and each handler to its key; this holds
// them to it at run time too, where a handler could still go missing behind a cast.
describe('every plugin has a server half and a browser half', () => {
  it('names the same plugins in both lists', () => {
    expect(pluginUis.map((plugin) => plugin.toolName).sort()).toEqual(plugins.map((plugin) => plugin.name).sort())
  })

  it.each(plugins.map((plugin) => [plugin.name, plugin] as const))('%s: one browser handler per elicitation key', async (name, plugin) => {
    const source = pluginUis.find((candidate) => candidate.toolName === name)
    const ui = source && 'load' in source ? await source.load() : source
    expect(ui?.toolName).toBe(name)
    expect(Object.keys(ui?.handlers ?? {}).sort()).toEqual(Object.keys(plugin.tool.elicits).sort())
    for (const handler of Object.values(ui?.handlers ?? {})) expect(typeof handler).toBe('function')
  })
})
