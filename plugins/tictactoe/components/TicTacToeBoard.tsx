'use client'

import { useRef, useState, type KeyboardEvent } from 'react'
import type { ElicitProps } from '@/lib/plugins'
import { isLegalMove, placeMark, USER_MARK, type Board, type GameMove } from '../game'
import type { ticTacToeTool } from '../tool'
import { cellLabel, leadOf, MARK_COLOUR, MarkGlyph, MiniBoard } from './marks'
import { AnswerBar, QuestionPanel, QuietButton } from '@/components/kit'

export type TicTacToeBoardProps = ElicitProps<typeof ticTacToeTool, 'pickMove'>

const CELLS = [1, 2, 3, 4, 5, 6, 7, 8, 9]
const STEPS: Record<string, [number, number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }

/**
 * The user's turn: a 3x3 board of buttons (arrow keys move between empty cells), the
 * model's last move marked, and Resign. Once answered it folds into one line with a small
 * picture, so a finished game reads as a list of moves.
 */
export function TicTacToeBoard({ message, context: { board, moveHistory }, respond, disabled, answered }: TicTacToeBoardProps) {
  const lastMove = moveHistory.at(-1)
  const modelCell = lastMove?.player === 'model' ? lastMove.cell : undefined
  if (answered?.action === 'accept') return <MoveMade board={board} cell={answered.content.cell} modelCell={modelCell} />
  if (answered) return <Resigned board={board} modelCell={modelCell} />
  return <ActiveBoard message={message} board={board} moveHistory={moveHistory} respond={respond} disabled={disabled} />
}

interface ActiveBoardProps extends Pick<TicTacToeBoardProps, 'message' | 'respond' | 'disabled'> {
  board: Board
  moveHistory: GameMove[]
}

function ActiveBoard({ message, board, moveHistory, respond, disabled }: ActiveBoardProps) {
  const lastModelMove = moveHistory.findLast((move) => move.player === 'model')?.cell
  const lead = leadOf(message)
  const retry = /already taken|not an empty|pick an empty/i.test(lead)
  const free = CELLS.filter((cell) => isLegalMove(board, cell))
  const [focused, setFocused] = useState<number>()
  const tabStop = focused !== undefined && free.includes(focused) ? focused : free.includes(5) ? 5 : free[0]
  const buttons = useRef(new Map<number, HTMLButtonElement>())

  function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
    const from = focused ?? tabStop
    if (from === undefined || !(Object.hasOwn(STEPS, event.key) || event.key === 'Home' || event.key === 'End')) return
    event.preventDefault()
    const target = cellFromKey({ from, key: event.key, free })
    if (target === undefined) return
    setFocused(target)
    buttons.current.get(target)?.focus()
  }

  return (
    <QuestionPanel
      label={`Tic-tac-toe, move ${moveHistory.length + 1}`}
      icon={<MarkGlyph mark="X" className="h-5 w-5" />}
      title={disabled ? 'Game stopped' : 'Your move'}
      prompt={
        <>
          You are <span className="font-semibold text-sky-700 dark:text-sky-300">X</span>, the model is{' '}
          <span className="font-semibold text-rose-600 dark:text-rose-300">O</span>
        </>
      }
    >

      {lead ? (
        <p
          role={retry ? 'alert' : undefined}
          className={`mt-3 rounded-lg px-3 py-2 text-sm ${
            retry ? 'bg-amber-50 text-amber-900 dark:bg-amber-500/10 dark:text-amber-200' : 'bg-zinc-50 text-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-300'
          }`}
        >
          {lead}
        </p>
      ) : null}

      <div className="mt-3 flex justify-center">
        <div
          role="grid"
          aria-label="Tic-tac-toe board"
          aria-readonly={disabled || undefined}
          onKeyDown={moveFocus}
          className="flex flex-col gap-1.5 rounded-xl bg-zinc-200 p-1.5 dark:bg-zinc-800"
        >
          {[0, 1, 2].map((row) => (
            <div role="row" key={row} className="flex gap-1.5">
              {[1, 2, 3].map((column) => {
                const cell = row * 3 + column
                const mark = board[cell - 1]
                const lastMove = cell === lastModelMove
                // The model's last move says so in its name too: its badge is part of what the cell shows.
                const name = `${cellLabel(board, cell)}${lastMove ? ', last move' : ''}`
                const content = (
                  <>
                    {mark ? (
                      <MarkGlyph mark={mark} className={`h-12 w-12 sm:h-14 sm:w-14 ${MARK_COLOUR[mark]}`} />
                    ) : (
                      <>
                        <span aria-hidden="true" className="text-sm font-medium tabular-nums text-zinc-500 group-hover:hidden dark:text-zinc-400">
                          {cell}
                        </span>
                        {disabled ? null : (
                          <MarkGlyph mark={USER_MARK} className="hidden h-12 w-12 text-sky-300 group-hover:block dark:text-sky-500/50 sm:h-14 sm:w-14" />
                        )}
                      </>
                    )}
                    {lastMove ? (
                      <span className="absolute right-1 top-1 rounded bg-rose-100 px-1 text-[10px] font-semibold uppercase text-rose-800 dark:bg-rose-500/20 dark:text-rose-200">
                        last
                      </span>
                    ) : null}
                  </>
                )
                const look = [
                  'group relative grid h-20 w-20 place-items-center rounded-lg sm:h-24 sm:w-24',
                  mark || disabled ? 'bg-white dark:bg-zinc-900' : 'cursor-pointer bg-white hover:bg-sky-50 dark:bg-zinc-900 dark:hover:bg-sky-500/10',
                  lastMove ? 'ring-2 ring-inset ring-rose-300 dark:ring-rose-500/50' : '',
                ].join(' ')
                // Stopped: the board as it was, to look at — nothing left to press.
                if (disabled) {
                  return (
                    <span role="gridcell" key={cell} aria-label={name} data-last-move={lastMove || undefined} className={look}>
                      {content}
                    </span>
                  )
                }
                return (
                  <span role="gridcell" key={cell}>
                    <button
                      type="button"
                      ref={(element) => {
                        if (element) buttons.current.set(cell, element)
                        else buttons.current.delete(cell)
                      }}
                      aria-label={name}
                      disabled={mark !== null}
                      tabIndex={cell === tabStop ? 0 : -1}
                      data-last-move={lastMove || undefined}
                      onFocus={() => setFocused(cell)}
                      onClick={() => respond({ action: 'accept', content: { cell } })}
                      className={`${look} transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 focus-visible:ring-offset-zinc-200 dark:focus-visible:ring-offset-zinc-800 ${mark ? 'cursor-default' : ''}`}
                    >
                      {content}
                    </button>
                  </span>
                )
              })}
            </div>
          ))}
        </div>
      </div>

      <AnswerBar status={`Move ${moveHistory.length + 1} · ${free.length} ${free.length === 1 ? 'cell' : 'cells'} left`}>
        {disabled ? null : <QuietButton onClick={() => respond({ action: 'decline' })}>Resign</QuietButton>}
      </AnswerBar>
    </QuestionPanel>
  )
}

