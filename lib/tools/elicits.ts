import { z } from 'zod'

/**
 * What a tool declares for one elicitation key: the schema of the user's response, or
 * `{ response, context }` when the context passed to `ctx.elicit` is typed and validated too.
 */
export type ElicitSpec = z.ZodType | { response: z.ZodType; context: z.ZodType } | DynamicElicitSpec

/**
 * A question whose answer's schema comes with each question, in its context (an external MCP
 * server's form: its `requestedSchema`). `responseFor` builds the schema the answer is checked
 * against from the validated context, when it is asked and again when an answer arrives.
 */
export interface DynamicElicitSpec<C extends z.ZodType = z.ZodType> {
  context: C
  responseFor(context: z.output<C>): z.ZodType
}

/** The finite elicitation surface of a tool, as passed to `.elicits({...})`. */
export type ElicitsMap = Record<string, ElicitSpec>

/** The response content a key accepts, after validation. */
export type ResponseOf<S extends ElicitSpec> = S extends DynamicElicitSpec
  ? Record<string, unknown>
  : S extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : S extends z.ZodType
    ? z.output<S>
    : never

/** The context a tool passes to `ctx.elicit` for a key (free-form JSON unless declared). */
export type ContextOf<S extends ElicitSpec> = S extends { context: infer C extends z.ZodType }
  ? z.output<C>
  : Record<string, unknown>

/** What the tool passes to `ctx.elicit(key, ...)`: a message for people, the rest is context. */
export type ElicitOptions<S extends ElicitSpec> = { message: string } & (S extends {
  context: infer C extends z.ZodType
}
  ? z.input<C>
  : Record<string, unknown>)

/** The schema an answer is checked against; a dynamic spec's is built from the question's context. */
export function responseSchemaOf(spec: ElicitSpec, context: Record<string, unknown> = {}): z.ZodType {
  if (spec instanceof z.ZodType) return spec
  if ('responseFor' in spec) return spec.responseFor(spec.context.parse(context))
  return spec.response
}

export function contextSchemaOf(spec: ElicitSpec): z.ZodType | undefined {
  return spec instanceof z.ZodType ? undefined : spec.context
}
