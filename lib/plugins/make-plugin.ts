import type { Operation } from 'effection'
import type { ComponentType } from 'react'
import type { AnyMcpTool } from '../tools/types'
import { questionHandler } from './question-handler'
import type { ElicitRegistrations, PluginClientRegistration, PluginUi, ResultViewProps } from './types'

type ElicitsOf<T extends AnyMcpTool> = T['elicits']

/** What the tool's `execute` returns. */
export type ToolResultOf<T extends AnyMcpTool> = ReturnType<T['execute']> extends Operation<infer R> ? R : unknown

export interface PluginBuilder<TTool extends AnyMcpTool> {
  /**
   * What answers each declared question: a component typed `ElicitProps<typeof tool, key>`, or a
   * generator handler for a flow of several steps. A missing key, or a component whose props
   * are not the key's, does not compile.
   */
  onElicit(registrations: ElicitRegistrations<ElicitsOf<TTool>>): PluginWithHandlers<TTool>
}

export interface PluginWithHandlers<TTool extends AnyMcpTool> {
  /** Optional: show the tool's result with this component instead of the generic view. */
  resultView(Component: ComponentType<ResultViewProps<ToolResultOf<TTool>>>): { build(): PluginUi<TTool> }
  build(): PluginUi<TTool>
}

type Handlers = PluginClientRegistration['handlers']
type Components = NonNullable<PluginClientRegistration['components']>

/**
 * Build a plugin's browser half: what answers its tool's questions, and its result view, typed
 * by its tool. The tool is imported as a type only (`import type`), so none of its code reaches
 * the browser; its name is checked against the tool's.
 *
 * A question is answered by a component that takes `ElicitProps<typeof tool, key>` and calls
 * `respond(result)` — the same component is the question's MCP App for other hosts. A flow that
 * shows several steps is a generator handler instead, rendering each with `ctx.render`.
 *
 * @example
 * import type { greetTool } from './tool'
 *
 * export const greetPlugin = makePlugin<typeof greetTool>('greet')
 *   .onElicit({
 *     pickName: NameForm,                 // function NameForm(props: ElicitProps<typeof greetTool, 'pickName'>)
 *     *confirm(request, ctx) {            // several steps: a generator handler
 *       const sure = yield* ctx.render(YesNo, { question: request.message })
 *       const again = sure && (yield* ctx.render(YesNo, { question: 'Really?' }))
 *       return again ? { action: 'accept', content: { ok: true } } : { action: 'decline' }
 *     },
 *   })
 *   .build()
 */
export function makePlugin<TTool extends AnyMcpTool>(toolName: TTool['name']): PluginBuilder<TTool> {
  return {
    onElicit(registrations) {
      const handlers: Handlers = {}
      const components: Components = {}
      for (const [key, registration] of Object.entries(registrations as Record<string, Handlers[string] | Components[string]>)) {
        if (isGeneratorFunction(registration)) {
          handlers[key] = registration as Handlers[string]
        } else {
          components[key] = registration as Components[string]
          handlers[key] = questionHandler(components[key])
        }
      }
      const build = (resultView?: PluginClientRegistration['resultView']): PluginUi<TTool> => ({
        toolName,
        handlers,
        ...(Object.keys(components).length > 0 ? { components } : {}),
        ...(resultView ? { resultView } : {}),
      })
      return {
        resultView: (Component) => ({ build: () => build(Component as PluginClientRegistration['resultView']) }),
        build: () => build(),
      }
    },
  }
}

/**
 * Tells a handler from a component. A generator function's `prototype` is the prototype of the
 * generators it makes, so it has `next` (natively, and when a compiler rewrites generators); a
 * function or class component's prototype has not, and a memo or forwardRef component is an
 * object. So a handler must be a generator function: anything else is taken as a component.
 */
function isGeneratorFunction(value: unknown): boolean {
  return typeof value === 'function' && typeof (value as { prototype?: { next?: unknown } }).prototype?.next === 'function'
}
