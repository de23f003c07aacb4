import type { SVGProps } from 'react'
import { cellAt, type Board, type Mark } from '../game'

/** The accessible name of a cell: "Cell 5, empty", "Cell 1, X". */
export function cellLabel(board: Board, cell: number): string {
  return `Cell ${cell}, ${cellAt(board, cell) ?? 'empty'}`
}

/** The colour of each player's mark: the user's X sky, the model's O rose. */
export const MARK_COLOUR: Record<Mark, string> = {
  X: 'text-sky-600 dark:text-sky-400',
  O: 'text-rose-500 dark:text-rose-400',
}

/** The first paragraph of a tool message: what it says, without the board it spells out for text-only clients. */
export function leadOf(message: string): string {
  return message.split(/\n\s*\n/)[0]?.trim() ?? ''
}

/** An X or an O, drawn to fill its box. */
export function MarkGlyph({ mark, ...props }: { mark: Mark } & SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round" aria-hidden="true" {...props}>
      {mark === 'X' ? <path d="M6 6l12 12M18 6L6 18" /> : <circle cx="12" cy="12" r="6.5" />}
    </svg>
  )
}

const HIGHLIGHT: Record<Mark, string> = {
  X: 'bg-sky-100 dark:bg-sky-500/25',
  O: 'bg-rose-100 dark:bg-rose-500/20',
}

/** A small, silent picture of a board, for moves already made; `highlight` tints those cells in their mark's colour. */
export function MiniBoard({ board, highlight = [] }: { board: Board; highlight?: readonly number[] }) {
  return (
    <span aria-hidden="true" className="grid shrink-0 grid-cols-3 gap-px overflow-hidden rounded-md bg-zinc-300 dark:bg-zinc-700">
      {board.map((mark, index) => (
        <span
          key={index}
          className={`grid h-4 w-4 place-items-center ${mark && highlight.includes(index + 1) ? HIGHLIGHT[mark] : 'bg-white dark:bg-zinc-900'}`}
        >
          {mark ? <MarkGlyph mark={mark} className={`h-3 w-3 ${MARK_COLOUR[mark]}`} /> : null}
        </span>
      ))}
    </span>
  )
}
