import 'client-only'
import type { PluginSource, PluginUiLoader, PluginUiLoaders } from '@/lib/plugins'
import type { PluginName } from './index'

/**
 * The browser half of every plugin in `./index.ts`, by tool name: each is its own chunk,
 * loaded when the plugin's tool card first appears. A plugin missing here, or a name that is
 * not in `./index.ts`, does not compile; `null` for a plugin without one (a lone `tool.ts`),
 * whose questions the chat shows as their forms.
 */
export const browserHalves = {
  book_flight: () => import('./book-flight/plugin').then((module) => module.bookFlightPlugin),
  tictactoe: () => import('./tictactoe/plugin').then((module) => module.ticTacToePlugin),
  pick_card: () => import('./pick-card/plugin').then((module) => module.pickCardPlugin),
} satisfies PluginUiLoaders<PluginName>

export const pluginUis: readonly PluginSource[] = (Object.entries(browserHalves) as Array<[string, PluginUiLoader | null]>).flatMap(([toolName, load]) => (load ? [{ toolName, load }] : []))
