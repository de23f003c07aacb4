import type { OfflineSkill } from '@/lib/models'
import type { AnyMcpTool } from '@/lib/tools'
import { bookFlightOffline } from './book-flight/offline'
import { bookFlightPlugin } from './book-flight/plugin'
import { pickCardOffline } from './pick-card/offline'
import { pickCardPlugin } from './pick-card/plugin'
import { ticTacToeOffline } from './tictactoe/offline'
import { ticTacToePlugin } from './tictactoe/plugin'

/** The one list of plugins: the server takes their tools, the browser their handlers. */
export const plugins = [bookFlightPlugin, ticTacToePlugin, pickCardPlugin] as const

/** Every plugin's tools, as the chat server offers them to the model. */
export const pluginTools: readonly AnyMcpTool[] = plugins.flatMap<AnyMcpTool>((plugin) => plugin.server.tools)

/** What the offline model knows of each plugin's tool (its `offline.ts`), for the composition root to hand it. */
export const offlineSkills: readonly OfflineSkill[] = [bookFlightOffline, ticTacToeOffline, pickCardOffline]

export type PluginName = (typeof plugins)[number]['name']
