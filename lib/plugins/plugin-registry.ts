import type { PluginClientRegistration } from './types'

export interface PluginRegistry {
  register(plugin: PluginClientRegistration): void
  get(toolName: string): PluginClientRegistration | undefined
  has(toolName: string): boolean
}

/** Plugins by tool name; registering a name twice is a mistake and throws. */
export function createPluginRegistry(plugins: readonly PluginClientRegistration[] = []): PluginRegistry {
  const byName = new Map<string, PluginClientRegistration>()
  const registry: PluginRegistry = {
    register(plugin) {
      if (byName.has(plugin.toolName)) {
        throw new Error(`A plugin for tool "${plugin.toolName}" is already registered.`)
      }
      byName.set(plugin.toolName, plugin)
    },
    get: (toolName) => byName.get(toolName),
    has: (toolName) => byName.has(toolName),
  }
  for (const plugin of plugins) registry.register(plugin)
  return registry
}
