import { z } from 'zod'

/**
 * What a tool declares for one elicitation key: the schema of the user's response, or
 * `{ response, context }` when the context passed to `ctx.elicit` is typed and validated too.
 */
export type ElicitSpec = z.ZodType | { response: z.ZodType; context: z.ZodType }

/** The finite elicitation surface of a tool, as passed to `.elicits({...})`. */
export type ElicitsMap = Record<string, ElicitSpec>

/** The response content a key accepts, after validation. */
export type ResponseOf<S extends ElicitSpec> = S extends { response: infer R extends z.ZodType }
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

export function responseSchemaOf(spec: ElicitSpec): z.ZodType {
  return spec instanceof z.ZodType ? spec : spec.response
}

export function contextSchemaOf(spec: ElicitSpec): z.ZodType | undefined {
  return spec instanceof z.ZodType ? undefined : spec.context
}
