'use client'

import type { KeyboardEvent } from 'react'
import type { ElicitProps } from '@/lib/plugins'
import { cardName, type Card } from '../cards'
import type { pickCardTool } from '../tool'
import { CardsIcon, PlayingCard } from './PlayingCard'
import { AnswerBar, promptOf, QuestionPanel, QuietButton } from '@/components/kit'

export type CardPickerProps = ElicitProps<typeof pickCardTool, 'pickCard'>

/** The accessible name of a card's button: "Card 3: Queen of Hearts". */
export function cardLabel(card: Card, number: number): string {
  return `Card ${number}: ${cardName(card)}`
}


/** Arrow keys, Home and End move between the cards; Tab still walks through them. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')]
  const current = buttons.findIndex((button) => button === document.activeElement)
  if (current === -1) return
  const next: Record<string, number> = {
    ArrowRight: (current + 1) % buttons.length,
    ArrowDown: (current + 1) % buttons.length,
    ArrowLeft: (current - 1 + buttons.length) % buttons.length,
    ArrowUp: (current - 1 + buttons.length) % buttons.length,
    Home: 0,
    End: buttons.length - 1,
  }
  if (!(event.key in next)) return
  event.preventDefault()
  buttons[next[event.key]!]?.focus()
}

/** Pick one of the drawn cards (one of them is the secret card), or decline. */
export function CardPicker({ message, context: { cards, analysis }, respond, disabled, answered }: CardPickerProps) {
  const chosen = answered?.action === 'accept' ? answered.content.cardNumber : undefined
  const declined = answered?.action === 'decline'
  const suggested = analysis ? cards[analysis.favourite - 1] : undefined
  const prompt = promptOf(message)

  return (
    <QuestionPanel
      label="Pick a card"
      tone="violet"
      icon={<CardsIcon data-testid="cards-icon" aria-hidden="true" className="h-5 w-5" />}
      title={`${cards.length} cards, one secret winner`}
      prompt={prompt}
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

      <ul onKeyDown={moveFocus} className="mt-3 flex flex-wrap justify-center gap-1.5 sm:justify-start sm:gap-2">
        {cards.map((card, index) => {
          const number = index + 1
          const isChosen = number === chosen
          const isSuggested = analysis?.favourite === number
          return (
            <li key={`${card.rank}${card.suit}`}>
              <button
                type="button"
                aria-label={cardLabel(card, number)}
                aria-pressed={isChosen}
                disabled={disabled}
                onClick={() => respond({ action: 'accept', content: { cardNumber: number } })}
                className={[
                  'group flex flex-col items-center gap-1 rounded-xl p-0.5 transition sm:p-1',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-900',
                  isChosen ? 'bg-violet-100 ring-2 ring-violet-500 dark:bg-violet-500/20 dark:ring-violet-400' : 'enabled:hover:-translate-y-0.5',
                  disabled && !isChosen ? 'opacity-50' : '',
                  disabled ? 'cursor-default' : 'cursor-pointer',
                ].join(' ')}
              >
                <PlayingCard
                  card={card}
                  className={isSuggested ? 'ring-2 ring-violet-400 ring-offset-1 dark:ring-offset-zinc-900' : 'group-enabled:group-hover:border-violet-400'}
                />
                <span aria-hidden="true" className="text-[11px] font-medium tabular-nums text-zinc-500 dark:text-zinc-400">
                  {isSuggested ? `#${number} ★` : `#${number}`}
                </span>
              </button>
            </li>
          )
        })}
      </ul>

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
        <QuietButton disabled={disabled} onClick={() => respond({ action: 'decline' })}>
          Decline
        </QuietButton>
      </AnswerBar>
    </QuestionPanel>
  )
}
