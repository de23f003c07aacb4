import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { deriveFormFields } from '../../tools/elicits'
import { buildQuestionForm, field } from '../../tools/form-fields'
import { whyNotInFormSubset } from './form-subset'

const form = (properties: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({ type: 'object', properties, ...rest })

describe('whyNotInFormSubset', () => {
  it('accepts every kind of property the MCP form subset has, titled', () => {
    const schema = form(
      {
        name: { type: 'string', title: 'Name', description: 'As on your passport', minLength: 1, maxLength: 80, default: 'Ada' },
        email: { type: 'string', title: 'Email', format: 'email' },
        when: { type: 'string', title: 'Date', format: 'date' },
        bags: { type: 'integer', title: 'Bags', minimum: 0, maximum: 3, default: 1 },
        weight: { type: 'number', title: 'Weight (kg)', minimum: 0.5, maximum: 32.5 },
        insured: { type: 'boolean', title: 'Insurance', default: false },
        size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'], default: 'M' },
        seat: { type: 'string', title: 'Seat', oneOf: [{ const: '10A', title: '10A · window' }, { const: '10B', title: '10B · middle' }] },
        meals: { type: 'array', title: 'Meals', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['veg', 'fish'] }, default: ['veg'] },
        extras: { type: 'array', title: 'Extras', items: { anyOf: [{ const: 'wifi', title: 'Wi-Fi' }, { const: 'lounge', title: 'Lounge' }] } },
      },
      { required: ['name', 'seat'] },
    )
    expect(whyNotInFormSubset(schema)).toBeUndefined()
  })

  it.each([
    ['a schema that is not an object', { type: 'string' }, 'is not an object (its type is "string")'],
    ['anything beside type, properties and required at the top', form({}, { additionalProperties: false }), "has 'additionalProperties' at its top, which a form cannot carry"],
    ['the x-model-context of old', form({}, { 'x-model-context': {} }), "has 'x-model-context' at its top"],
    ['a nested object', form({ stop: { type: 'object', title: 'Stop', properties: {} } }), `property 'stop' is of type "object"`],
    ['a union', form({ id: { anyOf: [{ type: 'string' }, { type: 'number' }], title: 'Id' } }), `property 'id' is of type undefined`],
    ['a property without a title', form({ row: { type: 'integer' } }), "property 'row' has no title"],
    ['a pattern', form({ seat: { type: 'string', title: 'Seat', pattern: '^[A-Z]$' } }), "property 'seat' has 'pattern', which a form cannot carry"],
    ['an exclusive bound', form({ row: { type: 'integer', title: 'Row', exclusiveMinimum: 0 } }), "property 'row' has 'exclusiveMinimum'"],
    ["Zod's stand-in maximum", form({ row: { type: 'integer', title: 'Row', minimum: 1, maximum: 9007199254740991 } }), "property 'row' has maximum 9007199254740991, not a usable bound"],
    ['bounds the wrong way round', form({ row: { type: 'integer', title: 'Row', minimum: 9, maximum: 1 } }), "property 'row' has minimum 9 above maximum 1"],
    ['a format of no form', form({ site: { type: 'string', title: 'Site', format: 'hostname' } }), `property 'site' has the format "hostname"`],
    ['an integer enum (Inspector draws it as a number box)', form({ cell: { type: 'integer', title: 'Cell', enum: [1, 2] } }), "property 'cell' has 'enum'"],
    ['an enum of numbers typed as strings', form({ cell: { type: 'string', title: 'Cell', enum: [1, 2] } }), "property 'cell' is an enum of something other than strings"],
    ['legacy enumNames', form({ size: { type: 'string', title: 'Size', enum: ['S'], enumNames: ['Small'] } }), "property 'size' has 'enumNames'"],
    ['a choice without a title', form({ seat: { type: 'string', title: 'Seat', oneOf: [{ const: '10A' }] } }), "property 'seat' has a choice that is not { const, title } of strings"],
    ['a choice with nothing to choose', form({ seat: { type: 'string', title: 'Seat', oneOf: [] } }), "property 'seat' is a choice with nothing to choose"],
    ['a value offered twice', form({ size: { type: 'string', title: 'Size', enum: ['S', 'S'] } }), "property 'size' is a choice that offers a value twice"],
    ['a default that is not a choice', form({ size: { type: 'string', title: 'Size', enum: ['S'], default: 'XL' } }), `property 'size' has the default "XL", which is not one of its choices`],
    ['a default of the wrong type', form({ bags: { type: 'integer', title: 'Bags', default: 1.5 } }), "property 'bags' has a default that is not an integer"],
    ['an array of objects', form({ stops: { type: 'array', title: 'Stops', items: { type: 'object' } } }), "property 'stops' is an array of something other than choices"],
    ['an array of free text', form({ tags: { type: 'array', title: 'Tags', items: { type: 'string' } } }), "property 'tags' has items that are not choices"],
    ['a required name that is no property', form({ a: { type: 'string', title: 'A' } }, { required: ['b'] }), "requires 'b', which is not one of its properties"],
  ])('refuses %s, saying why', (_what, schema, reason) => {
    expect(whyNotInFormSubset(schema)).toContain(reason)
  })

  it('holds every form the field builders make, and every form derived from a flat response schema', () => {
    const built = buildQuestionForm({
      seat: field.choice('Seat', [{ value: '10A', title: '10A · window', answer: { row: 10 } }], { description: 'Free seats only' }),
      meals: field.choices('Meals', [{ value: 'veg', title: 'Vegetarian' }], { maxItems: 1 }),
      note: field.text('Note', { optional: true, maxLength: 200, format: 'email' }),
      bags: field.integer('Bags', { minimum: 0, maximum: 3 }),
      weight: field.number('Weight'),
      insured: field.boolean('Insurance', { default: false }),
    })
    expect(whyNotInFormSubset(built.schema)).toBeUndefined()

    const response = z.strictObject({
      row: z.number().int().positive().meta({ title: 'Row' }),
      seat: z.string().regex(/^[A-Z]$/),
      size: z.enum(['S', 'M']),
      level: z.union([z.literal(1), z.literal(2)]),
      meals: z.array(z.enum(['veg', 'fish'])),
      email: z.email(),
      count: z.number().min(0).max(10).default(3),
      ok: z.boolean(),
    })
    const derived = buildQuestionForm(deriveFormFields(response))
    expect(whyNotInFormSubset(derived.schema)).toBeUndefined()
    // What a form cannot carry is left to the response schema's own check, never sent.
    expect(derived.schema.properties.row).toEqual({ type: 'integer', title: 'Row', minimum: 1 })
    expect(derived.schema.properties.seat).toEqual({ type: 'string', title: 'seat' })
    expect(derived.schema.properties.email).toEqual({ type: 'string', title: 'email', format: 'email' })
  })
})
