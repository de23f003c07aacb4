import type { JSONValue } from '@ai-sdk/provider'
import { createStructuredValue, plainLabel, readNumberedChoices, type PromptChoice, type PromptHints } from '@/lib/models'
import { defineOfflineSkill } from '@/lib/plugins/kit'
import { pickCardTool } from './tool'

/**
 * What the offline model knows of "pick a card": it calls `pick_card` when asked to pick or
 * draw cards, analyses a hand when the tool samples it (the highest card is its favourite),
 * and comments on how the pick went.
 */

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

export const pickCardOffline = defineOfflineSkill(pickCardTool, {
  example: 'deal you cards to pick from (“Pick a card”, or “Draw 7 cards and help me choose”)',

  recognise({ text }) {
    const request = parsePickCardRequest(text)
    if (!request) return undefined
    return {
      confidence: 1,
      text: request.analyze
        ? `Let me draw ${request.count} cards and take a look at them before you pick.`
        : `Let me draw ${request.count} cards — pick one and see if it's the secret card.`,
      calls: [request],
      unavailable: "I'd love to play, but the card game isn't available in this conversation right now.",
    }
  },

  answerSample({ text, schema }) {
    const hints = readHandHints(text)
    if (schema !== undefined) return JSON.stringify(createStructuredValue({ schema, prompt: text, hints }))
    return hints.summary
  },

  summarise: (result) => (isPickCardResult(result) ? commentOnPickCard(result) : undefined),
})

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

/**
 * The hand in an analysis prompt (numbered lines such as "3. Queen of Hearts (Q♥)") and the
 * card the offline model would pick: the highest. Empty hints when the lines are not all cards.
 */
export function readHandHints(prompt: string): Partial<PromptHints> {
  const choices = readNumberedChoices(prompt)
  const ranks = choices.map((choice) => cardRank(choice.label))
  if (choices.length === 0 || ranks.some((rank) => rank === undefined)) return {}
  const best = ranks.indexOf(Math.max(...(ranks as number[])))
  const worst = ranks.indexOf(Math.min(...(ranks as number[])))
  return {
    choices,
    favourite: choices[best],
    noun: 'card',
    because: `ranks highest of the ${choices.length} cards`,
    summary: describeHand(choices, choices[best]!, choices[worst]!),
  }
}

const COUNT_NAMES = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
const RED = /\b(?:hearts|diamonds)\b|[♥♦♡♢]/i

/** "5 cards, three red and two black: the highest is the King of Spades, the lowest the Two of Hearts." */
function describeHand(cards: PromptChoice[], highest: PromptChoice, lowest: PromptChoice): string {
  const red = cards.filter((card) => RED.test(card.label)).length
  const black = cards.length - red
  const count = (n: number) => COUNT_NAMES[n] ?? String(n)
  const colours = black === 0 ? 'all red' : red === 0 ? 'all black' : `${count(red)} red and ${count(black)} black`
  return `${cards.length} cards, ${colours}: the highest is the ${plainLabel(highest)}, the lowest the ${plainLabel(lowest)}.`
}

const RANK_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  jack: 11,
  queen: 12,
  king: 13,
  ace: 14,
}
const RANK_LETTERS: Record<string, number> = { J: 11, Q: 12, K: 13, A: 14 }
const NAMED_CARD = /\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)\s+of\s+(?:hearts|diamonds|clubs|spades)\b/i
const SHORT_CARD = /(?:^|[\s(])(10|[2-9]|[JQKA])\s*[♥♦♣♠♡♢♧♤]/

/** A playing card's rank (2…14, aces high) when the text names one; otherwise undefined. */
export function cardRank(text: string): number | undefined {
  const named = NAMED_CARD.exec(text)
  if (named) return RANK_WORDS[named[1]!.toLowerCase()]
  const short = SHORT_CARD.exec(text)
  if (short) return RANK_LETTERS[short[1]!] ?? Number(short[1])
  return undefined
}

/** Whether a result is one `pick_card` returns: a pick or no pick. */
export function isPickCardResult(value: JSONValue): value is Record<string, JSONValue> {
  return isRecord(value) && (value.status === 'picked' || value.status === 'cancelled')
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
