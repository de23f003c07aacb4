import type { JSONValue } from '@ai-sdk/provider'
import { defineOfflineSkill } from '@/lib/plugins/kit'
import { isFlightRequest, mentionsFlying, parseFlightTrips, type FlightTrip } from './flight-request'
import { bookFlightTool } from './tool'
import { asksForTip, findTipDestination, travelTip } from './travel-tips'

const EXAMPLE = '“Book a flight from NYC to LAX”'
// A travel word beside "tip", so "any tips for my essay?" is not a travel question.
const TRAVEL_CUE = /\b(?:travel\w*|trip|flight|flights|fly|flying|airport|visit\w*|holiday|vacation|landing|arriv\w+)\b/i

/**
 * What the offline model knows of `book_flight`: a request that names flying ("a flight",
 * "fly", "tickets") with a route, one call per trip; the travel tip the tool samples; and the
 * booking result.
 */
export const bookFlightOffline = defineOfflineSkill(bookFlightTool, {
  example: `book flights (try ${EXAMPLE}, or several trips at once, like “Book flights from NYC to LAX and from LAX to SEA”)`,

  recognise({ text, maxCalls }) {
    // A booking verb alone is not enough: "Reserve a table from 7 to 9" is someone else's request.
    if (!isFlightRequest(text) || !mentionsFlying(text)) {
      // "Any tips for travelling to Lisbon?": a travel question, answered without booking.
      if (asksForTip(text) && TRAVEL_CUE.test(text)) return { confidence: 0.5, text: travelTip(findTipDestination(text)), calls: [] }
      return undefined
    }
    const trips = parseFlightTrips(text)
    if (trips.length === 0) return { confidence: 1, text: askForRoute(), calls: [] }
    const taken = trips.slice(0, maxCalls)
    return {
      confidence: 1,
      text: announceTrips({ trips: taken, asked: trips.length }),
      calls: taken,
      unavailable: "I'd like to help with that flight, but booking isn't available in this conversation right now.",
    }
  },

  answerSample: ({ text }) => travelTip(findTipDestination(text)),

  summarise(result) {
    if (!isRecord(result)) return undefined
    if (result.status === 'confirmed' && isRecord(result.flight)) return confirmedBooking(result, result.flight)
    if (result.status === 'cancelled') return cancelledBooking(result)
    return undefined
  },
})

/** The reply to a flight request that lacks where from or where to. */
function askForRoute(): string {
  return `Happy to book a flight — where from, and where to? For example: ${EXAMPLE}.`
}

/** The short text streamed before the calls; says so when only the first few of the trips asked for are booked. */
function announceTrips({ trips, asked }: { trips: FlightTrip[]; asked: number }): string {
  const routes = trips.map(({ from, destination }) => `from ${from} to ${destination}`)
  const list = routes.length <= 2 ? routes.join(' and ') : `${routes.slice(0, -1).join(', ')} and ${routes.at(-1)}`
  const more = asked > trips.length ? ` That is the first ${trips.length} of the ${asked} trips you asked for; ask again for the rest.` : ''
  return `Let me find flights ${list}.${more}`
}

function confirmedBooking(result: Record<string, JSONValue>, flight: Record<string, JSONValue>): string {
  const route = [flight.airline, flight.flightNumber].filter(Boolean).join(' ')
  const details = [
    `${route || 'Your flight'} from ${text(flight.from)} to ${text(flight.to)}`,
    flight.departure ? `departing ${text(flight.departure)}${flight.arrival ? ` (arriving ${text(flight.arrival)})` : ''}` : undefined,
    result.seat ? `seat **${text(result.seat)}**` : undefined,
    typeof (result.price ?? flight.price) === 'number' ? `**${dollars(Number(result.price ?? flight.price))}**` : undefined,
  ].filter(Boolean)
  const tip = typeof result.tip === 'string' && result.tip.trim() ? ` Travel tip: ${result.tip.trim()}` : ''
  return `Your flight is booked! Ticket **${text(result.ticketNumber)}** — ${details.join(', ')}.${tip}`
}

function cancelledBooking(result: Record<string, JSONValue>): string {
  const step = result.step === 'seat' ? 'seat selection' : result.step === 'flight' ? 'flight selection' : undefined
  const where = step ? ` — the booking was cancelled at the ${step} step` : ' — the booking was cancelled'
  return `Nothing was booked${where}, so no ticket was issued. Just ask again whenever you'd like to book a flight.`
}

function isRecord(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '?'
}

function dollars(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`
}
