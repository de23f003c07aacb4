import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  cardName,
  cardSchema,
  createDeck,
  drawCards,
  formatCardList,
  isRedSuit,
  pickRandom,
  randomBelow,
  sameCard,
  shortCardName,
  type Card,
} from './cards'

const key = (card: Card) => `${card.rank}/${card.suit}`

afterEach(() => {
  vi.restoreAllMocks()
})

describe('createDeck', () => {
  it('has 52 distinct, valid cards', () => {
    const deck = createDeck()
    expect(deck).toHaveLength(52)
    expect(new Set(deck.map(key)).size).toBe(52)
    for (const card of deck) expect(cardSchema.parse(card)).toEqual(card)
  })
})

describe('drawCards', () => {
  it('draws the number asked for, all distinct and from the deck', () => {
    for (const count of [0, 2, 5, 10, 52]) {
      const cards = drawCards(count)
      expect(cards).toHaveLength(count)
      expect(new Set(cards.map(key)).size).toBe(count)
      for (const card of cards) expect(cardSchema.safeParse(card).success).toBe(true)
    }
  })

  it('refuses counts the deck cannot give', () => {
    expect(() => drawCards(53)).toThrow(RangeError)
    expect(() => drawCards(-1)).toThrow(RangeError)
    expect(() => drawCards(2.5)).toThrow(RangeError)
  })

  it('uses crypto randomness, so draws differ', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues')
    const draws = new Set(Array.from({ length: 20 }, () => drawCards(5).map(key).join(',')))
    expect(spy).toHaveBeenCalled()
    expect(draws.size).toBeGreaterThan(15)
  })

  it('reaches every card over many draws', () => {
    const seen = new Set<string>()
    for (let round = 0; round < 400; round++) for (const card of drawCards(5)) seen.add(key(card))
    expect(seen.size).toBe(52)
  })

  it('draws from a given deck', () => {
    const deck: Card[] = [
      { rank: 'A', suit: 'spades' },
      { rank: 'K', suit: 'hearts' },
    ]
    expect(drawCards(2, deck).map(key).sort()).toEqual(['A/spades', 'K/hearts'])
  })
})

describe('randomBelow and pickRandom', () => {
  it('stays in range and rejects a bad bound', () => {
    for (let round = 0; round < 200; round++) {
      const value = randomBelow(7)
      expect(Number.isInteger(value) && value >= 0 && value < 7).toBe(true)
    }
    expect(randomBelow(1)).toBe(0)
    expect(() => randomBelow(0)).toThrow(RangeError)
    expect(() => pickRandom([])).toThrow(RangeError)
  })

  it('rejects values that would bias the result and draws again', () => {
    const values = [0xffff_ffff, 4]
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint32Array) array[0] = values.shift() ?? 0
      return array
    })
    // 2^32 - 1 is past the last whole multiple of 3, so it is thrown away.
    expect(randomBelow(3)).toBe(1)
  })
})

describe('formatting', () => {
  it('names cards short and long', () => {
    expect(shortCardName({ rank: 'Q', suit: 'hearts' })).toBe('Q♥')
    expect(shortCardName({ rank: '10', suit: 'clubs' })).toBe('10♣')
    expect(cardName({ rank: 'Q', suit: 'hearts' })).toBe('Queen of Hearts')
    expect(cardName({ rank: 'A', suit: 'spades' })).toBe('Ace of Spades')
    expect(cardName({ rank: '7', suit: 'diamonds' })).toBe('Seven of Diamonds')
  })

  it('lists cards with numbers from 1', () => {
    expect(
      formatCardList([
        { rank: 'Q', suit: 'hearts' },
        { rank: '2', suit: 'clubs' },
      ]),
    ).toBe('1. Queen of Hearts (Q♥)\n2. Two of Clubs (2♣)')
  })

  it('knows red suits and equal cards', () => {
    expect(isRedSuit('hearts')).toBe(true)
    expect(isRedSuit('diamonds')).toBe(true)
    expect(isRedSuit('spades')).toBe(false)
    expect(sameCard({ rank: 'Q', suit: 'hearts' }, { rank: 'Q', suit: 'hearts' })).toBe(true)
    expect(sameCard({ rank: 'Q', suit: 'hearts' }, { rank: 'Q', suit: 'spades' })).toBe(false)
  })
})
