import { standsFor, type ChoiceAnswers, type FormChoices, type FormProperty, type FormSchema } from '../protocol/question-form'

/**
 * How a question is shown as a native form (MCP form-mode elicitation), stated once by the
 * plugin author in the tool's `.elicits()` with `question({ response, context, form })`: one
 * titled field per part of the answer, derived from the question's context. Whenever the valid
 * answers are a known set, the field is a `field.choice` listing them, so a form shows a pick
 * list. Rules a form cannot carry (a regex, a cross-field rule) stay in the response schema and
 * the tool's own checks, and are named in the field's `description`.
 */

/** One offered value of a choice field. `answer`: the part of the tool's answer it stands for, when the value is not itself the answer. */
export interface FieldChoice<TAnswer> {
  value: string
  title: string
  answer?: Partial<TAnswer>
}

interface FieldBase {
  title: string
  description?: string
  /** Leave the field out of `required`. */
  optional?: boolean
}

export type FormField<TAnswer = Record<string, unknown>> =
  | (FieldBase & { kind: 'choice'; options: Array<FieldChoice<TAnswer>>; default?: string })
  /** Any number of the options: the answer's property is the list of their values. */
  | (FieldBase & { kind: 'choices'; options: Array<{ value: string; title: string }>; default?: string[]; minItems?: number; maxItems?: number })
  | (FieldBase & { kind: 'text'; default?: string; minLength?: number; maxLength?: number; format?: 'email' | 'uri' | 'date' | 'date-time' })
  | (FieldBase & { kind: 'number'; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'integer'; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })

/** A question's form: its fields by name. A field without choice answers fills the answer's property of the same name. */
export type FormFields<TAnswer = Record<string, unknown>> = Record<string, FormField<TAnswer>>

type Extra<F> = Omit<F, 'kind' | 'title' | 'options'>
type Of<K extends FormField['kind'], TAnswer> = Extract<FormField<TAnswer>, { kind: K }>

/** Builders for a form's fields, e.g. `field.choice('Seat', free.map((id) => ({ value: id, title: id })))`. */
export const field = {
  choice<TAnswer = never>(title: string, options: Array<FieldChoice<TAnswer>>, extra: Extra<Of<'choice', TAnswer>> = {}): Of<'choice', TAnswer> {
    return { kind: 'choice', title, options, ...extra }
  },
  choices(title: string, options: Array<{ value: string; title: string }>, extra: Extra<Of<'choices', never>> = {}): Of<'choices', never> {
    return { kind: 'choices', title, options, ...extra }
  },
  text(title: string, extra: Extra<Of<'text', never>> = {}): Of<'text', never> {
    return { kind: 'text', title, ...extra }
  },
  number(title: string, extra: Extra<Of<'number', never>> = {}): Of<'number', never> {
    return { kind: 'number', title, ...extra }
  },
  integer(title: string, extra: Extra<Of<'integer', never>> = {}): Of<'integer', never> {
    return { kind: 'integer', title, ...extra }
  },
  boolean(title: string, extra: Extra<Of<'boolean', never>> = {}): Of<'boolean', never> {
    return { kind: 'boolean', title, ...extra }
  },
}

/** A question's form as sent: the schema, its choices, the answers its choice values stand for, and the answer it starts from. */
export interface QuestionForm {
  schema: FormSchema
  choices: FormChoices
  answers: ChoiceAnswers
  /** The question's `defaults` for its context, as the tool's answer (`{}` when it declares none): what a component starts from. */
  defaults: Record<string, unknown>
  /**
   * A form's content as the tool's answer (before the response schema's own check), or why it
   * cannot be: a value a choice field did not offer, a required field missing.
   */
  toResponse(content: Record<string, unknown>): { ok: true; response: Record<string, unknown> } | { ok: false; problem: string }
}

