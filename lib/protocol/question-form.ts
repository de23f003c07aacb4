/**
 * A question as a form any MCP client can show: a flat `requestedSchema` inside the MCP form
 * subset (2025-11-25), and, beside it in the request's `_meta`, what a program needs that a
 * form cannot carry — the question's context, and how a titled choice maps onto the tool's
 * answer. Client-safe (no Zod): the server builds these, an MCP App bundle reads them.
 */

/** The `_meta` key of an elicitation request that carries a `QuestionMeta`. */
export const QUESTION_META_KEY = 'elicit-chat.dev/question'

/** One offered answer of a choice field: its value in the form, and the title a person reads. */
export interface FormChoice {
  value: string
  title: string
}

/** The offered answers of each choice field of a question's form, by field name. */
export type FormChoices = Record<string, FormChoice[]>

/**
 * For a choice field whose value is not itself the answer (a seat "10A" for `{ row: 10, seat:
 * 'A' }`): the part of the tool's answer each offered value stands for, by value.
 */
export type ChoiceAnswers = Record<string, Record<string, Record<string, unknown>>>

/** A property of a form: one of the MCP form subset's primitives, titled. */
export type FormProperty =
  | {
      type: 'string'
      title: string
      description?: string
      default?: string
      minLength?: number
      maxLength?: number
      format?: 'email' | 'uri' | 'date' | 'date-time'
      enum?: string[]
      /** SEP-1330's titled choices. */
      oneOf?: Array<{ const: string; title: string }>
    }
  | { type: 'number' | 'integer'; title: string; description?: string; default?: number; minimum?: number; maximum?: number }
  | { type: 'boolean'; title: string; description?: string; default?: boolean }
  | {
      type: 'array'
      title: string
      description?: string
      minItems?: number
      maxItems?: number
      items: { type: 'string'; enum: string[] } | { anyOf: Array<{ const: string; title: string }> }
      default?: string[]
    }

/** A form-mode elicitation's `requestedSchema`: flat, every property titled. */
export interface FormSchema {
  type: 'object'
  properties: Record<string, FormProperty>
  required?: string[]
}

/** What `_meta[QUESTION_META_KEY]` of an elicitation request holds. */
export interface QuestionMeta {
  /** The plugin tool that asks, and its question key (`.elicits()`). */
  tool: string
  key: string
  /** The question's full context, as the tool passed it to `ctx.elicit` (what our chat's components render). */
  context: Record<string, unknown>
  /** Choice fields whose values stand for parts of the tool's answer (see `ChoiceAnswers`). */
  answers?: ChoiceAnswers
  /** The answer the question starts from, as the tool's answer (its `defaults`); the form's fields have them as `default`. */
  defaults?: Record<string, unknown>
}

/** The title of each field of a form, by field name, in the form's order. */
export function fieldTitlesOf(schema: FormSchema): Record<string, string> {
  return Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, property.title]))
}

/** Whether `response` holds every property of `part` (what a choice's value stands for), with the same value. */
export function standsFor(part: Record<string, unknown>, response: Record<string, unknown>): boolean {
  const entries = Object.entries(part)
  return entries.length > 0 && entries.every(([key, value]) => response[key] === value)
}

/** The titled choices of a form's properties, by field name (`oneOf`, `anyOf` and enums alike; single and multiple choice). */
export function choicesOf(schema: FormSchema): FormChoices {
  const choices: FormChoices = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    const options = property.type === 'string' ? property : property.type === 'array' ? property.items : undefined
    if (!options) continue
    const titled = 'oneOf' in options ? options.oneOf : 'anyOf' in options ? options.anyOf : undefined
    if (titled) choices[name] = titled.map((option) => ({ value: option.const, title: option.title }))
    else if ('enum' in options && options.enum) choices[name] = options.enum.map((value) => ({ value, title: value }))
  }
  return choices
}

/**
 * A tool's answer as the form's content: what an MCP App returns for a component's answer, so
 * the host's check against `requestedSchema` passes. A choice field with answers takes the
 * value whose answer matches; any other field takes the answer's own property (a number a
 * string field expects is given as its string). Unmatched fields are left out: the server
 * asks again, saying why.
 */
export function formContentFor(
  response: Record<string, unknown>,
  schema: FormSchema,
  answers: ChoiceAnswers = {},
): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    const byValue = answers[name]
    if (byValue) {
      const match = Object.entries(byValue).find(([, part]) => standsFor(part, response))
      if (match) content[name] = match[0]
      continue
    }
    const value = response[name]
    if (value === undefined) continue
    content[name] = property.type === 'string' && typeof value === 'number' ? String(value) : value
  }
  return content
}

/**
 * A form's content as the tool's answer: the inverse of `formContentFor`. A choice field whose
 * values stand for parts of the answer gives the part its value stands for; any other field
 * gives its own property. What the browser sends for a question shown as its form; the server
 * checks it against the response schema as any other answer.
 */
export function answerOfFormContent(content: Record<string, unknown>, answers: ChoiceAnswers = {}): Record<string, unknown> {
  const response: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(content)) {
    const part = answers[name] && typeof value === 'string' && Object.hasOwn(answers[name], value) ? answers[name][value] : undefined
    if (part) Object.assign(response, part)
    else response[name] = value
  }
  return response
}

/** One part of an answer in the words of its question's form: the field's title, and what was chosen or given. */
export interface AnswerPart {
  title: string
  value: string
}

/**
 * An accepted answer said in the words of its question's form, field by field: a choice by its
 * title (found through what its value stands for, when it stands for part of the answer: the
 * seat `{ row: 10, seat: 'A' }` is "10A · window"), text and numbers as given, yes or no. A
 * field the answer does not fill is left out; an answer that fills none of them (or a question
 * without a form) is said by its own properties.
 *
 * @example
 * describeAnswer({ response: { row: 10, seat: 'A' }, fieldTitles: { seat: 'Seat' },
 *   choices: { seat: [{ value: '10A', title: '10A · window' }] }, choiceAnswers: { seat: { '10A': { row: 10, seat: 'A' } } } })
 * // [{ title: 'Seat', value: '10A · window' }]
 */
export function describeAnswer({
  response,
  fieldTitles = {},
  choices = {},
  choiceAnswers = {},
}: {
  response: Record<string, unknown>
  fieldTitles?: Record<string, string>
  choices?: FormChoices
  choiceAnswers?: ChoiceAnswers
}): AnswerPart[] {
  const titleOf = (name: string, value: unknown) => choices[name]?.find((choice) => choice.value === value)?.title ?? words(value)
  const parts: AnswerPart[] = []
  for (const [name, title] of Object.entries(fieldTitles)) {
    const byValue = choiceAnswers[name]
    const value = byValue ? Object.entries(byValue).find(([, part]) => standsFor(part, response))?.[0] : response[name]
    if (value === undefined || value === null) continue
    parts.push({ title, value: Array.isArray(value) ? value.map((item) => titleOf(name, item)).join(', ') : titleOf(name, value) })
  }
  if (parts.length > 0) return parts
  return Object.entries(response).map(([name, value]) => ({ title: name, value: words(value) }))
}

function words(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'number') return String(value)
  return JSON.stringify(value) ?? ''
}
