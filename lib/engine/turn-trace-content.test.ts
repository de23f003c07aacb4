import { afterEach, describe, expect, it } from 'vitest'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { createOfflineModel } from '../models'
import { bookTrainTool, type BookTrainResult } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import { createChatServer, type ChatServer } from './chat-server'
import { createChatTestClient, elicitRequests, eventsOf, textOf } from './testing/chat-test-client'

const exporter = new InMemorySpanExporter()
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('turn-trace-content.test')

let chat: ChatServer | undefined
afterEach(async () => {
  await chat?.close()
  exporter.reset()
})

const MESSAGE = 'Book a train from Paris to Lyon'

/**
 * A whole booking, traced: the person's message, the train, the seat, the ticket. Each turn's
 * spans apart, and what the person saw: the questions (with their context) and the tool's result.
 */
async function tracedBooking(traceContent: boolean) {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], tracer, traceContent })
  const browser = createChatTestClient({ chat })
  const turnSpans = () => {
    const spans = exporter.getFinishedSpans()
    exporter.reset()
    return spans
  }

  const [pickTrain] = elicitRequests((await browser.say(MESSAGE)).events)
  const asked = turnSpans()
  const train = (pickTrain!.context.trains as Train[])[0]!
  const [pickSeat] = elicitRequests((await browser.answer([{ request: pickTrain!, result: { action: 'accept', content: { trainId: train.id } } }])).events)
  const seated = turnSpans()
  const seat = freeSeats(pickSeat!.context.seatMap as SeatMap)[0]!
  const last = await browser.answer([{ request: pickSeat!, result: { action: 'accept', content: seat } }])
  const [toolResult] = eventsOf(last.events, 'tool_result')
  const booked = turnSpans()
  return { pickTrain: pickTrain!, pickSeat: pickSeat!, toolResult: toolResult!, reply: textOf(last.events), turns: { asked, seated, booked } }
}

/** Everything a span says, as text: its name, attributes, status, its events' and links' attributes. */
function everythingIn(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => [event.name, event.attributes]),
      links: span.links.map((link) => link.attributes),
    })),
  )
}

const named = (spans: ReadableSpan[], prefix: string) => spans.filter((span) => span.name.startsWith(prefix))
const parsed = (span: ReadableSpan, attribute: string) => JSON.parse(String(span.attributes[attribute]))

describe('contents on spans', () => {
  it('without the opt-in, no span carries the message, a question’s context or the tool’s result', async () => {
    const { pickTrain, pickSeat, toolResult, turns } = await tracedBooking(false)
    const result = JSON.parse(toolResult.content) as Extract<BookTrainResult, { status: 'confirmed' }>
    expect(result.status).toBe('confirmed')
    const spans = [...turns.asked, ...turns.seated, ...turns.booked]
    // Every piece was traced: three turns, their model calls, the tool's three pieces.
    expect(named(spans, 'invoke_agent ')).toHaveLength(3)
    expect(named(spans, 'chat ').length).toBeGreaterThanOrEqual(2)
    expect(named(spans, 'execute_tool book_train')).toHaveLength(3)

    const said = everythingIn(spans)
    const secrets = [
      // The person's message.
      MESSAGE,
      'Paris',
      'Lyon',
      // The questions' words and context values: the trains offered, the chosen train's seat map.
      pickTrain.message,
      pickSeat.message,
      ...(pickTrain.context.trains as Train[]).flatMap((train) => [train.id, train.number, train.departure]),
      JSON.stringify(pickSeat.context.seatMap),
      // The tool's result.
      result.ticketNumber,
      result.tip,
    ]
    for (const secret of secrets) expect(said).not.toContain(secret)
    for (const span of spans) {
      for (const attribute of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.result', 'elicit.question.context', 'elicit.question.message']) {
        expect(span.attributes[attribute]).toBeUndefined()
      }
    }
  })

  it('with the opt-in, the model calls carry their messages in the conventions’ shape, a paused tool its question, and the tool its result', async () => {
    const { pickTrain, pickSeat, toolResult, reply, turns } = await tracedBooking(true)

    // The first model call: the person's message in, a tool call out.
    const [first] = named(turns.asked, 'chat ')
    const callId = pickTrain.callId
    expect(parsed(first!, 'gen_ai.input.messages')).toEqual([{ role: 'user', parts: [{ type: 'text', content: MESSAGE }] }])
    expect(parsed(first!, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: expect.stringContaining('Paris to Lyon') },
          // The id this server issued, as the tool's span and the next model call name it.
          { type: 'tool_call', id: callId, name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } },
        ],
        finish_reason: 'tool_calls',
      },
    ])

    // Each paused piece: its question's words and context, as the person was shown them.
    const [asking] = named(turns.asked, 'execute_tool book_train')
    expect(asking!.attributes['elicit.question.message']).toBe(pickTrain.message)
    expect(parsed(asking!, 'elicit.question.context')).toEqual(pickTrain.context)
    const [seating] = named(turns.seated, 'execute_tool book_train')
    expect(parsed(seating!, 'elicit.question.context')).toEqual(pickSeat.context)

    // The last piece: the tool's result; then the model call that read it, the whole conversation in, the reply out.
    const [finished] = named(turns.booked, 'execute_tool book_train')
    expect(finished!.attributes['gen_ai.tool.call.result']).toBe(toolResult.content)
    expect(asking!.attributes['gen_ai.tool.call.id']).toBe(callId)
    const [summing] = named(turns.booked, 'chat ')
    expect(parsed(summing!, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: MESSAGE }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: expect.stringContaining('Paris to Lyon') },
          { type: 'tool_call', id: callId, name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: callId, response: toolResult.content }] },
    ])
    expect(parsed(summing!, 'gen_ai.output.messages')).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: reply }], finish_reason: 'stop' }])
    // The conversation's signatures are no content: never on a span.
    expect(everythingIn([...turns.asked, ...turns.seated, ...turns.booked])).not.toContain('"sig"')
  })
})
