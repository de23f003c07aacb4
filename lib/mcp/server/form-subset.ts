/**
 * The MCP form subset (2025-11-25 `requestedSchema`), as strict as a person's form needs it:
 * what every client can draw without dropping a rule it does not know. A flat object whose
 * properties are each
 * - a string (`minLength`, `maxLength`, one of the four formats), a number or integer
 *   (`minimum`, `maximum`), or a boolean;
 * - a single choice: a string `enum`, or a titled `oneOf` of `{ const, title }` (SEP-1330);
 * - a multiple choice: an array (`minItems`, `maxItems`) of a string `enum` or a titled `anyOf`;
 * each with a `title` (ours: a form shows it as the field's label), and optionally
 * `description` and `default`. Nothing else: no `additionalProperties`, `pattern`,
 * `exclusiveMinimum`, nested objects, or Zod's stand-in bounds (±9007199254740991) — some
 * clients drop what they do not know, others pass it on. Rules a form cannot carry stay in
 * the server's own check of the answer.
 */

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])
const ROOT_KEYS = new Set(['type', 'properties', 'required'])
const COMMON_KEYS = ['type', 'title', 'description', 'default']
const KEYS_BY_TYPE: Record<string, Set<string>> = {
  string: new Set([...COMMON_KEYS, 'minLength', 'maxLength', 'format', 'enum', 'oneOf']),
  number: new Set([...COMMON_KEYS, 'minimum', 'maximum']),
  integer: new Set([...COMMON_KEYS, 'minimum', 'maximum']),
  boolean: new Set(COMMON_KEYS),
  array: new Set([...COMMON_KEYS, 'minItems', 'maxItems', 'items']),
}

/**
 * Why `schema` is not a form inside the MCP form subset (the first thing found, naming the
 * property), or `undefined` when it is.
 *
 * @example
 * whyNotInFormSubset({ type: 'object', properties: { seat: { type: 'string', pattern: '^[A-Z]$' } } })
 * // "property 'seat' has 'pattern', which a form cannot carry"
 */
export function whyNotInFormSubset(schema: unknown): string | undefined {
  if (!isObject(schema)) return 'is not a JSON Schema object'
  if (schema.type !== 'object') return `is not an object (its type is ${JSON.stringify(schema.type)})`
  const extra = Object.keys(schema).find((key) => !ROOT_KEYS.has(key))
  if (extra) return `has '${extra}' at its top, which a form cannot carry`
  if (!isObject(schema.properties)) return 'has no properties'
  for (const [name, property] of Object.entries(schema.properties)) {
    const problem = whyNotAFormProperty(property)
    if (problem) return `property '${name}' ${problem}`
  }
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((name) => typeof name === 'string')) return 'has a required list that is not of names'
    const unknown = schema.required.find((name) => !Object.hasOwn(schema.properties as object, name as string))
    if (unknown !== undefined) return `requires '${unknown}', which is not one of its properties`
  }
  return undefined
}

function whyNotAFormProperty(property: unknown): string | undefined {
  if (!isObject(property)) return 'is not a schema'
  const type = property.type
  const allowed = typeof type === 'string' ? KEYS_BY_TYPE[type] : undefined
  if (!allowed) return `is of type ${JSON.stringify(type)}, not a string, number, integer, boolean or array of choices`
  const extra = Object.keys(property).find((key) => !allowed.has(key))
  if (extra) return `has '${extra}', which a form cannot carry`
  if (typeof property.title !== 'string' || property.title.trim() === '') return 'has no title'
  if (property.description !== undefined && typeof property.description !== 'string') return 'has a description that is not text'
  switch (type) {
    case 'string':
      return whyNotAString(property)
    case 'number':
    case 'integer':
      return whyNotANumber(property, type)
    case 'boolean':
      return property.default === undefined || typeof property.default === 'boolean' ? undefined : 'has a default that is not a boolean'
    default:
      return whyNotMultipleChoice(property)
  }
}