/**
 * The form of `fields`: its `requestedSchema`, choices, and the conversion of its answers.
 * `defaults` (the tool's answer a question starts from) become the fields' `default`, in the
 * form's own terms — the choice that stands for them, the text, the number — unless a field
 * states its own; a default the field cannot take (a choice not offered) is left out.
 */
export function buildQuestionForm(fields: FormFields<unknown>, defaults: Record<string, unknown> = {}): QuestionForm {
  const properties: Record<string, FormProperty> = {}
  const required: string[] = []
  const choices: FormChoices = {}
  const answers: ChoiceAnswers = {}
  for (const [name, definition] of Object.entries(fields)) {
    const { kind, optional, ...own } = definition
    if (!optional) required.push(name)
    const given = own.default ?? defaultOf({ name, definition, defaults })
    const rest = given === undefined ? own : { ...own, default: given }
    if (kind === 'choice') {
      const { options, ...described } = rest as Omit<Of<'choice', unknown>, 'kind' | 'optional'>
      properties[name] = { type: 'string', ...described, oneOf: options.map(({ value, title }) => ({ const: value, title })) }
      choices[name] = options.map(({ value, title }) => ({ value, title }))
      if (options.some((option) => option.answer !== undefined)) {
        // An option without an answer of its own stands for its value, as `toResponse` gives it.
        answers[name] = Object.fromEntries(options.map((option) => [option.value, { ...((option.answer as Record<string, unknown>) ?? { [name]: option.value }) }]))
      }
    } else if (kind === 'choices') {
      const { options, ...described } = rest as Omit<Of<'choices', unknown>, 'kind' | 'optional'>
      properties[name] = { type: 'array', ...described, items: { anyOf: options.map(({ value, title }) => ({ const: value, title })) } }
      choices[name] = options.map(({ value, title }) => ({ value, title }))
    } else {
      const type = kind === 'text' ? 'string' : kind
      properties[name] = { type, ...rest } as FormProperty
    }
  }
  const schema: FormSchema = { type: 'object', properties, ...(required.length ? { required } : {}) }
  return {
    schema,
    choices,
    answers,
    defaults,
    toResponse(content) {
      const response: Record<string, unknown> = {}
      for (const [name, definition] of Object.entries(fields)) {
        const value = content[name]
        if (value === undefined) {
          if (!definition.optional) return { ok: false, problem: `${definition.title} is missing` }
          continue
        }
        if (definition.kind === 'choice') {
          const offered = definition.options.find((option) => option.value === value)
          if (!offered) return { ok: false, problem: `${JSON.stringify(value)} is not one of the offered choices for ${definition.title}` }
          if (offered.answer !== undefined) Object.assign(response, offered.answer)
          else response[name] = value
        } else if (definition.kind === 'choices') {
          const values = new Set(definition.options.map((option) => option.value))
          const stray = Array.isArray(value) ? value.find((item) => !values.has(item as string)) : value
          if (stray !== undefined) return { ok: false, problem: `${JSON.stringify(stray)} is not one of the offered choices for ${definition.title}` }
          response[name] = value
        } else {
          response[name] = value
        }
      }
      return { ok: true, response }
    },
  }
}

/** The value of a field that `defaults` (a tool's answer) stand for, in the field's terms; undefined when it cannot take them. */
function defaultOf({ name, definition, defaults }: { name: string; definition: FormField<unknown>; defaults: Record<string, unknown> }): unknown {
  const value = defaults[name]
  switch (definition.kind) {
    case 'choice':
      return definition.options.find((option) =>
        option.answer !== undefined ? standsFor(option.answer as Record<string, unknown>, defaults) : option.value === value,
      )?.value
    case 'choices':
      return Array.isArray(value) && value.every((item) => definition.options.some((option) => option.value === item)) ? value : undefined
    case 'text':
      return typeof value === 'string' ? value : undefined
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined
    case 'integer':
      return Number.isInteger(value) ? value : undefined
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined
  }
}
