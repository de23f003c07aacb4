import type { Operation } from 'effection'
import type { ComponentType } from 'react'
import type { AnyMcpTool } from '../tools/types'
import type { ElicitHandlers, Plugin, PluginClientRegistration, ResultViewProps } from './types'

type ElicitsOf<T extends AnyMcpTool> = T['elicits']
/** What the tool's `execute` returns. */
export type ToolResultOf<T extends AnyMcpTool> = ReturnType<T['execute']> extends Operation<infer R> ? R : unknown

export interface PluginBuilder<TTool extends AnyMcpTool> {
  /** One handler per declared elicitation key; a missing key does not compile. */
  onElicit(handlers: ElicitHandlers<ElicitsOf<TTool>>): PluginWithHandlers<TTool>
}

export interface PluginWithHandlers<TTool extends AnyMcpTool> {
  /** Optional: show the tool's result with this component instead of the generic view. */
  resultView(Component: ComponentType<ResultViewProps<ToolResultOf<TTool>>>): { build(): Plugin<TTool> }
  build(): Plugin<TTool>
}

/**
 * Turn a tool into a plugin: the tool for the server, its elicitation handlers for the browser.
 *
 * @example
 * export const greetPlugin = makePlugin(greetTool)
 *   .onElicit({
 *     *pickName(request, ctx) {
 *       const name = yield* ctx.render(NameForm, { prompt: request.message })
 *       return { action: 'accept', content: { name } }
 *     },
 *   })
 *   .build()
 */
export function makePlugin<TTool extends AnyMcpTool>(tool: TTool): PluginBuilder<TTool> {
  return {
    onElicit(handlers) {
      const missing = Object.keys(tool.elicits).filter((key) => typeof (handlers as Record<string, unknown>)[key] !== 'function')
      if (missing.length > 0) {
        throw new Error(`Plugin "${tool.name}" has no onElicit handler for: ${missing.join(', ')}.`)
      }
      const build = (resultView?: PluginClientRegistration['resultView']): Plugin<TTool> => ({
        name: tool.name,
        tool,
        server: { tools: [tool] as const },
        client: {
          toolName: tool.name,
          handlers: handlers as unknown as PluginClientRegistration['handlers'],
          ...(resultView ? { resultView } : {}),
        },
      })
      return {
        resultView: (Component) => ({ build: () => build(Component as PluginClientRegistration['resultView']) }),
        build: () => build(),
      }
    },
  }
}
