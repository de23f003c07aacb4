import { isValidElement, type ReactElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { Card } from '../cards'
import type { PickCardResult } from '../tool'
import { CardPicker, cardButtonLabel, cardLabel, type CardPickerProps } from './CardPicker'
import { CardReveal } from './CardReveal'

const cards: Card[] = [
  { rank: '7', suit: 'clubs' },
  { rank: 'Q', suit: 'hearts' },
  { rank: '2', suit: 'spades' },
  { rank: '10', suit: 'diamonds' },
  { rank: 'A', suit: 'spades' },
]
const message = 'Pick a card! One of them is the secret card.\n\n1. Seven of Clubs (7♣)\n2. Queen of Hearts (Q♥)'
const analysis = { summary: '5 cards: two red, three black.', favourite: 5, reason: 'The Ace ranks highest.' }
const noop = () => {}
/** What every question gets besides its message, context and answer. */
const question = { choices: {}, respond: noop }

/** Every element in a rendered tree whose props match, for calling their handlers. */
function findElements(node: ReactNode, match: (props: Record<string, unknown>) => boolean): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap((child) => findElements(child, match))
  if (!isValidElement<Record<string, unknown>>(node)) return []
  const own = match(node.props) ? [node] : []
  return [...own, ...findElements(node.props.children as ReactNode, match)]
}

describe('CardPicker', () => {
  it('shows each card as a button named by what it shows, then in words; the prompt; and a Decline button', () => {
    expect(cardLabel(cards[1]!, 2)).toBe('Card 2: Queen of Hearts')
    expect(cardButtonLabel(cards[1]!, 2)).toBe('Q♥ #2, Queen of Hearts')
    const html = renderToStaticMarkup(<CardPicker {...question} message={message} context={{ cards }} disabled={false} />)
    expect(html).toContain('aria-label="Pick a card"')
    for (const [index, card] of cards.entries()) expect(html).toContain(`aria-label="${cardButtonLabel(card, index + 1)}"`)
    expect(html.match(/aria-pressed="false"/g)).toHaveLength(cards.length)
    // What the button shows: the card's corner, then its number.
    expect(html).toMatch(/<span>Q<\/span><span>♥<\/span>.*?#2</)
    expect(html).toContain('Pick a card! One of them is the secret card.')
    // The numbered list is for text-only clients; the cards show it here.
    expect(html).not.toContain('1. Seven of Clubs')
    expect(html).toContain('>Decline</button>')
    expect(html).not.toContain('disabled=""')
    expect(html).not.toContain('Card analysis')
  })

  it('shows the analysis and marks the suggested card, in its name too', () => {
    const html = renderToStaticMarkup(<CardPicker {...question} message={message} context={{ cards, analysis }} disabled={false} />)
    expect(html).toContain('aria-label="Card analysis"')
    expect(html).toContain('5 cards: two red, three black.')
    expect(html).toContain('Suggested: Card 5: Ace of Spades</span>')
    expect(html).toContain('The Ace ranks highest.')
    expect(html).toContain('#5 ★')
    expect(html).toContain('aria-label="A♠ #5, Ace of Spades, suggested"')
  })

  it('answers with the card number, or declines', () => {
    const respond = vi.fn<CardPickerProps['respond']>()
    const tree = CardPicker({ ...question, respond, message, context: { cards }, disabled: false })
    const list = findElements(tree, (props) => typeof props.onChoose === 'function')[0]!
    ;(list.props.onChoose as (choice: { card: Card; number: number }) => void)({ card: cards[2]!, number: 3 })
    expect(respond).toHaveBeenLastCalledWith({ action: 'accept', content: { cardNumber: 3 } })
    const decline = findElements(tree, (props) => props.children === 'Decline')[0]!
    ;(decline.props.onClick as () => void)()
    expect(respond).toHaveBeenLastCalledWith({ action: 'decline' })
  })

  it('once answered, shows the hand with the picked card marked, and nothing to press', () => {
    const html = renderToStaticMarkup(
      <CardPicker {...question} message={message} context={{ cards }} disabled answered={{ action: 'accept', content: { cardNumber: 2 } }} />,
    )
    expect(html.match(/aria-current="true"/g)).toHaveLength(1)
    expect(html).not.toContain('<button')
    expect(html).toContain('Picked <strong')
  })

  it('says Declined after declining', () => {
    const html = renderToStaticMarkup(<CardPicker {...question} message={message} context={{ cards }} disabled answered={{ action: 'decline' }} />)
    expect(html).toContain('Declined')
    expect(html).not.toContain('aria-current')
    expect(html).not.toContain('<button')
  })
})

describe('CardReveal', () => {
  const picked = (isWinner: boolean): PickCardResult => ({
    status: 'picked',
    isWinner,
    pickedNumber: 2,
    picked: cards[1]!,
    pickedName: 'Queen of Hearts',
    secret: isWinner ? cards[1]! : cards[4]!,
    secretName: isWinner ? 'Queen of Hearts' : 'Ace of Spades',
    cards,
  })

  it('shows a win: both cards and "You win!"', () => {
    const html = renderToStaticMarkup(<CardReveal result={picked(true)} />)
    expect(html).toContain('aria-label="Card result"')
    expect(html).toContain('You win!')
    expect(html).toContain('Your card')
    expect(html).toContain('Secret card')
    expect(html.match(/Queen of Hearts/g)).toHaveLength(2)
    expect(html).not.toContain('Not this time')
  })

  it('shows a loss: the picked card, the secret card and "Not this time"', () => {
    const html = renderToStaticMarkup(<CardReveal result={picked(false)} />)
    expect(html).toContain('Not this time')
    expect(html).toMatch(/data-testid="picked-card">Queen of Hearts</)
    expect(html).toMatch(/data-testid="secret-card">Ace of Spades</)
    expect(html).toContain('Card 2')
    expect(html).not.toContain('You win!')
  })

  it('shows "No card picked" when the user declined', () => {
    const html = renderToStaticMarkup(<CardReveal result={{ status: 'cancelled', message: 'No card was picked.' }} />)
    expect(html).toContain('aria-label="No card picked"')
    expect(html).toContain('No card picked')
    expect(html).not.toContain('Secret card')
  })
})
