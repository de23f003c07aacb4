import type { Operation } from 'effection'
import type { ComponentType } from 'react'
import type { AnyMcpTool } from '../tools/types'
import type { ElicitHandlers, PluginClientRegistration, PluginUi, ResultViewProps } from './types'

type ElicitsOf<T extends AnyMcpTool> = T['elicits']

/** What the tool's `execute` returns. */
export type ToolResultOf<T extends AnyMcpTool> = ReturnType<T['execute']> extends Operation<infer R> ? R : unknown

export interface PluginBuilder<TTool extends AnyMcpTool> {
  /** One handler per declared elicitation key; a missing key does not compile. */
  onElicit(handlers: ElicitHandlers<ElicitsOf<TTool>>): PluginWithHandlers<TTool>
}

export interface PluginWithHandlers<TTool extends AnyMcpTool> {
  /** Optional: show the tool's result with this component instead of the generic view. */
  resultView(Component: ComponentType<ResultViewProps<ToolResultOf<TTool>>>): { build(): PluginUi<TTool> }
  build(): PluginUi<TTool>
}

/**
 * Build a plugin's browser half: its elicitation handlers and result view, typed by its tool.
 * The tool is imported as a type only (`import type`), so none of its code reaches the
 * browser; its name is checked against the tool's.
 *
 * @example
 * import type { greetTool } from './tool'
 *
 * export const greetPlugin = makePlugin<typeof greetTool>('greet')
 *   .onElicit({
 *     *pickName(request, ctx) {
 *       const name = yield* ctx.render(NameForm, { prompt: request.message })
 *       return { action: 'accept', content: { name } }
 *     },
 *   })
 *   .build()
 */
export function makePlugin<TTool extends AnyMcpTool>(toolName: TTool['name']): PluginBuilder<TTool> {
  return {
    onElicit(handlers) {
      const build = (resultView?: PluginClientRegistration['resultView']): PluginUi<TTool> => ({
        toolName,
        handlers: handlers as unknown as PluginClientRegistration['handlers'],
        ...(resultView ? { resultView } : {}),
      })
      return {
        resultView: (Component) => ({ build: () => build(Component as PluginClientRegistration['resultView']) }),
        build: () => build(),
      }
    },
  }
}
