import type { JSONValue, LanguageModelV3Message } from '@ai-sdk/provider'
import type { OfflineReply } from './offline-plan'
import { userText, type OfflineCall } from './offline-prompt'

/**
 * The offline model's "pick a card": it calls the `pick_card` tool when the user asks to
 * pick or draw cards, and comments on how the pick went. (Its card analyses are structured
 * answers: see offline-structured.ts.)
 */

/** The name of the tool the offline model calls to play. */
export const PICK_CARD_TOOL = 'pick_card'

const DEFAULT_COUNT = 5
const MIN_COUNT = 2
const MAX_COUNT = 10

const CARD_REQUEST = /\b(?:pick|draw|choose|deal|select|shuffle)\b(?:\s+\w+){0,3}?\s+cards?\b|\bpick[\s-]a[\s-]card\b/i
const NOT_A_REQUEST = /^\s*(?:how|why|what|who|when|where)\b/i
const ANALYSIS_CUE = /\b(?:analy[sz]e|analy[sz]ing|analysis|advice|advise|help|suggest\w*|recommend\w*|tips?|thoughts|which (?:one|card) should)\b/i
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }
const COUNT_WORD = String.raw`(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)`
const COUNT = new RegExp(String.raw`\b${COUNT_WORD}\s+(?:playing\s+|random\s+)?cards?\b|\bfrom\s+${COUNT_WORD}\b`, 'i')

export interface PickCardRequest {
  count: number
  analyze: boolean
}

/**
 * What the user asks of `pick_card`: how many cards (5 unless they say, kept to 2-10) and
 * whether to analyse them first; undefined when the text is not a request to pick cards.
 *
 * @example
 * parsePickCardRequest('Draw 7 cards and give me some advice') // { count: 7, analyze: true }
 */
export function parsePickCardRequest(text: string): PickCardRequest | undefined {
  if (!CARD_REQUEST.test(text) || NOT_A_REQUEST.test(text)) return undefined
  const said = COUNT.exec(text)
  const word = (said?.[1] ?? said?.[2])?.toLowerCase()
  const asked = word === undefined ? DEFAULT_COUNT : (NUMBER_WORDS[word] ?? Number(word))
  return { count: Math.min(MAX_COUNT, Math.max(MIN_COUNT, asked)), analyze: ANALYSIS_CUE.test(text) }
}

/** The offline model's reply when the latest message asks to pick cards; undefined otherwise. */
export function planPickCardReply({
  prompt,
  toolNames,
  canCallTools,
}: OfflineCall): OfflineReply | undefined {
  const last = prompt.at(-1)
  if (last?.role !== 'user') return undefined
  const request = parsePickCardRequest(userText(last))
  if (!request) return undefined
  if (!toolNames.has(PICK_CARD_TOOL) || !canCallTools) {
    return { text: "I'd love to play, but the card game isn't available in this conversation right now.", toolCalls: [] }
  }
  const text = request.analyze
    ? `Let me draw ${request.count} cards and take a look at them before you pick.`
    : `Let me draw ${request.count} cards — pick one and see if it's the secret card.`
  return { text, toolCalls: [{ toolName: PICK_CARD_TOOL, input: JSON.stringify(request) }] }
}

/** Whether a tool result is a `pick_card` result the offline model can comment on. */
export function isPickCardResult(toolName: string, value: JSONValue): value is Record<string, JSONValue> {
  return toolName === PICK_CARD_TOOL && isRecord(value) && (value.status === 'picked' || value.status === 'cancelled')
}

/** A sentence or two on how the pick went: won, lost, or no card picked. */
export function commentOnPickCard(result: Record<string, JSONValue>): string {
  if (result.status !== 'picked') {
    return 'No card was picked, so the secret card stays a secret. Say “Pick a card” whenever you want another go.'
  }
  const picked = nameOf(result.pickedName, result.picked)
  const secret = nameOf(result.secretName, result.secret)
  if (result.isWinner === true) return `You picked the ${picked} — and that was the secret card. You win!`
  return `You picked the ${picked}, but the secret card was the ${secret}. Not this time — say “Pick a card” to try again.`
}

function nameOf(name: JSONValue | undefined, card: JSONValue | undefined): string {
  if (typeof name === 'string' && name.trim()) return name.trim()
  if (isRecord(card) && typeof card.rank === 'string' && typeof card.suit === 'string') return `${card.rank} of ${card.suit}`
  return 'card'
}

function isRecord(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
