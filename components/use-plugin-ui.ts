import { useEffect, useState } from 'react'
import type { PluginClientRegistration, PluginRegistry } from '@/lib/plugins'

export type PluginUiState =
  | { status: 'loading' }
  | { status: 'ready'; plugin: PluginClientRegistration }
  /** No plugin serves this tool (an external MCP tool), or its code could not be loaded. */
  | { status: 'none' }

/** The browser half of the plugin of `toolName`, loaded when the card that asks for it mounts. */
export function usePluginUi({ registry, toolName }: { registry: PluginRegistry; toolName: string }): PluginUiState {
  const [state, setState] = useState<PluginUiState>(() => initial({ registry, toolName }))
  useEffect(() => {
    const now = initial({ registry, toolName })
    setState(now)
    if (now.status !== 'loading') return
    let current = true
    registry.load(toolName).then(
      (plugin) => current && setState(plugin ? { status: 'ready', plugin } : { status: 'none' }),
      () => current && setState({ status: 'none' }),
    )
    return () => {
      current = false
    }
  }, [registry, toolName])
  return state
}

function initial({ registry, toolName }: { registry: PluginRegistry; toolName: string }): PluginUiState {
  const plugin = registry.get(toolName)
  if (plugin) return { status: 'ready', plugin }
  return registry.has(toolName) ? { status: 'loading' } : { status: 'none' }
}
