import { plainLabel, readPromptHints, type PromptHints } from './offline-prompt-hints'

/** The parts of a JSON Schema the offline model understands; anything else is ignored. */
type Schema = Record<string, unknown>

interface Slot {
  /** The property name this value is for (singular for array items), or '' at the root. */
  name: string
  /** The name and description, lower-cased: what the value is about. */
  meaning: string
  /** Which element of an array this is, so items can differ. */
  index: number
  depth: number
}

const MAX_DEPTH = 12
const CHOICE_WORDS = /\b(?:number|index|choice|chosen|pick|picked|favou?rite|best|option|item|selection|selected|recommend\w*|suggest\w*)\b/
const COUNT_WORDS = /\b(?:count|total|how many|amount|size)\b/
const REASON_WORDS = /\b(?:reason|reasons|why|because|explanation|explain|rationale|justification)\b/
const SUMMARY_WORDS = /\b(?:summary|summarise|summarize|analysis|analyse|analyze|overview|description|describe|assessment|comment|notes?|thoughts|verdict|answer|text)\b/
const LABEL_WORDS = /\b(?:name|title|label|choice|pick|favou?rite|option|item|selection)\b/

/**
 * A value that matches `schema`, filled in from what the prompt says where the offline model
 * can tell: with numbered choices in the prompt, a property such as `favourite` or
 * `choiceNumber` gets the number of the choice it prefers and a `reason` names that choice.
 * Everything else gets a plain value that satisfies the schema's constraints.
 *
 * @example
 * createStructuredValue({
 *   schema: { type: 'object', properties: { favourite: { type: 'integer', minimum: 1, maximum: 2 } }, required: ['favourite'] },
 *   prompt: 'Pick one:\n1. Tea\n2. Coffee',
 *   hints: { favourite: { number: 2, label: 'Coffee' } },
 * })
 * // { favourite: 2 }
 */
export function createStructuredValue({
  schema,
  prompt,
  hints: known = {},
}: {
  schema: unknown
  prompt: string
  /** What a skill knows about the prompt's choices (its favourite, why, what they are), over the generic reading. */
  hints?: Partial<PromptHints>
}): unknown {
  const hints = { ...readPromptHints(prompt), ...known }
  if (!isSchema(schema) || Object.keys(schema).length === 0) return { answer: summaryText(hints) }
  return new Filler(schema, hints).value(schema, { name: '', meaning: '', index: 0, depth: 0 })
}

class Filler {
  constructor(
    private readonly root: Schema,
    private readonly hints: PromptHints,
  ) {}

  value(input: Schema, slot: Slot): unknown {
    const schema = this.resolve(input, slot.depth)
    const meaning = `${slot.meaning} ${typeof schema.description === 'string' ? schema.description.toLowerCase() : ''}`
    const here = { ...slot, meaning }
    if ('const' in schema) return schema.const
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.fromEnum(schema.enum, here)
    if (schema.default !== undefined) return schema.default
    if (slot.depth >= MAX_DEPTH) return null

    const options = [schema.anyOf, schema.oneOf].find(Array.isArray)?.filter(isSchema)
    if (options && options.length > 0) {
      const chosen = options.find((option) => this.resolve(option, slot.depth).type !== 'null') ?? options[0]!
      return this.value({ ...withoutKeys(schema, ['anyOf', 'oneOf']), ...chosen }, here)
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      return this.value(mergeAll(schema, schema.allOf.filter(isSchema)), here)
    }

    switch (typeOf(schema)) {
      case 'object':
        return this.object(schema, here)
      case 'array':
        return this.array(schema, here)
      case 'integer':
        return this.number(schema, here, true)
      case 'number':
        return this.number(schema, here, false)
      case 'boolean':
        return true
      case 'null':
        return null
      default:
        return this.string(schema, here)
    }
  }

