import { createContext, type Operation } from 'effection'
import type { Context } from '@opentelemetry/api'

/**
 * The trace the work of an operation belongs to, for the spans made below it (a store's read or
 * write, a call to an external MCP server): the turn's `invoke_agent` span while a chat turn
 * runs, the tool call's `execute_tool` span while its session runs. A function, read when a span
 * is made: a session's span changes at each resume. Set only when traces are exported (a
 * `TraceParent.with` in the engine and the live session); unset, nothing below makes a span.
 *
 * An Effection context rather than OpenTelemetry's own (AsyncLocalStorage): Effection resumes an
 * operation from whichever promise settled, so the async context there is not the turn's.
 */
export const TraceParent = createContext<(() => Context | undefined) | undefined>('elicit-chat.trace-parent', undefined)

/** The trace context of the operation running, or undefined when none was set (traces off, or work outside a turn). */
export function* traceParent(): Operation<Context | undefined> {
  return (yield* TraceParent.get())?.()
}
