import { stableHash } from '@/lib/plugins/kit'
import { cleanPlace } from './flight-request'

/**
 * The travel tip `book_flight` asks the model for, as the offline model answers it: which
 * destination the prompt names, and a tip about it.
 */

/** Whether the text asks for a tip or advice. */
export function asksForTip(text: string): boolean {
  return /\b(?:tip|tips|advice|advise|recommend\w*)\b/i.test(text)
}

const PLACE_END = String.raw`(?=\s+(?:international\s+)?airport\b|\s+(?:on|for|during|with|when|and|before|after)\b|[,!?;:]|\.(?:\s|$)|$)`
const DESTINATION_PATTERNS: RegExp[] = [
  new RegExp(String.raw`\barriv(?:e|es|ing|al)\s+(?:at|in|into)\s+(?:the\s+)?(.+?)${PLACE_END}`, 'i'),
  new RegExp(String.raw`\b(?:land|lands|landing)\s+(?:at|in)\s+(?:the\s+)?(.+?)${PLACE_END}`, 'i'),
  new RegExp(
    String.raw`\b(?:visiting|visit|going to|trip to|travel(?:l?ing)? to|flying (?:in)?to|flight to|head(?:ed|ing)? to)\s+(?:the\s+)?(.+?)${PLACE_END}`,
    'i',
  ),
  /\b(?:at|in|to|for|about)\s+((?:[A-Z][\w.'-]*)(?:\s+[A-Z][\w.'-]*){0,3})/,
  /\b([\w.'-]+)\s+(?:international\s+)?airport\b/i,
]

/**
 * The destination a tip prompt is about, e.g. "LAX" in "a tip for a traveller arriving at
 * LAX airport"; undefined when the prompt names none.
 */
export function findTipDestination(text: string): string | undefined {
  for (const pattern of DESTINATION_PATTERNS) {
    const match = pattern.exec(text)
    const place = match ? cleanPlace(match[1]) : undefined
    if (place && !/^(?:a|an|the|your|my|our|their|this|that)\b/i.test(place)) return place
  }
  return undefined
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
  return TIPS[stableHash(destination.toUpperCase()) % TIPS.length](destination)
}
