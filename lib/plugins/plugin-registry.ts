import type { ComponentType } from 'react'
import { formQuestionHandler, type FormQuestionProps } from './question-handler'
import type { PluginClientRegistration, PluginSource } from './types'

type Handler = PluginClientRegistration['handlers'][string]

export interface PluginRegistry {
  register(plugin: PluginSource): void
  /** The plugin's browser half if it is loaded (always, for one registered whole). */
  get(toolName: string): PluginClientRegistration | undefined
  /**
   * The plugin's browser half, loading it the first time it is asked for; undefined when no
   * plugin serves the tool. A load that failed (a chunk that did not arrive) is tried again
   * on the next call.
   */
  load(toolName: string): Promise<PluginClientRegistration | undefined>
  has(toolName: string): boolean
  /**
   * The handler of a question its plugin has no handler for (or whose tool has no browser half):
   * the form generated from it, loaded the first time; undefined when the registry has none.
   */
  loadFormQuestion(): Promise<Handler | undefined>
}

interface Entry {
  source: PluginSource
  loaded?: PluginClientRegistration
  loading?: Promise<PluginClientRegistration>
}

/**
 * Plugins by tool name, whole or as loaders of their browser half (so that a plugin's
 * components reach the browser only when its tool card appears). Registering a name twice is
 * a mistake and throws.
 */
export function createPluginRegistry(
  plugins: readonly PluginSource[] = [],
  {
    fallback,
    formQuestion,
  }: {
    /**
     * The browser half for a tool no plugin serves, if there is one for it (external MCP
     * tools share one); asked the first time a name is looked up, and kept when it gives one.
     */
    fallback?: (toolName: string) => PluginSource | undefined
    /** Loads the component that shows a question as the form generated from it (`FormQuestion`), for questions no handler answers. */
    formQuestion?: () => Promise<ComponentType<FormQuestionProps>>
  } = {},
): PluginRegistry {
  const byName = new Map<string, Entry>()
  const entryOf = (toolName: string) => {
    const entry = byName.get(toolName)
    if (entry || !fallback) return entry
    const source = fallback(toolName)
    if (!source) return undefined
    const adopted: Entry = 'load' in source ? { source } : { source, loaded: source }
    byName.set(toolName, adopted)
    return adopted
  }

  function load(entry: Entry): Promise<PluginClientRegistration> {
    if (entry.loaded) return Promise.resolve(entry.loaded)
    if (!('load' in entry.source)) return Promise.resolve(entry.source)
    const { toolName, load: loader } = entry.source
    // A plugin's browser half parses with Zod: Zod is told first not to compile its parsers,
    // which the page's CSP forbids (zod-without-eval.ts). Loaded with the plugin, never before.
    entry.loading ??= loadZodWithoutEval()
      .then(loader)
      .then(
        (plugin) => {
          if (plugin.toolName !== toolName) {
            throw new Error(`The plugin loaded for tool "${toolName}" is the plugin of "${plugin.toolName}".`)
          }
          entry.loaded = plugin
          return plugin
        },
        (failure: unknown) => {
          entry.loading = undefined
          throw failure
        },
      )
    return entry.loading
  }

  let formQuestionLoading: Promise<Handler> | undefined
  function loadFormQuestion(): Promise<Handler | undefined> {
    if (!formQuestion) return Promise.resolve(undefined)
    // Like a plugin's browser half, it parses with Zod: told first not to compile its parsers.
    formQuestionLoading ??= loadZodWithoutEval()
      .then(formQuestion)
      .then(formQuestionHandler, (failure: unknown) => {
        formQuestionLoading = undefined
        throw failure
      })
    return formQuestionLoading
  }

  const registry: PluginRegistry = {
    register(plugin) {
      if (byName.has(plugin.toolName)) {
        throw new Error(`A plugin for tool "${plugin.toolName}" is already registered.`)
      }
      byName.set(plugin.toolName, 'load' in plugin ? { source: plugin } : { source: plugin, loaded: plugin })
    },
    get: (toolName) => entryOf(toolName)?.loaded,
    async load(toolName) {
      const entry = entryOf(toolName)
      return entry ? load(entry) : undefined
    },
    has: (toolName) => entryOf(toolName) !== undefined,
    loadFormQuestion,
  }
  for (const plugin of plugins) registry.register(plugin)
  return registry
}

/** zod-without-eval.ts, imported on demand: Zod stays out of the page's first load. */
function loadZodWithoutEval(): Promise<unknown> {
  return import('./zod-without-eval')
}
