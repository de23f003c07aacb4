import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { whyNotInFormSubset } from '@/lib/mcp/server'
import { firstChoices, firstFreeSeat } from '@/lib/mcp/server/testing/booking-client'
import { endpointPerTest } from '@/lib/mcp/server/testing/endpoint-per-test'
import { QUESTION_META_KEY } from '@/lib/protocol/question-form'
import { bookFlightTool } from './tool'

// book_flight as an MCP client gets it: its flights and seats as titled pick lists (a seat's
// choice standing for the row and letter the tool takes), its progress, its log and its tip.
const served = endpointPerTest({ tools: [bookFlightTool], stateSecret: 's'.repeat(40) })

const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

describe.each(['2025', '2026'] as const)('book_flight from an official v2 client (%s)', (era) => {
  it('asks for a flight and a seat in native forms (titled pick lists, the context in _meta), then books, with progress and logs', async () => {
    const { client, asked } = await served.connect({ era, answer: firstChoices })
    const progress: { progress: number; message?: string }[] = []
    const logs: unknown[] = []
    client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data))
    if (era === '2025') await client.setLoggingLevel('info')
    // 2025: the session's level; 2026: the level each request names in its _meta.
    const result = await client.callTool(era === '2026' ? { ...BOOK, _meta: { [LOG_LEVEL_META_KEY]: 'info' } } : BOOK, {
      // The 2026 client's driver reports its own rounds on the same callback ("Fulfilling input required ...").
      onprogress: (update) => void (update.message?.startsWith('Fulfilling') || progress.push({ progress: update.progress, message: update.message })),
    })

    const [flightQuestion, seatQuestion] = asked
    for (const question of asked) {
      expect(whyNotInFormSubset(question.schema)).toBeUndefined()
      // A person reads the message: no context block, no JSON.
      expect(question.message).not.toContain('x-model-context')
      expect(question.message).not.toMatch(/[{}[\]"]/)
      // A client that did not negotiate app-rendered elicitations never sees _meta.ui.
      expect(question.meta).not.toHaveProperty('ui')
    }
    expect(flightQuestion!.message).toMatch(/^Select your flight from NYC to LAX:\n\n1\. SkyHigh Airways SH \d+ \| /)
    const flights = flightQuestion!.context.flights as { id: string; flightNumber: string; departure: string; arrival: string; price: number }[]
    expect(flightQuestion!.meta[QUESTION_META_KEY]).toEqual({ tool: 'book_flight', key: 'pickFlight', context: { from: 'NYC', destination: 'LAX', flights } })
    expect(flightQuestion!.schema).toEqual({
      type: 'object',
      properties: {
        flightId: {
          type: 'string',
          title: 'Flight',
          oneOf: flights.map((flight) => ({ const: flight.id, title: `${flight.flightNumber} · ${flight.departure} → ${flight.arrival} · $${flight.price}` })),
        },
      },
      required: ['flightId'],
    })
    expect(flights).toHaveLength(3)

    const seat = firstFreeSeat(seatQuestion!)
    const seatMap = seatQuestion!.context.seatMap as { taken: string[] }
    expect(seatQuestion!.message).toBe(`Select your seat on ${flights[0]!.flightNumber}: ${72 - seatMap.taken.length} of 72 seats are free.`)
    const seatField = (seatQuestion!.schema.properties as Record<string, { title: string; oneOf: { const: string; title: string }[] }>).seat!
    expect(seatField.title).toBe('Seat')
    expect(seatField.oneOf).toHaveLength(72 - seatMap.taken.length)
    expect(seatField.oneOf.map((choice) => choice.const)).not.toContain(seatMap.taken[0])
    expect(seatField.oneOf[0]).toEqual({ const: seat, title: expect.stringMatching(new RegExp(`^${seat} · (window|aisle|middle)$`)) })
    expect(seatField.oneOf.find((choice) => /^\d+A$/.test(choice.const))!.title).toMatch(/· window$/)
    expect(seatField.oneOf.find((choice) => /^\d+C$/.test(choice.const))!.title).toMatch(/· aisle$/)
    const seatMeta = seatQuestion!.meta[QUESTION_META_KEY] as { key: string; context: Record<string, unknown>; answers: Record<string, Record<string, unknown>> }
    expect(seatMeta).toMatchObject({ tool: 'book_flight', key: 'pickSeat', context: { flight: { id: flights[0]!.id }, seatMap } })
    expect(seatMeta.answers.seat![seat]).toEqual({ row: Number(seat.slice(0, -1)), seat: seat.slice(-1) })

    const booking = result.structuredContent as { status: string; ticketNumber: string; seat: string; tip: string }
    expect(result.isError).toBeFalsy()
    expect(booking).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(booking)
    expect(booking.seat).toBe(seat)
    // No sampling declared: the app's own (offline) model wrote the tip, naming the destination.
    expect(booking.tip).toMatch(/LAX/)

    expect(progress.map((update) => update.message)).toEqual([
      'Searching flights from NYC to LAX',
      'Waiting for a flight choice',
      'Waiting for a seat choice',
      'Finding a travel tip',
      'Booking confirmed',
    ])
    expect(progress.at(-1)).toMatchObject({ progress: 100, message: 'Booking confirmed' })
    for (let index = 1; index < progress.length; index++) expect(progress[index]!.progress).toBeGreaterThan(progress[index - 1]!.progress)
    await expect.poll(() => logs).toContain(`Issued ticket ${booking.ticketNumber} for ${(booking as unknown as { flight: { flightNumber: string } }).flight.flightNumber}, seat ${booking.seat}`)
  })
})