/**
 * Where a key moves the focus from cell `from`: arrows go to the nearest empty cell that
 * way (skipping taken ones, not wrapping), Home and End to the first and last empty cell.
 */
export function cellFromKey({ from, key, free }: { from: number; key: string; free: readonly number[] }): number | undefined {
  if (key === 'Home') return free[0]
  if (key === 'End') return free.at(-1)
  if (!Object.hasOwn(STEPS, key)) return undefined
  const step = STEPS[key]
  let row = Math.floor((from - 1) / 3) + step[0]
  let column = ((from - 1) % 3) + step[1]
  while (row >= 0 && row < 3 && column >= 0 && column < 3) {
    const candidate = row * 3 + column + 1
    if (free.includes(candidate)) return candidate
    row += step[0]
    column += step[1]
  }
  return undefined
}

const LINE = 'flex items-center gap-3 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700 dark:bg-zinc-800/50 dark:text-zinc-300'
const USER_CELL = 'font-semibold text-sky-700 dark:text-sky-300'
const MODEL_CELL = 'font-semibold text-rose-600 dark:text-rose-300'

/** One line for a round already played: the model's reply to the last move, then the user's move. */
function MoveMade({ board, cell, modelCell }: { board: Board; cell: number; modelCell: number | undefined }) {
  // Only a client that bypassed the board can pick a taken cell; the tool asks again.
  if (!isLegalMove(board, cell)) {
    return (
      <p className={LINE}>
        <MiniBoard board={board} />
        <span>
          Cell <strong className="font-semibold">{cell}</strong> was taken — asked again
        </span>
      </p>
    )
  }
  return (
    <p className={LINE}>
      <MiniBoard board={placeMark(board, cell, USER_MARK)} highlight={modelCell ? [modelCell, cell] : [cell]} />
      <span>
        {modelCell ? (
          <>
            The model took cell <strong className={MODEL_CELL}>{modelCell}</strong>, then you{' '}
          </>
        ) : (
          'You '
        )}
        took cell <strong className={USER_CELL}>{cell}</strong>
      </span>
    </p>
  )
}

function Resigned({ board, modelCell }: { board: Board; modelCell: number | undefined }) {
  return (
    <p className={LINE}>
      <MiniBoard board={board} highlight={modelCell ? [modelCell] : []} />
      <span>
        {modelCell ? (
          <>
            The model took cell <strong className={MODEL_CELL}>{modelCell}</strong>, then you resigned
          </>
        ) : (
          'You resigned'
        )}
      </span>
    </p>
  )
}
