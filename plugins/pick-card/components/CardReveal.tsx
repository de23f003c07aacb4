'use client'

import type { ResultViewProps } from '@/lib/plugins'
import type { Card } from '../cards'
import type { PickCardResult } from '../tool'
import { PlayingCard } from './PlayingCard'

/** The pick_card result: the card picked beside the secret card, and whether they match. */
export function CardReveal({ result }: ResultViewProps<PickCardResult>) {
  if (result?.status === 'cancelled') {
    return (
      <section aria-label="No card picked" className="rounded-xl border border-zinc-200 bg-zinc-50 p-3 text-sm dark:border-zinc-700 dark:bg-zinc-900/60">
        <p className="font-semibold text-zinc-800 dark:text-zinc-100">No card picked</p>
        <p className="mt-0.5 text-zinc-600 dark:text-zinc-400">The secret card stays a secret.</p>
      </section>
    )
  }
  if (result?.status !== 'picked') throw new Error('Unexpected pick_card result')
  const { isWinner, picked, pickedName, pickedNumber, secret, secretName } = result

  return (
    <section
      aria-label="Card result"
      className={`overflow-hidden rounded-xl border bg-white dark:bg-zinc-900 ${
        isWinner ? 'border-emerald-200 dark:border-emerald-500/30' : 'border-zinc-200 dark:border-zinc-700'
      }`}
    >
      <header
        className={`flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-3 py-2.5 sm:px-4 ${
          isWinner ? 'bg-emerald-50 dark:bg-emerald-500/10' : 'bg-zinc-50 dark:bg-zinc-800/60'
        }`}
      >
        <h3 className={`text-sm font-semibold ${isWinner ? 'text-emerald-900 dark:text-emerald-200' : 'text-zinc-800 dark:text-zinc-100'}`}>
          {isWinner ? 'You win!' : 'Not this time'}
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{isWinner ? 'You found the secret card.' : 'The secret card was another one.'}</p>
      </header>
      <div className="flex flex-wrap items-start justify-center gap-4 px-3 py-4 sm:justify-start sm:gap-8 sm:px-4">
        <Revealed label="Your card" testId="picked-card" card={picked} name={pickedName} detail={`Card ${pickedNumber}`} highlight={isWinner} />
        <Revealed label="Secret card" testId="secret-card" card={secret} name={secretName} highlight={isWinner} />
      </div>
    </section>
  )
}

interface RevealedProps {
  label: string
  testId: string
  card: Card
  name: string
  detail?: string
  highlight: boolean
}

function Revealed({ label, testId, card, name, detail, highlight }: RevealedProps) {
  return (
    <figure className="flex w-36 flex-col items-center gap-1.5 text-center">
      <figcaption className="text-[11px] font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{label}</figcaption>
      <PlayingCard card={card} size="lg" className={highlight ? 'ring-2 ring-emerald-500 ring-offset-2 dark:ring-offset-zinc-900' : ''} />
      <p className="text-sm font-semibold text-zinc-900 dark:text-zinc-100" data-testid={testId}>
        {name}
      </p>
      {detail ? <p className="-mt-1 text-xs text-zinc-500 dark:text-zinc-400">{detail}</p> : null}
    </figure>
  )
}
