import { until, withResolvers, type Operation } from 'effection'
import type { ComponentType } from 'react'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { PluginRegistry } from './plugin-registry'
import type { Question } from '../protocol/question'
import type { PluginClientContext } from './types'

/** One component a handler rendered, as the chat shows it. */
export interface RenderedComponent {
  /** Counts the handler's render calls from 0; answers are recorded by it. */
  index: number
  Component: ComponentType<never>
  props: Record<string, unknown>
  /** True once answered: `response` is then what the component passed to `onRespond` (which may be `undefined`). */
  answered: boolean
  response?: unknown
  /** Answer this render (once; a no-op once answered). */
  respond(value: unknown): void
}

export interface CreatePluginClientContextOptions {
  request: Question
  signal: AbortSignal
  /** Called for every render, and again when it is answered. */
  show(rendered: RenderedComponent): void
  /** Answers recorded before a reload, by render index: those renders resume at once. */
  recorded?: readonly unknown[]
}

export function createPluginClientContext({
  request,
  signal,
  show,
  recorded = [],
}: CreatePluginClientContextOptions): PluginClientContext {
  let renders = 0
  return {
    callId: request.callId,
    signal,
    elicitRequest: request,
    *render(Component, props) {
      const index = renders++
      const base = { index, Component: Component as ComponentType<never>, props: props as Record<string, unknown> }
      if (index < recorded.length) {
        const value = recorded[index]
        show({ ...base, answered: true, response: value, respond: () => {} })
        return value as never
      }
      const answer = withResolvers<unknown>(`render ${request.toolName}.${request.key} #${index}`)
      let answered = false
      show({
        ...base,
        answered: false,
        respond(value) {
          if (answered || signal.aborted) return
          answered = true
          show({ ...base, answered: true, response: value, respond: () => {} })
          answer.resolve(value)
        },
      })
      return (yield* answer.operation) as never
    },
  }
}

export class PluginHandlerError extends Error {
  override name = 'PluginHandlerError'
}

/**
 * Run the registered `onElicit` handler for a request and return the user's answer; a question
 * its plugin has no handler for (or whose tool has no browser half) is shown as its form.
 */
export function* executePluginElicitHandler({
  registry,
  request,
  ctx,
}: {
  registry: PluginRegistry
  request: Question
  ctx: PluginClientContext
}): Operation<ElicitAnswer> {
  // The plugin's browser half arrives with its first question (or its tool card) in this page.
  const plugin = registry.get(request.toolName) ?? (yield* until(registry.load(request.toolName)))
  // Own keys only: a key such as "constructor" must not find Object.prototype's.
  const own = plugin && Object.hasOwn(plugin.handlers, request.key) ? plugin.handlers[request.key] : undefined
  const handler = own ?? (yield* until(registry.loadFormQuestion()))
  if (!handler) {
    throw new PluginHandlerError(
      plugin ? `Plugin "${request.toolName}" has no handler for elicitation "${request.key}".` : `No plugin is registered for tool "${request.toolName}".`,
    )
  }
  return yield* handler(request, ctx)
}
