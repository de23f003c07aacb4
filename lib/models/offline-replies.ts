import type { FlightTrip } from './offline-intents'

const EXAMPLE = '“Book a flight from NYC to LAX”'

/** What the offline assistant can do with the tools on offer, optionally after returning a greeting. */
export function describeCapabilities({ greeting = false, tools }: { greeting?: boolean; tools: ReadonlySet<string> }): string {
  const opening = `${greeting ? 'Hello! ' : ''}I'm the offline assistant — no API key needed.`
  const skills = [
    tools.has('book_flight') &&
      `book flights (try ${EXAMPLE}, or several trips at once, like “Book flights from NYC to LAX and from LAX to SEA”)`,
    tools.has('tictactoe') && 'play tic-tac-toe with you (“Let’s play tic-tac-toe”)',
    tools.has('pick_card') && 'deal you cards to pick from (“Pick a card”, or “Draw 7 cards and help me choose”)',
  ].filter((skill): skill is string => Boolean(skill))
  if (skills.length === 0) return `${opening} No tools are on offer right now, so I can only talk.`
  const list = skills.length === 1 ? skills[0] : `${skills.slice(0, -1).join(', ')} and ${skills.at(-1)}`
  return `${opening} I can ${list}.`
}

/** The reply to a flight request that lacks where from or where to. */
export function askForRoute(): string {
  return `Happy to book a flight — where from, and where to? For example: ${EXAMPLE}.`
}

/** The reply to a flight request when no booking tool is on offer. */
export function bookingUnavailable(): string {
  return "I'd like to help with that flight, but booking isn't available in this conversation right now."
}

/** The short text streamed before the offline model calls `book_flight`. */
export function announceTrips(trips: FlightTrip[]): string {
  const routes = trips.map(({ from, destination }) => `from ${from} to ${destination}`)
  const list = routes.length <= 2 ? routes.join(' and ') : `${routes.slice(0, -1).join(', ')} and ${routes.at(-1)}`
  return `Let me find flights ${list}.`
}

const TIPS: Array<(place: string) => string> = [
  (place) => `Arrive at ${place} at least two hours early — security lines can be long at peak times.`,
  (place) => `Before you land at ${place}, look up the official taxi rank or train link; it is usually quicker than waiting for a ride-share.`,
  (place) => `Bring an empty water bottle and fill it after security at ${place} — it saves money and keeps you hydrated.`,
  (place) => `Screenshot your boarding pass and gate for ${place}, so a flat battery or no signal won't hold you up.`,
  (place) => `Download an offline map of ${place} before you fly, so you can find your way from the airport without roaming data.`,
  (place) => `Keep a contactless card handy when you land at ${place}; most airport transit accepts it, so you can skip the ticket queue.`,
]

/**
 * A short, practical travel tip naming the destination; the same destination always gets
 * the same tip.
 */
export function travelTip(destination: string | undefined): string {
  if (!destination) return 'Arrive at the airport at least two hours early, and keep your ID and boarding pass within easy reach.'
  return TIPS[hash(destination.toUpperCase()) % TIPS.length](destination)
}

/** A brief answer to a question the offline model cannot research, naming what was asked. */
export function briefAnswer(question: string): string {
  const topic = question.trim().replace(/\s+/g, ' ')
  const shown = topic.length > 120 ? `${topic.slice(0, 117)}…` : topic
  if (!shown) return "I'm the offline assistant: ask me something specific and I'll answer briefly."
  return (
    `About “${shown}”: I'm the offline assistant, so I can only give a brief answer — ` +
    'keep it simple, and check the details with an up-to-date source.'
  )
}

function hash(text: string): number {
  let value = 2166136261
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619) >>> 0
  return value
}
