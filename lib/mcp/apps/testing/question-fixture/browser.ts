import type { PluginSource } from '../../../../plugins/types'

/** The fixture's plugin list, in the shape of `plugins/browser.ts`: what the MCP Apps build reads. */
export const pluginUis: readonly PluginSource[] = [{ toolName: 'paint_poster', load: () => import('./plugin').then((module) => module.paintPosterPlugin) }]