function whyNotAString(property: Record<string, unknown>): string | undefined {
  const values = property.enum !== undefined || property.oneOf !== undefined ? choiceValues(property.enum, property.oneOf, 'oneOf') : undefined
  if (typeof values === 'string') return values
  if (values && (property.format !== undefined || property.minLength !== undefined || property.maxLength !== undefined)) {
    return 'is a choice with text rules (format, minLength, maxLength)'
  }
  if (property.format !== undefined && !(typeof property.format === 'string' && FORMATS.has(property.format))) {
    return `has the format ${JSON.stringify(property.format)}, not one of email, uri, date, date-time`
  }
  const lengths = whyNotBounds(property, 'minLength', 'maxLength', { integer: true, least: 0 })
  if (lengths) return lengths
  if (property.default !== undefined) {
    if (typeof property.default !== 'string') return 'has a default that is not text'
    if (values && !values.includes(property.default)) return `has the default ${JSON.stringify(property.default)}, which is not one of its choices`
  }
  return undefined
}

function whyNotANumber(property: Record<string, unknown>, type: 'number' | 'integer'): string | undefined {
  const bounds = whyNotBounds(property, 'minimum', 'maximum', { integer: false })
  if (bounds) return bounds
  if (property.default === undefined) return undefined
  if (typeof property.default !== 'number' || !Number.isFinite(property.default)) return 'has a default that is not a number'
  return type === 'integer' && !Number.isInteger(property.default) ? 'has a default that is not an integer' : undefined
}

function whyNotMultipleChoice(property: Record<string, unknown>): string | undefined {
  const items = property.items
  if (!isObject(items)) return 'is an array without items'
  const titled = items.anyOf !== undefined
  const itemKeys = titled ? ['anyOf'] : ['type', 'enum']
  const extra = Object.keys(items).find((key) => !itemKeys.includes(key))
  if (extra) return `has items with '${extra}', which a form cannot carry`
  if (!titled && items.type !== 'string') return 'is an array of something other than choices'
  const values = titled ? choiceValues(undefined, items.anyOf, 'anyOf') : choiceValues(items.enum, undefined, 'oneOf')
  if (typeof values === 'string') return `has items that are not choices: the list ${values}`
  const counts = whyNotBounds(property, 'minItems', 'maxItems', { integer: true, least: 0 })
  if (counts) return counts
  if (property.default === undefined) return undefined
  if (!Array.isArray(property.default) || !property.default.every((value) => typeof value === 'string' && values.includes(value))) {
    return 'has a default that is not a list of its choices'
  }
  return undefined
}

/** The values of a choice (`enum`, or a titled `oneOf`/`anyOf`), or what is wrong with it. */
function choiceValues(values: unknown, titled: unknown, titledKey: 'oneOf' | 'anyOf'): string[] | string {
  if (values !== undefined && titled !== undefined) return `has both enum and ${titledKey}`
  let found: unknown[]
  if (values !== undefined) {
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) return 'is an enum of something other than strings'
    found = values
  } else {
    if (!Array.isArray(titled)) return `has a ${titledKey} that is not a list`
    const option = titled.find(
      (candidate) =>
        !isObject(candidate) ||
        Object.keys(candidate).some((key) => key !== 'const' && key !== 'title') ||
        typeof candidate.const !== 'string' ||
        typeof candidate.title !== 'string' ||
        candidate.title.trim() === '',
    )
    if (option !== undefined) return `has a choice that is not { const, title } of strings: ${JSON.stringify(option)}`
    found = titled.map((candidate) => (candidate as { const: string }).const)
  }
  if (found.length === 0) return 'is a choice with nothing to choose'
  if (new Set(found).size !== found.length) return 'is a choice that offers a value twice'
  return found as string[]
}

/**
 * Bounds a form can carry: numbers well inside the safe integers (Zod writes ±9007199254740991
 * for "no bound", which clients draw as a limit), the lower one not above the upper one.
 */
function whyNotBounds(
  property: Record<string, unknown>,
  lowerKey: string,
  upperKey: string,
  { integer, least }: { integer: boolean; least?: number },
): string | undefined {
  const lower = property[lowerKey]
  const upper = property[upperKey]
  for (const [key, value] of [
    [lowerKey, lower],
    [upperKey, upper],
  ] as const) {
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) >= Number.MAX_SAFE_INTEGER) return `has ${key} ${String(value)}, not a usable bound`
    if (integer && !Number.isInteger(value)) return `has ${key} ${value}, not a whole number`
    if (least !== undefined && value < least) return `has ${key} ${value}, below ${least}`
  }
  if (typeof lower === 'number' && typeof upper === 'number' && lower > upper) return `has ${lowerKey} ${lower} above ${upperKey} ${upper}`
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
