import { describe, expect, it } from 'vitest'
import type { ChatEvent } from './events'
import { readKeptEvent } from './kept-question'

const BOUNDARY = '--x-model-context: application/json'
const responseSchema = { type: 'object', properties: { flightId: { type: 'string' } }, required: ['flightId'] }
const context = { from: 'NYC', destination: 'LAX', flights: [{ id: 'SH-101', price: 250, note: 'line one\nline two' }] }

/** A question as a server before this one sent it (and a chat kept then still has it): its context in the schema and after the message. */
function keptQuestion({ message = 'Select your flight:', schema = { ...responseSchema, 'x-model-context': context } as Record<string, unknown> } = {}) {
  return {
    type: 'plugin_elicit_request',
    sessionId: 'call/7',
    callId: 'call/7',
    toolName: 'book_flight',
    elicitId: 'book_flight/pickFlight/call%2F7/4',
    key: 'pickFlight',
    message,
    schema,
    choices: { flightId: [{ value: 'SH-101', title: 'SH 101 · $250' }] },
  }
}

const encoded = (text: string, value: unknown = context) => `${text}\n\n${BOUNDARY}\n${JSON.stringify(value)}`

describe('readKeptEvent', () => {
  it('reads the context out of the schema, and leaves the message and the schema without their encoded copies', () => {
    expect(readKeptEvent(keptQuestion({ message: encoded('Select your flight:') }))).toEqual({
      ...keptQuestion(),
      message: 'Select your flight:',
      schema: responseSchema,
      context,
    })
  })

  it('prefers the schema’s context to the message’s', () => {
    const read = readKeptEvent(keptQuestion({ message: encoded('Pick'), schema: { ...responseSchema, 'x-model-context': { from: 'BOS' } } }))
    expect(read).toMatchObject({ message: 'Pick', context: { from: 'BOS' } })
  })

  it('reads the message’s context when the schema has none, or one that is not an object', () => {
    for (const damaged of [undefined, null, 'text', [1, 2], 7]) {
      const schema = damaged === undefined ? responseSchema : { ...responseSchema, 'x-model-context': damaged }
      expect(readKeptEvent(keptQuestion({ message: encoded('Pick'), schema }))).toMatchObject({ message: 'Pick', schema: responseSchema, context })
    }
  })

  it('keeps the message for people and gives an empty context when the encoded part is damaged', () => {
    for (const message of [`Pick\n\n${BOUNDARY}\n{"from": "NYC", "flig`, `Pick\n\n${BOUNDARY}\n[1,2,3]`]) {
      expect(readKeptEvent(keptQuestion({ message, schema: responseSchema }))).toMatchObject({ message: 'Pick', context: {} })
    }
  })

  it('leaves a message without a boundary as it is, and reads the last boundary when the text quotes the line', () => {
    expect(readKeptEvent(keptQuestion({ message: 'Are you sure?\n\nReally?', schema: responseSchema }))).toMatchObject({ message: 'Are you sure?\n\nReally?', context: {} })
    const quoting = `Our wire format ends with\n${BOUNDARY}\nfollowed by JSON.`
    expect(readKeptEvent(keptQuestion({ message: encoded(quoting), schema: responseSchema }))).toMatchObject({ message: quoting, context })
    expect(readKeptEvent(keptQuestion({ message: `${BOUNDARY}\n{"a":1}`, schema: responseSchema }))).toMatchObject({ message: '', context: { a: 1 } })
  })

  it('leaves a question of today, and every other event, as they are', () => {
    const today: ChatEvent = { ...keptQuestion(), type: 'plugin_elicit_request', schema: responseSchema, message: `Quoting ${BOUNDARY}`, context: { message: 'mine' } }
    expect(readKeptEvent(today)).toBe(today)
    const text: ChatEvent = { type: 'text', content: encoded('Hello') }
    expect(readKeptEvent(text)).toBe(text)
  })
})
