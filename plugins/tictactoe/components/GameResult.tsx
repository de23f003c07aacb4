'use client'

import type { ResultViewProps } from '@/lib/plugins'
import type { TicTacToeResult } from '../tool'
import { cellLabel, MARK_COLOUR, MarkGlyph } from './marks'

const HEADLINE: Record<TicTacToeResult['outcome'], string> = {
  win: 'You won!',
  loss: 'You lost',
  draw: 'Draw',
  resigned: 'You resigned',
}

const TONE: Record<TicTacToeResult['outcome'], { frame: string; header: string; title: string; line: string }> = {
  win: {
    frame: 'border-emerald-200 dark:border-emerald-500/30',
    header: 'bg-emerald-50 dark:bg-emerald-500/10',
    title: 'text-emerald-900 dark:text-emerald-200',
    line: 'bg-emerald-100 ring-2 ring-inset ring-emerald-500 dark:bg-emerald-500/20 dark:ring-emerald-400',
  },
  loss: {
    frame: 'border-rose-200 dark:border-rose-500/30',
    header: 'bg-rose-50 dark:bg-rose-500/10',
    title: 'text-rose-900 dark:text-rose-200',
    line: 'bg-rose-100 ring-2 ring-inset ring-rose-500 dark:bg-rose-500/20 dark:ring-rose-400',
  },
  draw: {
    frame: 'border-zinc-200 dark:border-zinc-700',
    header: 'bg-zinc-50 dark:bg-zinc-800/60',
    title: 'text-zinc-900 dark:text-zinc-100',
    line: '',
  },
  resigned: {
    frame: 'border-zinc-200 dark:border-zinc-700',
    header: 'bg-zinc-50 dark:bg-zinc-800/60',
    title: 'text-zinc-900 dark:text-zinc-100',
    line: '',
  },
}

/** How the game ended: the result in words, the final board with the winning line, and the moves. */
export function GameResult({ result }: ResultViewProps<TicTacToeResult>) {
  const { outcome, board, winningLine, moves } = result
  const tone = TONE[outcome]
  const detail =
    winningLine !== null
      ? `Three in a row on cells ${winningLine.join(', ')}`
      : outcome === 'draw'
        ? 'The board is full and nobody has three in a row'
        : `After ${moves.length} ${moves.length === 1 ? 'move' : 'moves'}`

  return (
    <section aria-label="Game result" className={`overflow-hidden rounded-xl border bg-white dark:bg-zinc-900 ${tone.frame}`}>
      <header className={`px-3 py-2.5 sm:px-4 ${tone.header}`}>
        <h3 className={`text-base font-semibold ${tone.title}`} data-testid="game-outcome">
          {HEADLINE[outcome]}
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{detail}</p>
      </header>

      <div className="flex flex-col items-center gap-3 px-3 py-3 sm:flex-row sm:items-start sm:gap-5 sm:px-4">
        <div role="grid" aria-label="Final board" aria-readonly className="flex flex-col gap-1 rounded-lg bg-zinc-200 p-1 dark:bg-zinc-800">
          {[0, 1, 2].map((row) => (
            <div role="row" key={row} className="flex gap-1">
              {[1, 2, 3].map((column) => {
                const cell = row * 3 + column
                const mark = board[cell - 1]
                const inLine = winningLine?.includes(cell) ?? false
                return (
                  <span
                    role="gridcell"
                    key={cell}
                    aria-label={`${cellLabel(board, cell)}${inLine ? ', winning line' : ''}`}
                    data-winning={inLine || undefined}
                    className={`grid h-14 w-14 place-items-center rounded-md ${inLine ? tone.line : 'bg-white dark:bg-zinc-900'}`}
                  >
                    {mark ? <MarkGlyph mark={mark} className={`h-9 w-9 ${MARK_COLOUR[mark]}`} /> : null}
                  </span>
                )
              })}
            </div>
          ))}
        </div>

        {moves.length > 0 ? (
          <div className="w-full min-w-0 sm:w-auto">
            <p className="text-[11px] font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Moves</p>
            <ol aria-label="Moves" className="mt-1 flex flex-wrap gap-1.5">
              {moves.map((move, index) => (
                <li
                  key={index}
                  className="flex items-center gap-1 rounded-md border border-zinc-200 px-1.5 py-0.5 text-xs tabular-nums text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
                >
                  <MarkGlyph mark={move.mark} className={`h-3 w-3 ${MARK_COLOUR[move.mark]}`} />
                  <span>
                    <span className="sr-only">{move.player === 'user' ? 'You' : 'Model'} took cell </span>
                    {move.cell}
                  </span>
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </div>
    </section>
  )
}
