import { z } from 'zod'

/**
 * Tic-tac-toe rules, pure. Cells are numbered 1-9 everywhere a person or the model sees them
 * (left to right, top to bottom); only the board array is indexed 0-8.
 *
 *     1 | 2 | 3
 *     4 | 5 | 6
 *     7 | 8 | 9
 */

export const markSchema = z.enum(['X', 'O'])
export type Mark = z.infer<typeof markSchema>

/** Nine cells, each X, O or empty (null). */
export const boardSchema = z.array(markSchema.nullable()).length(9)
export type Board = z.infer<typeof boardSchema>

/** A cell number, 1-9. */
export const cellSchema = z.number().int().min(1).max(9)

const CELL_NAMES = ['Top left', 'Top middle', 'Top right', 'Middle left', 'Centre', 'Middle right', 'Bottom left', 'Bottom middle', 'Bottom right']

/** Where a cell (1-9) is on the board, in words: "Top left", "Centre". */
export function cellName(cell: number): string {
  const name = CELL_NAMES[cell - 1]
  if (!name) throw new RangeError(`Cell ${cell} is not a cell of the board (1-9).`)
  return name
}

/** The user plays X and moves first; the model plays O. */
export const USER_MARK = 'X' satisfies Mark
export const MODEL_MARK = 'O' satisfies Mark

export const gameMoveSchema = z.object({
  player: z.enum(['user', 'model']),
  mark: markSchema,
  cell: cellSchema,
})
export type GameMove = z.infer<typeof gameMoveSchema>

/** Every line of three, as cell numbers: rows, columns, then diagonals. */
export const LINES: ReadonlyArray<readonly [number, number, number]> = [
  [1, 2, 3],
  [4, 5, 6],
  [7, 8, 9],
  [1, 4, 7],
  [2, 5, 8],
  [3, 6, 9],
  [1, 5, 9],
  [3, 5, 7],
]

export function createBoard(): Board {
  return Array<Board[number]>(9).fill(null)
}

/** The mark in a cell (1-9), or null when it is empty. */
export function cellAt(board: Board, cell: number): Mark | null {
  return board[cell - 1] ?? null
}

/** The empty cells, in order. */
export function legalMoves(board: Board): number[] {
  return board.flatMap((mark, index) => (mark === null ? [index + 1] : []))
}

/** Whether `cell` is a cell number (1-9) that is still empty. */
export function isLegalMove(board: Board, cell: number): boolean {
  return Number.isInteger(cell) && cell >= 1 && cell <= 9 && board[cell - 1] === null
}

/** A new board with `mark` in `cell`; throws on an occupied or non-existent cell. */
export function placeMark(board: Board, cell: number, mark: Mark): Board {
  if (!isLegalMove(board, cell)) throw new RangeError(`Cell ${cell} is not an empty cell of the board.`)
  return board.map((current, index) => (index === cell - 1 ? mark : current))
}

/** The board after these moves, from an empty one. */
export function boardFromMoves(moves: readonly GameMove[]): Board {
  return moves.reduce((board, move) => placeMark(board, move.cell, move.mark), createBoard())
}

export interface Win {
  mark: Mark
  /** The three cell numbers of the line. */
  line: [number, number, number]
}

/** The first complete line of three, if any. */
export function findWinner(board: Board): Win | undefined {
  for (const line of LINES) {
    const mark = cellAt(board, line[0])
    if (mark && line.every((cell) => cellAt(board, cell) === mark)) return { mark, line: [...line] }
  }
  return undefined
}

/** A full board with no line of three. */
export function isDraw(board: Board): boolean {
  return legalMoves(board).length === 0 && !findWinner(board)
}

export type GameStatus = { state: 'playing' } | { state: 'won'; win: Win } | { state: 'draw' }

export function gameStatus(board: Board): GameStatus {
  const win = findWinner(board)
  if (win) return { state: 'won', win }
  return legalMoves(board).length === 0 ? { state: 'draw' } : { state: 'playing' }
}

// Centre, corners, then sides: a sensible move when the model's answer is unusable.
const FALLBACK_ORDER = [5, 1, 3, 7, 9, 2, 4, 6, 8]

/** A legal move chosen without thinking: the first free cell of centre, corners, sides. */
export function fallbackMove(board: Board): number {
  const cell = FALLBACK_ORDER.find((candidate) => isLegalMove(board, candidate))
  if (cell === undefined) throw new RangeError('The board is full: there is no move to make.')
  return cell
}

/**
 * The board as text: three rows of "X | 2 | O", empty cells showing their number, so a
 * person or a model can answer with a cell number.
 *
 * @example
 * formatBoard(placeMark(createBoard(), 1, 'X'))
 * // 'X | 2 | 3\n---------\n4 | 5 | 6\n---------\n7 | 8 | 9'
 */
export function formatBoard(board: Board): string {
  const rows = [0, 1, 2].map((row) =>
    [1, 2, 3].map((column) => cellAt(board, row * 3 + column) ?? String(row * 3 + column)).join(' | '),
  )
  return rows.join('\n---------\n')
}
