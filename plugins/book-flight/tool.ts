import 'server-only'
import type { Operation } from 'effection'
import { z } from 'zod'
import { askUntilValid } from '@/lib/plugins/kit'
import { createMcpTool, field, question } from '@/lib/tools'
import {
  createTicketNumber,
  flightSchema,
  flightTitle,
  formatFlight,
  freeSeats,
  searchFlights,
  seatMapFor,
  seatMapSchema,
  seatPosition,
  type Flight,
  type SeatMap,
} from './flights'

export type BookFlightResult =
  | { status: 'confirmed'; ticketNumber: string; flight: Flight; seat: string; price: number; tip: string }
  | { status: 'cancelled'; step: 'flight' | 'seat'; message: string }

export const bookFlightTool = createMcpTool('book_flight')
  .description('Book a flight for the user: searches flights, lets them pick one and a seat, and issues a ticket.')
  .parameters(
    z.object({
      from: z.string().trim().min(2).max(64).describe('Departure city or airport code, e.g. NYC'),
      destination: z.string().trim().min(2).max(64).describe('Arrival city or airport code, e.g. LAX'),
    }),
  )
  .title(({ from, destination }) => `${from} → ${destination}`)
  .elicits({
    pickFlight: question({
      response: z.object({ flightId: z.string().min(1).meta({ title: 'Flight' }) }),
      context: z.object({ from: z.string(), destination: z.string(), flights: z.array(flightSchema) }),
      // A pick list of the offered flights, each by its id: no id to type, no other flight to name.
      form: ({ flights }) => ({
        flightId: field.choice('Flight', flights.map((flight) => ({ value: flight.id, title: flightTitle(flight) }))),
      }),
    }),
    pickSeat: question({
      response: z.object({
        row: z.number().int().positive().meta({ title: 'Row' }),
        seat: z.string().regex(/^[A-Z]$/).meta({ title: 'Seat letter' }),
      }),
      context: z.object({ flight: flightSchema, seatMap: seatMapSchema }),
      // One choice per free seat ("10A · window"), standing for the row and letter the tool takes.
      form: ({ seatMap }) => ({
        seat: field.choice(
          'Seat',
          freeSeats(seatMap).map(({ row, letter }) => ({
            value: `${row}${letter}`,
            title: `${row}${letter} · ${seatPosition(seatMap, letter)}`,
            answer: { row, seat: letter },
          })),
          { description: 'The free seats of the cabin, front to back.' },
        ),
      }),
    }),
  })
  .execute(function* ({ from, destination }, ctx): Operation<BookFlightResult> {
    yield* ctx.notify(`Searching flights from ${from} to ${destination}`, 0.1)
    const flights = searchFlights(from, destination)
    yield* ctx.log('info', `Found ${flights.length} flights from ${from} to ${destination}`)

    const flightChoice = yield* askUntilValid({
      *ask(problem) {
        yield* ctx.notify('Waiting for a flight choice', 0.25)
        const lead = problem ?? `Select your flight from ${from} to ${destination}:`
        return yield* ctx.elicit('pickFlight', {
          message: `${lead}\n\n${flights.map((f, i) => `${i + 1}. ${formatFlight(f)}`).join('\n')}`,
          from,
          destination,
          flights,
        })
      },
      check: ({ flightId }) => {
        const offered = flights.find((candidate) => candidate.id === flightId)
        return offered ? { value: offered } : { problem: `Flight ${flightId} is not one of the offered flights. Select your flight:` }
      },
    })
    if (flightChoice.action !== 'accept') {
      return { status: 'cancelled', step: 'flight', message: 'The user declined to choose a flight; nothing was booked.' }
    }
    const flight = flightChoice.value

    const seatMap = seatMapFor(flight)
    const seatChoice = yield* askUntilValid({
      *ask(problem) {
        yield* ctx.notify('Waiting for a seat choice', 0.5)
        return yield* ctx.elicit('pickSeat', { message: problem ?? seatQuestion(flight, seatMap), flight, seatMap })
      },
      check: ({ row, seat: letter }) => {
        const chosen = `${row}${letter}`
        const exists = row >= seatMap.firstRow && row <= seatMap.lastRow && seatMap.letters.includes(letter)
        if (exists && !seatMap.taken.includes(chosen)) return { value: chosen }
        return { problem: `Seat ${chosen} is ${exists ? 'taken' : 'not on this aircraft'}. Select another seat on ${flight.flightNumber}:` }
      },
    })
    if (seatChoice.action !== 'accept') {
      return { status: 'cancelled', step: 'seat', message: `The user cancelled at seat selection; ${flight.flightNumber} was not booked.` }
    }
    const seat = seatChoice.value

    yield* ctx.notify('Finding a travel tip', 0.8)
    const tip = yield* ctx.sample({
      prompt: `Give one short, practical travel tip for a traveller arriving at ${destination} airport.`,
      maxTokens: 120,
    })
    // Random, so a journaled step: a session replayed on another process keeps the same ticket.
    const ticketNumber = yield* ctx.step('issue ticket', function* () {
      return createTicketNumber()
    })
    yield* ctx.log('info', `Issued ticket ${ticketNumber} for ${flight.flightNumber}, seat ${seat}`)
    yield* ctx.notify('Booking confirmed', 1)
    return { status: 'confirmed', ticketNumber, flight, seat, price: flight.price, tip: tip.text.trim() }
  })

/** The seat question in words: the flight, and how many seats are left to choose from. */
function seatQuestion(flight: Flight, seatMap: SeatMap): string {
  const total = (seatMap.lastRow - seatMap.firstRow + 1) * seatMap.letters.length
  return `Select your seat on ${flight.flightNumber}: ${freeSeats(seatMap).length} of ${total} seats are free.`
}
