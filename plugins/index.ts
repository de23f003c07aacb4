import { bookFlightPlugin } from './book-flight/plugin'
import { pickCardPlugin } from './pick-card/plugin'
import { ticTacToePlugin } from './tictactoe/plugin'

/** The one list of plugins: the server takes their tools, the browser their handlers. */
export const plugins = [bookFlightPlugin, ticTacToePlugin, pickCardPlugin] as const

export type PluginName = (typeof plugins)[number]['name']
