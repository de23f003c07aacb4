import { describe, expect, it } from 'vitest'
import { browserHalves, pluginUis } from './browser'
import { plugins } from './index'

// The compiler holds the two lists to the same names and each handler to its key; this holds
// them to it at run time too, where a handler could still go missing behind a cast.
// A plugin without a browser half (null in ./browser.ts) has none to check: the chat shows each of
// its questions as its form, which mcp-forms.test.ts holds to what a form can show.
describe('every plugin has a server half, and its browser half answers each of its questions', () => {
  it('names the same plugins in both lists', () => {
    expect(Object.keys(browserHalves).sort()).toEqual(plugins.map((plugin) => plugin.name).sort())
  })

  it.each(plugins.filter((plugin) => pluginUis.some((ui) => ui.toolName === plugin.name)).map((plugin) => [plugin.name, plugin] as const))('%s: one browser handler per elicitation key', async (name, plugin) => {
    const source = pluginUis.find((candidate) => candidate.toolName === name)
    const ui = source && 'load' in source ? await source.load() : source
    expect(ui?.toolName).toBe(name)
    expect(Object.keys(ui?.handlers ?? {}).sort()).toEqual(Object.keys(plugin.tool.elicits).sort())
    for (const handler of Object.values(ui?.handlers ?? {})) expect(typeof handler).toBe('function')
  })
})
