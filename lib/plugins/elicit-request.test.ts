import { describe, expect, it } from 'vitest'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { encodeModelContext, MODEL_CONTEXT_KEY } from '../tools/model-context'
import { toPluginElicitRequest } from './elicit-request'

const responseSchema = { type: 'object', properties: { flightId: { type: 'string' } }, required: ['flightId'] }
const context = { from: 'NYC', destination: 'LAX', flights: [{ id: 'SH-101' }, { id: 'CA-202' }] }

function eventFor({ message, schema, elicitId = 'book_flight/pickFlight/call%2F7/4' }: {
  message: string
  schema: Record<string, unknown>
  elicitId?: string
}): PluginElicitRequestEvent {
  return {
    type: 'plugin_elicit_request',
    sessionId: 'call/7',
    callId: 'call/7',
    toolName: 'book_flight',
    elicitId,
    key: 'pickFlight',
    message,
    schema,
  }
}

describe('toPluginElicitRequest', () => {
  it('strips the encoded section from the message and reads the context from the schema', () => {
    const encoded = encodeModelContext({ message: 'Select your flight:', schema: responseSchema, context })
    const request = toPluginElicitRequest(eventFor(encoded))
    expect(request).toEqual({
      id: { toolName: 'book_flight', key: 'pickFlight', callId: 'call/7', seq: 4 },
      elicitId: 'book_flight/pickFlight/call%2F7/4',
      sessionId: 'call/7',
      toolName: 'book_flight',
      key: 'pickFlight',
      callId: 'call/7',
      seq: 4,
      message: 'Select your flight:',
      schema: encoded.schema,
      context,
      choices: {},
      fieldTitles: {},
      choiceAnswers: {},
      defaults: {},
    })
  })

  it('carries the question’s choices, when the event has them', () => {
    const encoded = encodeModelContext({ message: 'Select your flight:', schema: responseSchema, context })
    const choices = { flightId: [{ value: 'SH-101', title: 'SH 101 · 08:00 → 11:30 · $299' }] }
    expect(toPluginElicitRequest({ ...eventFor(encoded), choices }).choices).toEqual(choices)
  })

  it('carries the question’s defaults, when the event has them', () => {
    const encoded = encodeModelContext({ message: 'Select your flight:', schema: responseSchema, context })
    expect(toPluginElicitRequest({ ...eventFor(encoded), defaults: { flightId: 'CA-202' } }).defaults).toEqual({ flightId: 'CA-202' })
  })

  it('prefers the schema’s context to the message’s', () => {
    const encoded = encodeModelContext({ message: 'Select your flight:', schema: responseSchema, context })
    const request = toPluginElicitRequest(eventFor({ ...encoded, schema: { ...encoded.schema, [MODEL_CONTEXT_KEY]: { from: 'BOS' } } }))
    expect(request.context).toEqual({ from: 'BOS' })
    expect(request.message).toBe('Select your flight:')
  })

  it('falls back to the message boundary when the schema lost x-model-context', () => {
    const encoded = encodeModelContext({ message: 'Select your flight:', schema: responseSchema, context })
    const request = toPluginElicitRequest(eventFor({ message: encoded.message, schema: responseSchema }))
    expect(request.context).toEqual(context)
    expect(request.message).toBe('Select your flight:')
    expect(request.schema).toBe(responseSchema)
  })

  it('gives an empty context and the whole message when nothing was encoded', () => {
    const request = toPluginElicitRequest(eventFor({ message: 'Are you sure?', schema: responseSchema }))
    expect(request.context).toEqual({})
    expect(request.message).toBe('Are you sure?')
  })

  it('falls back to the event’s own fields when the elicit id cannot be parsed', () => {
    const request = toPluginElicitRequest(eventFor({ message: 'Pick', schema: responseSchema, elicitId: 'not-an-id' }))
    expect(request.id).toEqual({ toolName: 'book_flight', key: 'pickFlight', callId: 'call/7', seq: 0 })
    expect(request.seq).toBe(0)
    expect(request.elicitId).toBe('not-an-id')
  })
})
