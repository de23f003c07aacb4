/** One choice of an enum: the value sent, and what people see. */
export interface FlatFormOption {
  value: string
  label: string
}

/** What kind of control a property is, and its constraints. */
export type FlatFormControl =
  | { kind: 'text'; format?: 'email' | 'uri' | 'date' | 'date-time'; minLength?: number; maxLength?: number; default?: string }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'choice'; options: FlatFormOption[]; default?: string }
  | { kind: 'multi-choice'; options: FlatFormOption[]; minItems?: number; maxItems?: number; default?: string[] }

/** One control of an MCP form-mode elicitation, read from its flat JSON Schema. */
export type FlatFormField = {
  name: string
  /** The property's `title`, else its name. */
  label: string
  description?: string
  required: boolean
} & FlatFormControl

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])

/** A form schema the chat cannot show, and why. */
export class FlatFormError extends Error {
  override name = 'FlatFormError'
}

/**
 * The controls of an MCP form (an object of primitives: strings with an optional format,
 * numbers, integers, booleans, single- and multi-select enums, with `title`, `description`,
 * `default` and `required`). Anything else is a `FlatFormError` naming the property: the chat
 * shows what it can check, never a form whose answers it could not validate.
 */
export function parseFlatForm(schema: unknown): FlatFormField[] {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) {
    throw new FlatFormError('the form is not an object with properties')
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [])
  return Object.entries(schema.properties).map(([name, property]) => {
    if (!isObject(property)) throw new FlatFormError(`property "${name}" is not a schema`)
    const base = {
      name,
      label: typeof property.title === 'string' && property.title ? property.title : name,
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      required: required.has(name),
    }
    return { ...base, ...controlOf(name, property) } as FlatFormField
  })
}

function controlOf(name: string, property: Record<string, unknown>): FlatFormControl {
  switch (property.type) {
    case 'string': {
      const options = optionsOf(property)
      if (options) return { kind: 'choice', options, ...stringDefault(property.default) }
      const format = property.format
      if (format !== undefined && !(typeof format === 'string' && FORMATS.has(format))) {
        throw new FlatFormError(`property "${name}" has the format ${JSON.stringify(format)}, which the chat cannot check`)
      }
      return {
        kind: 'text',
        ...(format ? { format: format as 'email' } : {}),
        ...numberKey('minLength', property.minLength),
        ...numberKey('maxLength', property.maxLength),
        ...stringDefault(property.default),
      }
    }
    case 'number':
    case 'integer':
      return {
        kind: 'number',
        integer: property.type === 'integer',
        ...numberKey('minimum', property.minimum),
        ...numberKey('maximum', property.maximum),
        ...(typeof property.default === 'number' ? { default: property.default } : {}),
      }
    case 'boolean':
      return { kind: 'boolean', ...(typeof property.default === 'boolean' ? { default: property.default } : {}) }
    case 'array': {
      const options = isObject(property.items) ? optionsOf(property.items) : undefined
      if (!options) throw new FlatFormError(`property "${name}" is an array of something other than choices`)
      const defaults = Array.isArray(property.default) ? property.default.filter((item): item is string => typeof item === 'string') : undefined
      return {
        kind: 'multi-choice',
        options,
        ...numberKey('minItems', property.minItems),
        ...numberKey('maxItems', property.maxItems),
        ...(defaults ? { default: defaults } : {}),
      }
    }
    default:
      throw new FlatFormError(`property "${name}" is of type ${JSON.stringify(property.type)}, not a string, number, integer, boolean or choice`)
  }
}

/** `enum` (labelled by `enumNames` when given) or `oneOf`/`anyOf` of `{ const, title }`. */
function optionsOf(schema: Record<string, unknown>): FlatFormOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : []
    return schema.enum.map((value, index) => ({ value: String(value), label: typeof names[index] === 'string' ? names[index] : String(value) }))
  }
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined
  if (!variants) return undefined
  return variants.map((variant) => {
    if (!isObject(variant) || typeof variant.const !== 'string') throw new FlatFormError('a choice has no string const')
    return { value: variant.const, label: typeof variant.title === 'string' ? variant.title : variant.const }
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function numberKey<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {}
}

function stringDefault(value: unknown): { default?: string } {
  return typeof value === 'string' ? { default: value } : {}
}
