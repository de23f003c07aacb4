'use client'

import type { ElicitProps } from '@/lib/plugins'
import { cardName, shortCardName, type Card } from '../cards'
import type { pickCardTool } from '../tool'
import { CardsIcon, PlayingCard } from './PlayingCard'
import { AnswerBar, ChoiceList, promptOf, QuestionPanel, QuietButton } from '@/components/kit'

export type CardPickerProps = ElicitProps<typeof pickCardTool, 'pickCard'>

/** A card in words, by its number in the hand: "Card 3: Queen of Hearts". */
export function cardLabel(card: Card, number: number): string {
  return `Card ${number}: ${cardName(card)}`
}

/**
 * The accessible name of a card's button: what it shows first — the card's corner and its
 * number, "K♠ #1" — then the card in words, "K♠ #1, King of Spades" (WCAG 2.5.3: a person who
 * says what they see names the button).
 */
export function cardButtonLabel(card: Card, number: number, suggested = false): string {
  return `${shortCardName(card)} #${number}, ${cardName(card)}${suggested ? ', suggested' : ''}`
}

/** Pick one of the drawn cards (one of them is the secret card), or decline. */
export function CardPicker({ message, context: { cards, analysis }, respond, disabled, answered }: CardPickerProps) {
  const chosen = answered?.action === 'accept' ? answered.content.cardNumber : undefined
  const declined = answered?.action === 'decline'
  const suggested = analysis ? cards[analysis.favourite - 1] : undefined

  return (
    <QuestionPanel
      label="Pick a card"
      tone="violet"
      icon={<CardsIcon data-testid="cards-icon" aria-hidden="true" className="h-5 w-5" />}
      title={`${cards.length} cards, one secret winner`}
      prompt={promptOf(message)}
    >

      {analysis ? (
        <aside
          aria-label="Card analysis"
          className="mt-3 rounded-lg border border-violet-200 bg-violet-50 px-3 py-2 text-sm text-violet-950 dark:border-violet-500/30 dark:bg-violet-500/10 dark:text-violet-100"
        >
          <p className="text-[11px] font-semibold uppercase tracking-wide text-violet-700 dark:text-violet-300">Analysis</p>
          <p className="mt-0.5">{analysis.summary}</p>
          {suggested ? (
            <p className="mt-1.5">
              <span className="font-semibold">Suggested: {cardLabel(suggested, analysis.favourite)}</span>
              <span className="block text-violet-900/80 dark:text-violet-100/80">{analysis.reason}</span>
            </p>
          ) : null}
        </aside>
      ) : null}

      <ChoiceList
        layout="grid"
        minItemWidth="3.5rem"
        choices={cards.map((card, index) => ({ card, number: index + 1 }))}
        keyOf={({ number }) => String(number)}
        labelOf={({ card, number }) => cardButtonLabel(card, number, analysis?.favourite === number)}
        chosen={chosen === undefined ? undefined : String(chosen)}
        disabled={disabled}
        onChoose={({ number }) => respond({ action: 'accept', content: { cardNumber: number } })}
        render={({ card, number }) => {
          const isSuggested = analysis?.favourite === number
          return (
            <span className="flex flex-col items-center gap-1">
              <PlayingCard card={card} className={isSuggested ? 'ring-2 ring-violet-500 ring-offset-1 dark:ring-violet-400 dark:ring-offset-zinc-900' : ''} />
              <span className="text-[11px] font-medium tabular-nums text-zinc-600 dark:text-zinc-400">{isSuggested ? `#${number} ★` : `#${number}`}</span>
            </span>
          )
        }}
      />

      <AnswerBar
        status={
          declined ? (
            <span className="font-medium">Declined</span>
          ) : chosen !== undefined && cards[chosen - 1] ? (
            <>
              Picked <strong className="font-semibold text-zinc-900 dark:text-zinc-100">{cardLabel(cards[chosen - 1]!, chosen)}</strong>
            </>
          ) : null
        }
      >
        {disabled ? null : <QuietButton onClick={() => respond({ action: 'decline' })}>Decline</QuietButton>}
      </AnswerBar>
    </QuestionPanel>
  )
}
