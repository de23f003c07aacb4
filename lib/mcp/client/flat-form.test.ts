import { describe, expect, it } from 'vitest'
import { FlatFormError, parseFlatForm } from './flat-form'
import { flatFormAnswerSchema } from './flat-form-answer'

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    born: { type: 'string', format: 'date' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number' },
    agree: { type: 'boolean', default: false },
    pet: { type: 'string', enum: ['cat', 'dog'], enumNames: ['Cat', 'Dog'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }], default: 'h1' },
    tools: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Axe' }, { const: 'b', title: 'Bow' }] }, minItems: 1 },
  },
  required: ['name', 'email'],
}

describe('flat forms (MCP form mode)', () => {
  it('reads each property as a labelled control', () => {
    const fields = parseFlatForm(schema)
    expect(fields.map((field) => [field.name, field.label, field.kind, field.required])).toEqual([
      ['name', 'Full name', 'text', true],
      ['email', 'email', 'text', true],
      ['born', 'born', 'text', false],
      ['age', 'age', 'number', false],
      ['ratio', 'ratio', 'number', false],
      ['agree', 'agree', 'boolean', false],
      ['pet', 'pet', 'choice', false],
      ['hero', 'hero', 'choice', false],
      ['tools', 'tools', 'multi-choice', false],
    ])
    expect(fields[6]).toMatchObject({ options: [{ value: 'cat', label: 'Cat' }, { value: 'dog', label: 'Dog' }] })
    expect(fields[7]).toMatchObject({ options: [{ value: 'h1', label: 'Superman' }, { value: 'h2', label: 'Batman' }], default: 'h1' })
    expect(fields[3]).toMatchObject({ integer: true, minimum: 0, maximum: 150, default: 30 })
  })

  it('checks answers as the server would: types, formats, ranges, choices, required', () => {
    const answers = flatFormAnswerSchema(parseFlatForm(schema))
    expect(answers.safeParse({ name: 'Ada', email: 'ada@example.com', age: 36, pet: 'cat', tools: ['a'] }).success).toBe(true)
    const wrong = answers.safeParse({ name: 'A', email: 'nope', age: 36.5, pet: 'fish', tools: [], born: '12/10/1815', extra: 1 })
    expect(wrong.success).toBe(false)
    expect(new Set(wrong.error!.issues.map((issue) => String(issue.path[0] ?? (issue as { keys?: string[] }).keys?.[0])))).toEqual(new Set(['name', 'email', 'age', 'pet', 'tools', 'born', 'extra']))
    expect(answers.safeParse({ email: 'ada@example.com' }).success).toBe(false)
    expect(answers.safeParse({ name: 'Ada', email: 'ada@example.com', age: '36' }).success).toBe(false)
  })

  it('refuses what it could not show or check, naming the property', () => {
    expect(() => parseFlatForm({ type: 'object', properties: { address: { type: 'object' } } })).toThrow(FlatFormError)
    expect(() => parseFlatForm({ type: 'object', properties: { address: { type: 'object' } } })).toThrow(/"address"/)
    expect(() => parseFlatForm({ type: 'object', properties: { when: { type: 'string', format: 'time' } } })).toThrow(/format "time"/)
    expect(() => parseFlatForm({ type: 'array' })).toThrow(/not an object/)
  })
})
