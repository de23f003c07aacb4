import { describe, expect, it } from 'vitest'
import { decodeModelContext, encodeModelContext, MODEL_CONTEXT_BOUNDARY, MODEL_CONTEXT_KEY } from './model-context'

const schema = {
  type: 'object',
  properties: { flightId: { type: 'string' } },
  required: ['flightId'],
}
const context = {
  from: 'NYC',
  destination: 'LAX',
  flights: [{ id: 'SH-101', price: 250, note: 'line one\nline two' }],
}

describe('encodeModelContext', () => {
  it('puts the context under x-model-context in the schema, keeping the schema itself', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight', schema, context })
    expect(MODEL_CONTEXT_KEY).toBe('x-model-context')
    expect(encoded.schema).toEqual({ ...schema, 'x-model-context': context })
    expect(schema).not.toHaveProperty(MODEL_CONTEXT_KEY)
  })

  it('appends the context as JSON after the boundary at the end of the message', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight', schema, context })
    expect(MODEL_CONTEXT_BOUNDARY).toBe('--x-model-context: application/json')
    const [human, json, ...rest] = encoded.message.split(`\n${MODEL_CONTEXT_BOUNDARY}\n`)
    expect(rest).toEqual([])
    expect(human).toBe('Pick a flight\n')
    expect(JSON.parse(json!)).toEqual(context)
    expect(encoded.message.endsWith(JSON.stringify(context))).toBe(true)
  })

  it('adds no boundary and no schema keyword when there is no context', () => {
    const encoded = encodeModelContext({ message: 'Are you sure?', schema, context: {} })
    expect(encoded.message).toBe('Are you sure?')
    expect(encoded.schema).toEqual(schema)
    expect(encoded.schema).not.toHaveProperty(MODEL_CONTEXT_KEY)
  })
})

describe('decodeModelContext', () => {
  it('reads the context from the schema and returns the message without the encoded part', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight:\n1. SH 101', schema, context })
    expect(decodeModelContext(encoded)).toEqual({ message: 'Pick a flight:\n1. SH 101', context, source: 'schema' })
  })

  it('prefers the schema over the message when both carry a context', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight', schema, context })
    const decoded = decodeModelContext({ message: encoded.message, schema: { ...schema, [MODEL_CONTEXT_KEY]: { from: 'BOS' } } })
    expect(decoded).toEqual({ message: 'Pick a flight', context: { from: 'BOS' }, source: 'schema' })
  })

  it('falls back to the message boundary when the transport stripped x-model-context from the schema', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight', schema, context })
    const { [MODEL_CONTEXT_KEY]: _dropped, ...stripped } = encoded.schema
    expect(decodeModelContext({ message: encoded.message, schema: stripped })).toEqual({
      message: 'Pick a flight',
      context,
      source: 'message',
    })
    expect(decodeModelContext({ message: encoded.message })).toEqual({ message: 'Pick a flight', context, source: 'message' })
  })

  it('ignores an x-model-context in the schema that is not an object and reads the message instead', () => {
    const encoded = encodeModelContext({ message: 'Pick a flight', schema, context })
    for (const damaged of [null, 'text', [1, 2], 7]) {
      expect(decodeModelContext({ message: encoded.message, schema: { ...schema, [MODEL_CONTEXT_KEY]: damaged } })).toEqual({
        message: 'Pick a flight',
        context,
        source: 'message',
      })
    }
  })

  it('keeps the human message and gives an empty context when the encoded part is damaged', () => {
    const damaged = `Pick a flight\n\n${MODEL_CONTEXT_BOUNDARY}\n{"from": "NYC", "flig`
    expect(decodeModelContext({ message: damaged, schema })).toEqual({ message: 'Pick a flight', context: {}, source: 'none' })
    const notAnObject = `Pick a flight\n\n${MODEL_CONTEXT_BOUNDARY}\n[1,2,3]`
    expect(decodeModelContext({ message: notAnObject })).toEqual({ message: 'Pick a flight', context: {}, source: 'none' })
  })

  it('leaves a message without a boundary as it is', () => {
    expect(decodeModelContext({ message: 'Are you sure?\n\nReally?', schema })).toEqual({
      message: 'Are you sure?\n\nReally?',
      context: {},
      source: 'none',
    })
  })

  it('reads the last boundary when the human text quotes the boundary line itself', () => {
    const message = `Our wire format ends with\n${MODEL_CONTEXT_BOUNDARY}\nfollowed by JSON.`
    const encoded = encodeModelContext({ message, schema, context })
    expect(decodeModelContext({ message: encoded.message })).toEqual({ message, context, source: 'message' })
  })

  it('reads a message that is only the encoded part', () => {
    const encoded = encodeModelContext({ message: '', schema, context })
    expect(decodeModelContext({ message: encoded.message })).toEqual({ message: '', context, source: 'message' })
    expect(decodeModelContext({ message: `${MODEL_CONTEXT_BOUNDARY}\n{"a":1}` })).toEqual({
      message: '',
      context: { a: 1 },
      source: 'message',
    })
  })
})
