import { createPluginRegistry, type PluginRegistry, type PluginSource } from '@/lib/plugins'
import { externalToolSource } from './mcp/external-tool-source'

/**
 * The chat's registry of tool UIs, by tool name, never branched on: the plugins `app/` hands it
 * (each loaded when its tool card first appears), every external MCP tool's shared browser half,
 * and, for a question no component answers, the form generated from it (loaded with the first
 * such question). The chat never imports `plugins/`: the app composes them, as `lib/server` does
 * on the server.
 */
export function createChatRegistry(plugins: readonly PluginSource[]): PluginRegistry {
  return createPluginRegistry(plugins, {
    fallback: externalToolSource,
    formQuestion: () => import('./FormQuestion').then((module) => module.FormQuestion),
  })
}
