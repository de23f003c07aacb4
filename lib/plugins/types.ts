import type { Operation } from 'effection'
import type { ComponentClass, ComponentType, ExoticComponent, ReactElement } from 'react'
import type { ContextOf, ElicitSpec, ElicitsMap, ResponseOf } from '../tools/elicits'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { AnyMcpTool } from '../tools/types'
import type { FormChoices } from '../protocol/question-form'
import type { Question } from '../protocol/question'

/**
 * The props of a component that answers a question by itself, registered for its key with
 * `.onElicit({ pickSeat: SeatPicker })`: what the question is, typed from the tool, and
 * `respond`, which answers with an `ElicitAnswer` (lib/protocol: the one answer shape, from the
 * component to the tool), the shape of the `ElicitResult` an MCP App returns over its bridge.
 * The same component renders in our chat's tool card and, bundled, in any MCP Apps host.
 */
export interface QuestionProps<TContext, TResponse> {
  /** The question, for people (a rejected answer's reason leads it). */
  message: string
  /** What the tool passed to `ctx.elicit` besides the message, decoded and typed. */
  context: TContext
  /** The offered answers of the question's choice fields, by field name (from its form). */
  choices: FormChoices
  /**
   * The answer the question starts from, from its `defaults` in `tool.ts` (a drafted text, the
   * usual choice): what the component shows first, for the person to change. Absent or `{}`
   * when the question declares none.
   */
  defaults?: Partial<TResponse>
  /** Answer: `{ action: 'accept', content }`, `{ action: 'decline' }` or `{ action: 'cancel' }`. Once only. */
  respond(result: ElicitAnswer<TResponse>): void
  /** True once answered or stopped: the component stays, showing `answered` if there is one. */
  disabled: boolean
  answered?: ElicitAnswer<TResponse>
}

/** `QuestionProps` typed from a tool and one of its question keys, e.g. `ElicitProps<typeof bookFlightTool, 'pickSeat'>`. */
export type ElicitProps<TTool extends AnyMcpTool, K extends keyof TTool['elicits'] & string> = QuestionProps<
  ContextOf<TTool['elicits'][K]>,
  ResponseOf<TTool['elicits'][K]>
>

/** The props the chat gives every component a plugin renders. */
export interface ElicitComponentProps<TResponse> {
  /** Answer with a value; the handler's `ctx.render` resumes with it. */
  onRespond: (value: TResponse) => void
  /** True once answered (or stopped): the component stays, showing `response`. */
  disabled: boolean
  response?: TResponse
}

export type ResponseOfProps<P> = P extends { onRespond: (value: infer R) => void } ? R : never
export type OwnProps<P> = Omit<P, keyof ElicitComponentProps<unknown>>

export interface PluginClientContext {
  callId: string
  /** Aborted when the elicitation is stopped (Stop, New chat, the session ended). */
  signal: AbortSignal
  /** The question, as it travelled (lib/protocol's `Question`). */
  elicitRequest: Question
  /** Show a component in the tool's card and resume with the value it passes to `onRespond`. */
  render<P extends { onRespond: (value: never) => void }>(Component: ComponentType<P>, props: OwnProps<P>): Operation<ResponseOfProps<P>>
}

export type ElicitHandler<TKey extends string, S extends ElicitSpec> = (
  /**
   * The question as it travelled and as the chat keeps it (lib/protocol's `Question`), typed by
   * its key and context; the context under `context` (never spread on it: a context key may be
   * named `message` or `key`).
   */
  request: Question<TKey, ContextOf<S>>,
  ctx: PluginClientContext,
) => Operation<ElicitAnswer<ResponseOf<S>>>

/**
 * A component that answers a key's question by itself, its props typed from the key's spec. What
 * it renders is an element, text or nothing — not an iterable, as React would also allow — so
 * a generator handler is never taken for a component.
 */
export type QuestionComponent<S extends ElicitSpec> =
  | ((props: QuestionProps<ContextOf<S>, ResponseOf<S>>) => ReactElement | string | number | null)
  | ComponentClass<QuestionProps<ContextOf<S>, ResponseOf<S>>>
  | ExoticComponent<QuestionProps<ContextOf<S>, ResponseOf<S>>>

/**
 * What answers each of a tool's questions in the browser: a component (`pickSeat: SeatPicker`),
 * or, for a flow that renders several steps, a generator handler (`*pickSeat(request, ctx) {...}`).
 * A handler names both its parameters: with fewer, TypeScript cannot tell it from a component
 * and leaves them untyped.
 */
export type ElicitRegistrations<TElicits extends ElicitsMap> = {
  [K in keyof TElicits & string]: QuestionComponent<TElicits[K]> | ElicitHandler<K, TElicits[K]>
}

/** The props of a plugin's view of its tool's result (the JSON value the tool returned). */
export interface ResultViewProps<TResult> {
  result: TResult
}

/** What the browser needs of a plugin: its tool's name, one handler per elicitation key, and optionally a result view. */
export interface PluginClientRegistration {
  toolName: string
  handlers: Record<string, (request: Question, ctx: PluginClientContext) => Operation<ElicitAnswer>>
  /**
   * The keys registered with a component that answers by itself (`.onElicit({ pickSeat: SeatPicker })`):
   * each is also an MCP App, built from the same component file.
   */
  components?: Record<string, ComponentType<QuestionProps<never, never>>>
  /** Shows the tool's result in its card instead of the generic key/value view. */
  resultView?: ComponentType<ResultViewProps<unknown>>
}

/**
 * A plugin's browser half, typed by its tool: what `makePlugin` builds in `plugins/<name>/plugin.ts`.
 * The tool itself stays on the server; the browser knows it by type only.
 */
export interface PluginUi<TTool extends AnyMcpTool = AnyMcpTool> extends PluginClientRegistration {
  toolName: TTool['name']
}

/** Brings a plugin's browser half, e.g. `() => import('./book-flight/plugin').then((module) => module.bookFlightPlugin)`. */
export type PluginUiLoader<TName extends string = string> = () => Promise<PluginClientRegistration & { toolName: TName }>

/**
 * One loader per plugin name: a name missing or one too many does not compile. `null`: the plugin
 * has no browser half (one `tool.ts`), and the chat shows each of its questions as its form.
 */
export type PluginUiLoaders<TName extends string> = { readonly [K in TName]: PluginUiLoader<K> | null }

/** What a registry holds for a tool: its browser half, or how to load it when its card appears. */
export type PluginSource = PluginClientRegistration | { toolName: string; load: PluginUiLoader }
