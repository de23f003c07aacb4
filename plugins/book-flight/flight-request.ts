/**
 * Reading a request to book flights, as the offline model hears it: the trips asked for, in
 * order. Only a reading; `offline.ts` decides what to do with it.
 */

/** One leg the user asked to book, as the offline model passes it to `book_flight`. */
export interface FlightTrip {
  from: string
  destination: string
}

// Words that end a place name: "to LAX on Friday", "from NYC at 8am", "to Paris please".
const TRAILING_FILLER =
  /\s+(?:on|for|tomorrow|today|tonight|next|this|at|in|please|pls|leaving|departing|returning|with|by|around|asap|via|one[- ]way|round[- ]trip|early|late|morning|afternoon|evening)\b.*$/i
const EDGE_PUNCTUATION = /^[\s"'“”‘’([]+|[\s"'“”‘’)\].,!?;:]+$/g
// Sentence ends, but not the dot of "St. Louis" or "Ft. Myers".
const SENTENCE_END = /(?<!\b(?:St|Ste|Ft|Mt))[.!?]+(?:\s+|$)/
const CLAUSE_SEPARATOR = /\s*(?:[,;&]|\band then\b|\bthen\b|\band\b)\s*/i
const BOOKING_CUE = /\b(?:book|booking|reserve|reservation|fly|flying|flight|flights|ticket|tickets)\b/i
// Words that name flying itself, not just booking something: "reserve a table" has none.
const FLIGHT_WORD = /\b(?:fly|flying|flight|flights|plane|airfare|airline|airport|ticket|tickets)\b/i
const QUESTION_START = /^\s*(?:how|what|why|when|which|where|who|is|are|does|do|did)\b/i
const BOOK_VERB = /\b(?:book|reserve)\b/i

/**
 * The trips in a clear request to book flights, in the order they were asked for;
 * empty when the text is not such a request.
 *
 * @example
 * parseFlightTrips('Book flights from NYC to LAX and from LAX to SEA')
 * // [{ from: 'NYC', destination: 'LAX' }, { from: 'LAX', destination: 'SEA' }]
 */
export function parseFlightTrips(text: string): FlightTrip[] {
  if (!isFlightRequest(text)) return []

  const trips: FlightTrip[] = []
  for (const sentence of text.split(SENTENCE_END)) {
    for (const clause of sentence.split(CLAUSE_SEPARATOR)) {
      const found = tripsInClause(clause.trim(), trips.at(-1))
      trips.push(...found)
    }
  }
  return trips
}

/** Whether the text names flying itself ("flight", "fly", "ticket"), not just a booking verb. */
export function mentionsFlying(text: string): boolean {
  return FLIGHT_WORD.test(text)
}

/**
 * Whether the text asks for flights at all, complete or not ("book a flight" is one;
 * "how long is a flight to LAX?" is not).
 */
export function isFlightRequest(text: string): boolean {
  return BOOKING_CUE.test(text) && (!QUESTION_START.test(text) || BOOK_VERB.test(text))
}

function tripsInClause(clause: string, previous: FlightTrip | undefined): FlightTrip[] {
  if (!clause) return []

  // "... and back"
  if (previous && /^(?:(?:fly|come|go|return|and)\s+)*back(?:\s+home)?(?:\s+again)?$/i.test(clause)) {
    return [{ from: previous.destination, destination: previous.from }]
  }

  // Every pattern below needs a "to": without one, none is tried (a clause of "from from from …" costs one scan).
  if (!/\sto\s/i.test(clause)) return []

  // "from NYC to LAX", also "from London to Paris to Rome"
  const forward = /\bfrom\s+(.+?)\s+to\s+(.+)$/i.exec(clause)
  if (forward) return legs(forward[1], forward[2].split(/\s+to\s+/i))

  // "fly to Paris from London"
  const reversed = /\bto\s+((?:(?!\bto\s).)+?)\s+from\s+(.+)$/i.exec(clause)
  if (reversed) return legs(reversed[2], [reversed[1]])

  if (!previous) {
    // "book a flight NYC to LAX"
    const cued = /\b(?:flights?|fly):?\s+(?:me\s+)?(\S+(?:\s+\S+){0,2}?)\s+to\s+(.+)$/i.exec(clause)
    if (!cued || /^(?:for|with|me|to|please)\b/i.test(cued[1])) return []
    return legs(cued[1], cued[2].split(/\s+to\s+/i))
  }

  // "... then on to SEA", "and from there to SEA"
  const onward = /^(?:(?:then|and|also|on|onward|onwards|from there|fly|a flight|another flight|another one|one more)\s+)*to\s+(.+)$/i.exec(clause)
  if (onward) return legs(previous.destination, onward[1].split(/\s+to\s+/i))

  // "... and LAX to SEA"
  const bare = /^(?:(?:a|another|one more)\s+(?:flight|one)\s+)?(\S+(?:\s+\S+){0,2}?)\s+to\s+(.+)$/i.exec(clause)
  if (bare && !/\b(?:want|need|like|going|go|get|have|me|i)\b/i.test(bare[1])) {
    return legs(bare[1], bare[2].split(/\s+to\s+/i))
  }
  return []
}

/** Consecutive legs from a start through each stop; empty if any place is not usable. */
function legs(start: string, stops: string[]): FlightTrip[] {
  const places = [start, ...stops].map(cleanPlace)
  if (places.some((place) => place === undefined)) return []
  const valid = places as string[]
  return valid.slice(1).map((destination, index) => ({ from: valid[index], destination }))
}

/**
 * A place name as the user wrote it, without filler or punctuation around it;
 * three-letter codes are upper-cased ("lax" → "LAX"). Undefined if nothing usable is left.
 */
export function cleanPlace(raw: string): string | undefined {
  let place = raw.replace(EDGE_PUNCTUATION, '').replace(TRAILING_FILLER, '')
  place = place.replace(/^(?:the|a)\s+/i, '').replace(/\s+(?:international\s+)?airport$/i, '')
  place = place.replace(EDGE_PUNCTUATION, '').replace(/\s+/g, ' ')
  if (/^[a-z]{3}$/i.test(place)) place = place.toUpperCase()
  if (place.length < 2 || place.length > 64 || !/\p{L}/u.test(place)) return undefined
  return place
}
