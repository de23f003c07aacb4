import 'server-only'
import type { OfflineSkill } from '@/lib/models'
import type { AnyMcpTool } from '@/lib/tools'
import { bookFlightOffline } from './book-flight/offline'
import { bookFlightTool } from './book-flight/tool'
import { pickCardOffline } from './pick-card/offline'
import { pickCardTool } from './pick-card/tool'
import { ticTacToeOffline } from './tictactoe/offline'
import { ticTacToeTool } from './tictactoe/tool'

/**
 * The one list of plugins, as the server knows them: each plugin's server half (its tool, its
 * offline skill, and what the empty chat suggests saying to it). The browser halves (handlers
 * and components) are listed by the same names in `./browser.ts`, which the compiler holds to
 * this list; the server never imports them.
 */
export const plugins = [
  { name: bookFlightTool.name, tool: bookFlightTool, offline: bookFlightOffline, suggestions: ['Book a flight from NYC to LAX'] },
  { name: ticTacToeTool.name, tool: ticTacToeTool, offline: ticTacToeOffline, suggestions: ['Let’s play tic-tac-toe'] },
  { name: pickCardTool.name, tool: pickCardTool, offline: pickCardOffline, suggestions: ['Pick a card and help me choose'] },
] as const satisfies ReadonlyArray<{ name: string; tool: AnyMcpTool; offline?: OfflineSkill; suggestions?: readonly string[] }>

/**
 * What the empty chat offers to say, each plugin's first (`suggestions` of its entry above: a
 * message the person can send as is, which the offline model understands too).
 */
export const pluginSuggestions: readonly string[] = plugins.flatMap((plugin) => ('suggestions' in plugin ? plugin.suggestions : []))

/** Every plugin's tools, as the chat server offers them to the model. */
export const pluginTools: readonly AnyMcpTool[] = plugins.map<AnyMcpTool>((plugin) => plugin.tool)

/** What the offline model knows of each plugin's tool (its `offline.ts`, when it has one), for the composition root to hand it. */
export const offlineSkills: readonly OfflineSkill[] = plugins.flatMap<OfflineSkill>((plugin) => ('offline' in plugin ? [plugin.offline] : []))

export type PluginName = (typeof plugins)[number]['name']
