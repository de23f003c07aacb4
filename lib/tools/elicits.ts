import { z } from 'zod'
import { buildQuestionForm, type FormFields, type QuestionForm } from './form-fields'

/**
 * What a tool declares for one elicitation key: the schema of the user's response, or
 * `{ response, context }` when the context passed to `ctx.elicit` is typed and validated too.
 */
export type ElicitSpec = z.ZodType | QuestionSpec | DynamicElicitSpec

/**
 * A question with a typed context: the answer's schema, the context's, and optionally how it is
 * shown as a native form (MCP form-mode elicitation) and the answer it starts from, both derived
 * from the context — write it with `question({...})` so `form` and `defaults` see its type.
 */
export interface QuestionSpec<R extends z.ZodType = z.ZodType, C extends z.ZodType = z.ZodType> {
  response: R
  context: C
  /** The question's form: a titled field per part of the answer, choices whenever the valid answers are known. */
  form?(context: z.output<C>): FormFields<z.output<R>>
  /**
   * The answer the question starts from, for the person to change (a drafted text, the usual
   * choice): the component gets it as `defaults`, a native form as its fields' `default`.
   * JSON only; the answer is checked as any other when it comes back.
   */
  defaults?(context: z.output<C>): Partial<z.output<R>>
}

/**
 * A question declared with its form and defaults, typed from its response and context schemas.
 *
 * @example
 * invite: question({
 *   response: z.object({ text: z.string().min(1).max(2000) }),
 *   context: z.object({ attendee: z.string(), topic: z.string() }),
 *   form: () => ({ text: field.text('Invitation', { maxLength: 2000 }) }),
 *   defaults: ({ attendee, topic }) => ({ text: `Hi ${attendee}, shall we meet about ${topic}?` }),
 * })
 */
export function question<R extends z.ZodType, C extends z.ZodType>(spec: QuestionSpec<R, C>): QuestionSpec<R, C> {
  return spec
}

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

/**
 * The schema an answer is checked against; a dynamic spec's is built from the question's context,
 * as its declared schema parsed it (`parsedContext`: parsed once, by `PendingQuestion`). Without
 * one (the key's declaration alone, no question asked yet) an empty context is read.
 */
export function responseSchemaOf(spec: ElicitSpec, parsedContext?: unknown): z.ZodType {
  if (spec instanceof z.ZodType) return spec
  if ('responseFor' in spec) return spec.responseFor(parsedContext ?? spec.context.parse({}))
  return spec.response
}

export function contextSchemaOf(spec: ElicitSpec): z.ZodType | undefined {
  return spec instanceof z.ZodType ? undefined : spec.context
}

/**
 * How a question is shown as a native form, for the context it is asked with (`parsedContext`,
 * as for `responseSchemaOf`): the spec's own `form`, or else one derived from the response schema
 * (see `deriveFormFields`); with the spec's `defaults` for that context.
 */
export function questionFormOf(spec: ElicitSpec, parsedContext?: unknown): QuestionForm {
  if (spec instanceof z.ZodType) return buildQuestionForm(deriveFormFields(spec))
  const declared = 'response' in spec ? spec : undefined
  const parsed = declared?.form || declared?.defaults ? (parsedContext ?? spec.context.parse({})) : undefined
  const defaults = (declared?.defaults?.(parsed) ?? {}) as Record<string, unknown>
  const fields = declared?.form ? (declared.form(parsed) as FormFields<unknown>) : deriveFormFields(responseSchemaOf(spec, parsedContext))
  return buildQuestionForm(fields, defaults)
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])

/** The values of a JSON Schema string enum, or of a titled `anyOf` of string consts. */
function stringEnumOf(items: unknown): string[] | undefined {
  if (typeof items !== 'object' || items === null) return undefined
  const node = items as { enum?: unknown; anyOf?: unknown }
  const values = Array.isArray(node.enum) ? node.enum : Array.isArray(node.anyOf) ? node.anyOf.map((option) => (option as { const?: unknown })?.const) : undefined
  return values?.every((value) => typeof value === 'string') ? (values as string[]) : undefined
}

/**
 * Fields for a response schema that states no form: each property as its primitive, titled
 * by its `title` (`.meta({ title })`) or else by its name; an enum as a choice, an array of a
 * string enum as a multiple choice. What a form cannot carry (a pattern, an exclusive bound) is
 * left to the schema's own check; a property no form field can stand for (an object, a list of
 * objects) becomes a text field no answer fits, so an MCP server refuses such a tool when it
 * is registered.
 */
export function deriveFormFields(schema: z.ZodType): FormFields<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>
    required?: string[]
  }
  const required = new Set(json.required ?? [])
  const fields: FormFields<unknown> = {}
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    const title = typeof property.title === 'string' ? property.title : name
    const base = {
      title,
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      ...(required.has(name) ? {} : { optional: true }),
    }
    const safe = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined)
    if (Array.isArray(property.enum)) {
      // A value that is not a string (a number enum) is offered as its string and answered as itself.
      const options = property.enum.map((value) => ({ value: String(value), title: String(value), ...(typeof value === 'string' ? {} : { answer: { [name]: value } }) }))
      fields[name] = { kind: 'choice', ...base, options }
    } else if (property.type === 'array' && stringEnumOf(property.items)) {
      fields[name] = { kind: 'choices', ...base, options: stringEnumOf(property.items)!.map((value) => ({ value, title: value })) }
    } else if (property.type === 'string') {
      fields[name] = {
        kind: 'text',
        ...base,
        ...(typeof property.format === 'string' && FORMATS.has(property.format) ? { format: property.format as 'email' } : {}),
        ...(typeof property.minLength === 'number' ? { minLength: property.minLength } : {}),
        ...(typeof property.maxLength === 'number' ? { maxLength: property.maxLength } : {}),
        ...(typeof property.default === 'string' ? { default: property.default } : {}),
      }
    } else if (property.type === 'number' || property.type === 'integer') {
      const minimum = safe(property.minimum) ?? (typeof property.exclusiveMinimum === 'number' && property.type === 'integer' ? property.exclusiveMinimum + 1 : undefined)
      const maximum = safe(property.maximum) ?? (typeof property.exclusiveMaximum === 'number' && property.type === 'integer' ? property.exclusiveMaximum - 1 : undefined)
      fields[name] = {
        kind: property.type,
        ...base,
        ...(minimum !== undefined ? { minimum } : {}),
        ...(maximum !== undefined ? { maximum } : {}),
        ...(typeof property.default === 'number' ? { default: property.default } : {}),
      }
    } else if (property.type === 'boolean') {
      fields[name] = { kind: 'boolean', ...base, ...(typeof property.default === 'boolean' ? { default: property.default } : {}) }
    } else {
      fields[name] = { kind: 'text', ...base }
    }
  }
  return fields
}
