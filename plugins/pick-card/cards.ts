import { z } from 'zod'

export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const
export const SUITS = ['hearts', 'diamonds', 'clubs', 'spades'] as const

export const cardSchema = z.object({ rank: z.enum(RANKS), suit: z.enum(SUITS) })
/** One playing card, e.g. `{ rank: 'Q', suit: 'hearts' }`. */
export type Card = z.infer<typeof cardSchema>
export type Rank = Card['rank']
export type Suit = Card['suit']

const RANK_NAMES: Record<Rank, string> = {
  '2': 'Two',
  '3': 'Three',
  '4': 'Four',
  '5': 'Five',
  '6': 'Six',
  '7': 'Seven',
  '8': 'Eight',
  '9': 'Nine',
  '10': 'Ten',
  J: 'Jack',
  Q: 'Queen',
  K: 'King',
  A: 'Ace',
}

export const SUIT_SYMBOLS: Record<Suit, string> = { hearts: '♥', diamonds: '♦', clubs: '♣', spades: '♠' }

/** The 52 cards of a standard deck, in rank order within each suit. */
export function createDeck(): Card[] {
  return SUITS.flatMap((suit) => RANKS.map((rank) => ({ rank, suit })))
}

/**
 * `count` distinct cards from a shuffled deck, using the platform's CSPRNG.
 *
 * @example
 * drawCards(5) // e.g. [{ rank: 'Q', suit: 'hearts' }, { rank: '7', suit: 'clubs' }, ...]
 */
export function drawCards(count: number, deck: readonly Card[] = createDeck()): Card[] {
  if (!Number.isInteger(count) || count < 0 || count > deck.length) {
    throw new RangeError(`Cannot draw ${count} cards from a deck of ${deck.length}.`)
  }
  // A partial Fisher-Yates shuffle: the first `count` places end up a uniform draw.
  const cards = [...deck]
  for (let index = 0; index < count; index++) {
    const swap = index + randomBelow(cards.length - index)
    ;[cards[index], cards[swap]] = [cards[swap]!, cards[index]!]
  }
  return cards.slice(0, count)
}

/** A uniformly random whole number in `[0, bound)`, without modulo bias. */
export function randomBelow(bound: number): number {
  if (!Number.isInteger(bound) || bound < 1 || bound > 2 ** 32) throw new RangeError(`No random number below ${bound}.`)
  const limit = Math.floor(2 ** 32 / bound) * bound
  const buffer = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(buffer)
    if (buffer[0]! < limit) return buffer[0]! % bound
  }
}

/** One of the items, chosen uniformly at random. */
export function pickRandom<T>(items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('Cannot pick from no items.')
  return items[randomBelow(items.length)]!
}

/** "Q♥" */
export function shortCardName(card: Card): string {
  return `${card.rank}${SUIT_SYMBOLS[card.suit]}`
}

/** "Queen of Hearts" */
export function cardName(card: Card): string {
  return `${RANK_NAMES[card.rank]} of ${card.suit[0]!.toUpperCase()}${card.suit.slice(1)}`
}

export function isRedSuit(suit: Suit): boolean {
  return suit === 'hearts' || suit === 'diamonds'
}

export function sameCard(a: Card, b: Card): boolean {
  return a.rank === b.rank && a.suit === b.suit
}

/** The cards as a numbered list for people and models: "1. Queen of Hearts (Q♥)", one per line. */
export function formatCardList(cards: readonly Card[]): string {
  return cards.map((card, index) => `${index + 1}. ${cardName(card)} (${shortCardName(card)})`).join('\n')
}
