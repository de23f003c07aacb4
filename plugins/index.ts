import { bookFlightPlugin } from './book-flight/plugin'

/** The one list of plugins: the server takes their tools, the browser their handlers. */
export const plugins = [bookFlightPlugin] as const

export type PluginName = (typeof plugins)[number]['name']
