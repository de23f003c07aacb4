import type { JSONValue } from '@ai-sdk/provider'
import { defineOfflineSkill } from '../../plugins/kit'
import { bookTrainTool } from './tool'

const EXAMPLE = '“Book a train from Paris to Lyon”'
// "from Paris to Lyon", "from Paris to Lyon to Nice": every "to" after a "from" is one more trip.
const ROUTE = /\bfrom\s+([a-z][a-z-]+(?:\s+to\s+[a-z][a-z-]+)+)/gi

/**
 * What the offline model knows of the fixture's `book_train`: a message that names a train and
 * a route calls it, once per trip ("from A to B and from B to C", "from A to B to C"); the tip
 * the tool samples names the station it is asked about; a booking is summed up with its ticket.
 */
export const bookTrainOffline = defineOfflineSkill(bookTrainTool, {
  example: `book trains (try ${EXAMPLE})`,

  recognise({ text, maxCalls }) {
    if (!/\btrains?\b/i.test(text)) return undefined
    const trips = [...text.matchAll(ROUTE)].flatMap((match) => {
      const stops = match[1]!.split(/\s+to\s+/i)
      return stops.slice(1).map((to, index) => ({ from: stops[index]!, to }))
    })
    if (trips.length === 0) return { confidence: 1, text: `Happy to book a train — where from, and where to? For example: ${EXAMPLE}.`, calls: [] }
    const taken = trips.slice(0, maxCalls)
    return {
      confidence: 1,
      text: `Let me find trains ${taken.map(({ from, to }) => `from ${from} to ${to}`).join(' and ')}.`,
      calls: taken,
      unavailable: "I'd like to help with that train, but booking isn't available in this conversation right now.",
    }
  },

  answerSample({ text }) {
    const station = /\barriving at (.+?) station\b/.exec(text)?.[1] ?? 'the station'
    return `At ${station}, check the departure board for your platform before you buy a coffee.`
  },

  summarise(result) {
    if (!isRecord(result)) return undefined
    if (result.status === 'confirmed' && isRecord(result.train)) {
      const tip = typeof result.tip === 'string' && result.tip ? ` Travel tip: ${result.tip}` : ''
      return `Your train is booked! Ticket **${String(result.ticketNumber)}** — ${String(result.train.number)} from ${String(result.train.from)} to ${String(result.train.to)}, seat **${String(result.seat)}**, **$${String(result.price)}**.${tip}`
    }
    if (result.status === 'cancelled') return `Nothing was booked — the booking was cancelled at the ${String(result.step)} step, so no ticket was issued.`
    return undefined
  },
})

function isRecord(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
