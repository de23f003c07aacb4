import { describe, expect, it } from 'vitest'
import {
  boardFromMoves,
  boardSchema,
  createBoard,
  fallbackMove,
  findWinner,
  formatBoard,
  gameStatus,
  isDraw,
  isLegalMove,
  legalMoves,
  placeMark,
  type Board,
  type Mark,
} from './game'

/** A board from a picture such as "XO.|.X.|..X" (rows left to right, top to bottom). */
function board(picture: string): Board {
  const cells = picture.replaceAll('|', '').split('')
  if (cells.length !== 9) throw new Error(`bad picture ${picture}`)
  return cells.map((cell): Mark | null => (cell === 'X' || cell === 'O' ? cell : null))
}

describe('the board', () => {
  it('starts empty with every cell a legal move', () => {
    expect(createBoard()).toEqual(Array(9).fill(null))
    expect(legalMoves(createBoard())).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(boardSchema.safeParse(createBoard()).success).toBe(true)
  })

  it('places marks by cell number without changing the old board', () => {
    const empty = createBoard()
    const next = placeMark(empty, 1, 'X')
    expect(next[0]).toBe('X')
    expect(empty[0]).toBeNull()
    expect(legalMoves(next)).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('refuses occupied and non-existent cells', () => {
    const next = placeMark(createBoard(), 5, 'X')
    expect(isLegalMove(next, 5)).toBe(false)
    expect(isLegalMove(next, 0)).toBe(false)
    expect(isLegalMove(next, 10)).toBe(false)
    expect(isLegalMove(next, 2.5)).toBe(false)
    expect(() => placeMark(next, 5, 'O')).toThrow(/Cell 5/)
    expect(() => placeMark(next, 0, 'O')).toThrow(RangeError)
  })

  it('replays moves', () => {
    expect(
      boardFromMoves([
        { player: 'user', mark: 'X', cell: 1 },
        { player: 'model', mark: 'O', cell: 5 },
      ]),
    ).toEqual(board('X..|.O.|...'))
  })
})

describe('winning and drawing', () => {
  it.each([
    ['XXX|OO.|...', 'X', [1, 2, 3]],
    ['OX.|OX.|O..', 'O', [1, 4, 7]],
    ['X.O|.XO|..X', 'X', [1, 5, 9]],
    ['X.O|XO.|O.X', 'O', [3, 5, 7]],
    ['...|OOO|XX.', 'O', [4, 5, 6]],
  ])('finds the line in %s', (picture, mark, line) => {
    expect(findWinner(board(picture))).toEqual({ mark, line })
    expect(gameStatus(board(picture))).toEqual({ state: 'won', win: { mark, line } })
    expect(isDraw(board(picture))).toBe(false)
  })

  it('sees no winner on an open board', () => {
    expect(findWinner(board('XO.|.X.|..O'))).toBeUndefined()
    expect(gameStatus(board('XO.|.X.|..O'))).toEqual({ state: 'playing' })
  })

  it('calls a full board without a line a draw', () => {
    const full = board('XOX|XOO|OXX')
    expect(findWinner(full)).toBeUndefined()
    expect(isDraw(full)).toBe(true)
    expect(gameStatus(full)).toEqual({ state: 'draw' })
  })

  it('counts a win on the last cell as a win, not a draw', () => {
    const full = board('XOX|OXO|OXX')
    expect(isDraw(full)).toBe(false)
    expect(gameStatus(full)).toMatchObject({ state: 'won', win: { mark: 'X', line: [1, 5, 9] } })
  })
})

describe('formatBoard', () => {
  it('writes rows with marks and the numbers of empty cells', () => {
    expect(formatBoard(board('X.O|.X.|...'))).toBe('X | 2 | O\n---------\n4 | X | 6\n---------\n7 | 8 | 9')
  })
})

describe('fallbackMove', () => {
  it('takes the centre, then corners, then sides', () => {
    expect(fallbackMove(createBoard())).toBe(5)
    expect(fallbackMove(board('...|.X.|...'))).toBe(1)
    expect(fallbackMove(board('XOX|OXO|.XO'))).toBe(7)
    expect(fallbackMove(board('XOX|.OX|OXO'))).toBe(4)
  })

  it('throws on a full board', () => {
    expect(() => fallbackMove(board('XOX|XOO|OXX'))).toThrow(/full/)
  })
})
