import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { boardFromMoves, formatBoard, type GameMove } from '../game'
import type { TicTacToeResult } from '../tool'
import { GameResult } from './GameResult'
import { cellFromKey, TicTacToeBoard } from './TicTacToeBoard'

const noop = () => {}
/** What every question gets besides its message, context and answer. */
const question = { choices: {}, respond: noop }
const moves: GameMove[] = [
  { player: 'user', mark: 'X', cell: 1 },
  { player: 'model', mark: 'O', cell: 5 },
]
const board = boardFromMoves(moves)
const message = `The model took cell 5. Your move — you are X.\n\n${formatBoard(board)}\n\nEmpty cells: 2, 3, 4, 6, 7, 8, 9.`

function cellButtons(html: string): string[] {
  return Array.from(html.matchAll(/<button[^>]*aria-label="(Cell \d, [^"]+)"[^>]*>/g), (match) => match[0])
}

describe('TicTacToeBoard', () => {
  it('is a labelled grid of nine named cell buttons, occupied ones disabled', () => {
    const html = renderToStaticMarkup(<TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled={false} />)
    expect(html).toContain('role="grid" aria-label="Tic-tac-toe board"')
    expect(html.match(/role="row"/g)).toHaveLength(3)
    expect(html.match(/role="gridcell"/g)).toHaveLength(9)
    const buttons = cellButtons(html)
    expect(buttons).toHaveLength(9)
    expect(buttons[0]).toContain('aria-label="Cell 1, X"')
    expect(buttons[0]).toContain('disabled=""')
    expect(buttons[4]).toContain('aria-label="Cell 5, O, last move"')
    expect(buttons[4]).toContain('disabled=""')
    expect(buttons[1]).toContain('aria-label="Cell 2, empty"')
    expect(buttons[1]).not.toContain('disabled')
    expect(buttons.filter((button) => button.includes('disabled=""'))).toHaveLength(2)
  })

  it('has one tab stop, on a free cell, and marks the model’s last move', () => {
    const html = renderToStaticMarkup(<TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled={false} />)
    const buttons = cellButtons(html)
    expect(buttons.filter((button) => button.includes('tabindex="0"'))).toEqual([expect.stringContaining('Cell 2, empty')])
    expect(buttons[4]).toContain('data-last-move="true"')
    expect(html).toContain('The model took cell 5. Your move — you are X.')
    // The text board is for clients without this component; here it is drawn.
    expect(html).not.toContain('Empty cells:')
  })

  it('offers Resign, and shows a rejected move as an alert', () => {
    const retry = `Cell 5 is already taken by O. Pick an empty cell.\n\n${formatBoard(board)}`
    const html = renderToStaticMarkup(<TicTacToeBoard {...question} message={retry} context={{ board, moveHistory: moves }} disabled={false} />)
    expect(html).toMatch(/<button type="button" class="[^"]*">Resign<\/button>/)
    expect(html).toContain('role="alert"')
    expect(html).toContain('Cell 5 is already taken by O.')
  })

  it('starts on the centre of an empty board', () => {
    const html = renderToStaticMarkup(
      <TicTacToeBoard {...question} message="Your move — you are X, and you go first." context={{ board: boardFromMoves([]), moveHistory: [] }} disabled={false} />,
    )
    expect(cellButtons(html).filter((button) => button.includes('tabindex="0"'))).toEqual([expect.stringContaining('Cell 5, empty')])
    expect(html).not.toContain('data-last-move')
    expect(html).toContain('Move 1')
  })

  it('folds into one line once the move is made: the model’s reply, then the user’s move', () => {
    const html = renderToStaticMarkup(
      <TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled answered={{ action: 'accept', content: { cell: 9 } }} />,
    )
    expect(html).not.toContain('role="grid"')
    expect(html).not.toContain('<button')
    expect(html).toMatch(/The model took cell <strong[^>]*>5<\/strong>, then you took cell <strong[^>]*>9<\/strong>/)
  })

  it('folds the first move without a model reply', () => {
    const html = renderToStaticMarkup(
      <TicTacToeBoard {...question} message="Your move" context={{ board: boardFromMoves([]), moveHistory: [] }} disabled answered={{ action: 'accept', content: { cell: 1 } }} />,
    )
    expect(html).toMatch(/<span>You took cell <strong[^>]*>1<\/strong><\/span>/)
  })

  it('does not claim a taken cell was played', () => {
    const html = renderToStaticMarkup(
      <TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled answered={{ action: 'accept', content: { cell: 5 } }} />,
    )
    expect(html).toContain('was taken — asked again')
    expect(html).not.toContain('you took cell')
  })

  it('says so after resigning', () => {
    const html = renderToStaticMarkup(
      <TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled answered={{ action: 'decline' }} />,
    )
    expect(html).toMatch(/The model took cell <strong[^>]*>5<\/strong>, then you resigned/)
    expect(html).not.toContain('<button')
  })

  it('shows the board as it was, with nothing to press, when stopped before an answer', () => {
    const html = renderToStaticMarkup(<TicTacToeBoard {...question} message={message} context={{ board, moveHistory: moves }} disabled />)
    expect(html).not.toContain('<button')
    expect(html.match(/role="gridcell" aria-label="Cell \d, [^"]+"/g)).toHaveLength(9)
    expect(html).toContain('aria-label="Cell 5, O, last move"')
    expect(html).not.toContain('Resign')
    expect(html).toContain('aria-readonly="true"')
  })
})

describe('keyboard moves', () => {
  const free = [2, 3, 4, 6, 7, 8, 9]

  it('moves to the nearest free cell in the arrow’s direction, skipping taken ones', () => {
    expect(cellFromKey({ from: 4, key: 'ArrowRight', free })).toBe(6)
    expect(cellFromKey({ from: 2, key: 'ArrowDown', free })).toBe(8)
    expect(cellFromKey({ from: 2, key: 'ArrowLeft', free })).toBeUndefined()
    expect(cellFromKey({ from: 7, key: 'ArrowUp', free })).toBe(4)
    expect(cellFromKey({ from: 3, key: 'ArrowRight', free })).toBeUndefined()
  })

  it('goes to the first and last free cell with Home and End, and ignores other keys', () => {
    expect(cellFromKey({ from: 6, key: 'Home', free })).toBe(2)
    expect(cellFromKey({ from: 6, key: 'End', free })).toBe(9)
    expect(cellFromKey({ from: 6, key: 'Enter', free })).toBeUndefined()
    expect(cellFromKey({ from: 6, key: 'toString', free })).toBeUndefined()
  })
})

describe('GameResult', () => {
  const won: TicTacToeResult = {
    outcome: 'win',
    board: boardFromMoves([
      { player: 'user', mark: 'X', cell: 1 },
      { player: 'model', mark: 'O', cell: 2 },
      { player: 'user', mark: 'X', cell: 5 },
      { player: 'model', mark: 'O', cell: 3 },
      { player: 'user', mark: 'X', cell: 9 },
    ]),
    winningLine: [1, 5, 9],
    moves: [
      { player: 'user', mark: 'X', cell: 1 },
      { player: 'model', mark: 'O', cell: 2 },
      { player: 'user', mark: 'X', cell: 5 },
      { player: 'model', mark: 'O', cell: 3 },
      { player: 'user', mark: 'X', cell: 9 },
    ],
    message: 'The user won.',
  }

  it('says the result in words and highlights the winning line', () => {
    const html = renderToStaticMarkup(<GameResult result={won} />)
    expect(html).toContain('You won!')
    expect(html).toContain('Three in a row on cells 1, 5, 9')
    expect(html).toContain('aria-label="Final board"')
    expect(html.match(/data-winning="true"/g)).toHaveLength(3)
    expect(html).toContain('aria-label="Cell 5, X, winning line"')
    expect(html).toContain('aria-label="Cell 2, O"')
    expect(html).toContain('aria-label="Cell 4, empty"')
    expect(html.match(/<li /g)).toHaveLength(5)
    expect(html).toContain('Model took cell </span>3')
  })

  it.each([
    ['loss', 'You lost'],
    ['draw', 'Draw'],
    ['resigned', 'You resigned'],
  ] as const)('names a %s', (outcome, words) => {
    const html = renderToStaticMarkup(<GameResult result={{ ...won, outcome, winningLine: outcome === 'loss' ? [2, 5, 8] : null }} />)
    expect(html).toContain(`>${words}<`)
    expect(html.match(/data-winning="true"/g) ?? []).toHaveLength(outcome === 'loss' ? 3 : 0)
  })

  it('shows a resignation before any move without a move list', () => {
    const html = renderToStaticMarkup(<GameResult result={{ ...won, outcome: 'resigned', board: boardFromMoves([]), winningLine: null, moves: [] }} />)
    expect(html).toContain('You resigned')
    expect(html).toContain('After 0 moves')
    expect(html).not.toContain('<ol')
  })
})