  private object(schema: Schema, slot: Slot): Record<string, unknown> {
    const properties = isSchema(schema.properties) ? schema.properties : {}
    const result: Record<string, unknown> = {}
    for (const [name, property] of Object.entries(properties)) {
      if (!isSchema(property)) continue
      result[name] = this.value(property, { name, meaning: words(name), index: 0, depth: slot.depth + 1 })
    }
    // Required properties without a declared schema still need a value.
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (typeof name === 'string' && !(name in result)) result[name] = this.string({}, { name, meaning: words(name), index: 0, depth: slot.depth + 1 })
    }
    return result
  }

  private array(schema: Schema, slot: Slot): unknown[] {
    const tuple = [schema.prefixItems, schema.items].find(Array.isArray)?.filter(isSchema) ?? []
    const items = isSchema(schema.items) ? schema.items : {}
    const min = Math.max(whole(schema.minItems) ?? 1, tuple.length)
    const max = whole(schema.maxItems)
    const length = max === undefined ? min : Math.min(min, max)
    const name = singular(slot.name)
    return Array.from({ length }, (_, index) =>
      this.value(tuple[index] ?? items, { name, meaning: `${words(name)} ${slot.meaning}`, index, depth: slot.depth + 1 }),
    )
  }

  private number(schema: Schema, slot: Slot, integer: boolean): number {
    const step = integer ? 1 : 0
    const exclusiveMin = finite(schema.exclusiveMinimum)
    const exclusiveMax = finite(schema.exclusiveMaximum)
    let low = finite(schema.minimum) ?? (exclusiveMin === undefined ? undefined : exclusiveMin + (step || 1e-6))
    let high = finite(schema.maximum) ?? (exclusiveMax === undefined ? undefined : exclusiveMax - (step || 1e-6))
    if (integer) {
      low = low === undefined ? undefined : Math.ceil(low)
      high = high === undefined ? undefined : Math.floor(high)
    }
    const inRange = (value: number) => (low === undefined || value >= low) && (high === undefined || value <= high)

    const { favourite, choices } = this.hints
    if (favourite && CHOICE_WORDS.test(slot.meaning)) {
      const at = choices.findIndex((choice) => choice.number === favourite.number)
      const candidate = at < 0 ? favourite.number : choices[(at + slot.index) % choices.length]!.number
      if (inRange(candidate)) return candidate
    }
    if (choices.length > 0 && COUNT_WORDS.test(slot.meaning) && inRange(choices.length)) return choices.length

    let value: number
    if (low !== undefined && high !== undefined) value = integer ? Math.round((low + high) / 2) : (low + high) / 2
    else value = low ?? Math.min(0, high ?? 0)
    value += integer ? slot.index : 0
    const multiple = finite(schema.multipleOf)
    if (multiple && multiple > 0) value = Math.ceil(value / multiple) * multiple
    if (high !== undefined && value > high) value = high
    if (low !== undefined && value < low) value = low
    return value
  }

  private string(schema: Schema, slot: Slot): string {
    const formatted = FORMATS[String(schema.format)]
    if (formatted) return formatted
    const { favourite } = this.hints
    let text: string
    if (REASON_WORDS.test(slot.meaning)) text = reasonText(this.hints)
    else if (SUMMARY_WORDS.test(slot.meaning) || !slot.name) text = summaryText(this.hints)
    else if (favourite && LABEL_WORDS.test(slot.meaning)) text = favourite.label
    // Nothing to go on: a short, distinct placeholder named for the field ("Tag 1", "Tag 2").
    else text = `${capitalise(words(slot.name))} ${slot.index + 1}`
    if (slot.index > 0 && !text.endsWith(String(slot.index + 1))) text = `${text} (${slot.index + 1})`

    const min = whole(schema.minLength) ?? 0
    const max = whole(schema.maxLength)
    if (max !== undefined && text.length > max) text = max > 1 ? `${text.slice(0, max - 1).trimEnd()}…`.slice(0, max) : text.slice(0, max)
    if (text.length < min) text = text.padEnd(min, '.')
    return text
  }

  private fromEnum(values: unknown[], slot: Slot): unknown {
    const { favourite } = this.hints
    if (favourite) {
      const named = values.find((value) => typeof value === 'string' && favourite.label.toLowerCase().includes(value.toLowerCase()))
      if (named !== undefined) return named
      if (CHOICE_WORDS.test(slot.meaning) && values.includes(favourite.number)) return favourite.number
    }
    return values[slot.index % values.length]
  }

  /** The schema a local `$ref` points to ("#/$defs/item", "#/definitions/item", "#"). */
  private resolve(schema: Schema, depth: number): Schema {
    let current = schema
    for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_DEPTH - depth; hops++) {
      const target = pointer(this.root, current.$ref)
      if (!target) break
      current = { ...withoutKeys(current, ['$ref']), ...target }
    }
    return current
  }
}

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T12:00:00Z',
  date: '2025-01-01',
  time: '12:00:00Z',
  email: 'offline@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
}

function reasonText({ favourite, because, noun }: PromptHints): string {
  if (!favourite) return "I'm the offline assistant, so this is a simple, cautious answer."
  const which = noun ? `The ${plainLabel(favourite)}` : `“${plainLabel(favourite)}”`
  return `${which} ${because ?? 'stands out'}.`
}

function summaryText({ topic, choices, summary }: PromptHints): string {
  if (summary) return summary
  if (choices.length > 0) return `${choices.length} choices: ${choices.map(plainLabel).join(', ')}.`
  const shown = topic.length > 80 ? `${topic.slice(0, 77)}…` : topic
  return shown ? `A brief offline answer about “${shown}”.` : 'A brief offline answer.'
}

function typeOf(schema: Schema): string | undefined {
  const declared = Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') ?? schema.type[0] : schema.type
  if (typeof declared === 'string') return declared
  if (isSchema(schema.properties) || Array.isArray(schema.required)) return 'object'
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array'
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((key) => key in schema)) return 'number'
  return undefined
}

function mergeAll(base: Schema, parts: Schema[]): Schema {
  const merged: Schema = withoutKeys(base, ['allOf'])
  for (const part of parts) {
    const properties = { ...(isSchema(merged.properties) ? merged.properties : {}), ...(isSchema(part.properties) ? part.properties : {}) }
    const required = [...(Array.isArray(merged.required) ? merged.required : []), ...(Array.isArray(part.required) ? part.required : [])]
    Object.assign(merged, part, { properties, required })
  }
  return merged
}

function pointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    node = isSchema(node) ? node[key] : undefined
  }
  return isSchema(node) ? node : undefined
}

function withoutKeys(schema: Schema, keys: string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)))
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A usable bound: Zod writes ±MAX_SAFE_INTEGER for `.int()`, which says no more than "unbounded". */
function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined
}

/** "choiceNumber" → "choice number", "favourite_item" → "favourite item". */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
}

function singular(name: string): string {
  return name.replace(/ies$/, 'y').replace(/s$/, '')
}

function capitalise(text: string): string {
  return text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text
}
