import type { SVGProps } from 'react'
import { isRedSuit, SUIT_SYMBOLS, type Card } from '../cards'

const SIZES = {
  sm: { face: 'h-[4.25rem] w-12 text-xs', pip: 'text-2xl', corner: 'left-1 top-0.5' },
  lg: { face: 'h-28 w-20 text-sm', pip: 'text-4xl', corner: 'left-1.5 top-1' },
} as const

/**
 * The face of a playing card: rank and suit in the corner, a big suit in the middle (no
 * upside-down corner: at this size an inverted ♠ reads as a ♥).
 * Decorative: whoever shows it gives it its accessible name.
 */
export function PlayingCard({ card, size = 'sm', className = '' }: { card: Card; size?: keyof typeof SIZES; className?: string }) {
  const symbol = SUIT_SYMBOLS[card.suit]
  const colour = isRedSuit(card.suit) ? 'text-rose-600 dark:text-rose-400' : 'text-zinc-900 dark:text-zinc-100'
  const { face, pip, corner } = SIZES[size]
  return (
    <span
      aria-hidden="true"
      className={`relative grid shrink-0 select-none place-items-center rounded-lg border border-zinc-300 bg-white font-semibold shadow-sm dark:border-zinc-600 dark:bg-zinc-800 ${face} ${colour} ${className}`}
    >
      <span className={`absolute flex flex-col items-center leading-none ${corner}`}>
        <span>{card.rank}</span>
        <span>{symbol}</span>
      </span>
      <span className={`${pip} leading-none`}>{symbol}</span>
    </span>
  )
}

export function CardsIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" {...props}>
      <rect x="8" y="3" width="12" height="16" rx="2" />
      <path d="M5.5 6.5 4 7a2 2 0 0 0-1.2 2.5l3.3 9.9a2 2 0 0 0 2.5 1.3l4.3-1.4" />
      <path d="M14 8.5c-1-1.2-3 .2-1.8 1.8L14 12.5l1.8-2.2c1.2-1.6-.8-3-1.8-1.8Z" fill="currentColor" stroke="none" />
    </svg>
  )
}
