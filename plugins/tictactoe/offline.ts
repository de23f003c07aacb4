import type { JSONValue } from '@ai-sdk/provider'
import { hasCalledTool, type OfflineSample } from '@/lib/models'
import { defineOfflineSkill } from '@/lib/plugins/kit'
import { fallbackMove, LINES, type Board, type Mark } from './game'
import { ticTacToeTool } from './tool'

/**
 * What the offline model knows of tic-tac-toe: it starts a game when asked, plays its moves
 * when the tool samples it, and comments on the finished game. It reads the board from the
 * prompt as text, as any model would: rows such as "X | 2 | O", empty cells by number 1-9.
 */

const TICTACTOE = /\btic[\s-]?tac[\s-]?toe\b|\bnoughts and crosses\b/i
const PLAY_CUE = /\b(?:play|playing|game|let'?s|start|begin|rematch|again|another|new|fancy|want)\b/i
const REMATCH = /\b(?:another (?:game|round|one)|play again|rematch|one more (?:game|round)|new game)\b/i
// Spaces only around the bars: a row is one line.
const ROW = /^[ \t]*([XO1-9])[ \t]*\|[ \t]*([XO1-9])[ \t]*\|[ \t]*([XO1-9])[ \t]*$/i
const MODEL_MARK = /\byou (?:are|play|have)\s+(?:as\s+)?["'“]?(X|O)\b/i

export const ticTacToeOffline = defineOfflineSkill(ticTacToeTool, {
  example: 'play tic-tac-toe with you (“Let’s play tic-tac-toe”)',

  recognise({ text, prompt }) {
    const named = TICTACTOE.test(text)
    if (!asksToPlayTicTacToe(text, { gamePlayed: hasCalledTool(prompt, ticTacToeTool.name) })) return undefined
    return {
      // "tic-tac-toe" by name is surely ours; "another game" only because a game was played here.
      confidence: named ? 1 : 0.6,
      text: "Let's play! You're X and you go first — pick a cell on the board.",
      calls: [{}],
      unavailable: "I'd love to play, but the tic-tac-toe game isn't available in this conversation right now.",
    }
  },

  answerSample: planTicTacToeMove,

  summarise: (result) => (isGameResult(result) ? commentOnGame(result) : undefined),
})

/**
 * Whether the user asks to play tic-tac-toe: "Let's play tic-tac-toe", "play tictactoe", or,
 * once a game has been played in this chat, "another game" or "rematch".
 */
export function asksToPlayTicTacToe(text: string, { gamePlayed = false }: { gamePlayed?: boolean } = {}): boolean {
  if (TICTACTOE.test(text)) return PLAY_CUE.test(text) || text.replace(TICTACTOE, '').replace(/[\s!?.,]+/g, '') === ''
  return gamePlayed && REMATCH.test(text)
}

/**
 * The offline model's move when its tool samples it: the system prompt names the game and
 * the last user message shows the board. The reply is just the cell number; undefined when
 * the sample shows no board with a free cell.
 *
 * @example
 * planTicTacToeMove({ system: 'You play tic-tac-toe as O.', text: 'X | 2 | 3\n4 | 5 | 6\n7 | 8 | 9\nYour move.', prompt: [] }) // '5'
 */
export function planTicTacToeMove({ system, text }: Pick<OfflineSample, 'system' | 'text' | 'prompt'>): string | undefined {
  if (!TICTACTOE.test(system)) return undefined
  const board = readBoard(text)
  if (!board || board.every((cell) => cell !== null)) return undefined
  const named = (MODEL_MARK.exec(system) ?? MODEL_MARK.exec(text))?.[1].toUpperCase()
  const mark: Mark = named === 'X' || named === 'O' ? named : markToMove(board)
  return String(chooseMove(board, mark))
}

/** The board in a text: its last three rows of "X | 2 | O". Undefined when there are none. */
export function readBoard(text: string): Board | undefined {
  const rows = text.split('\n').flatMap((line) => {
    const match = ROW.exec(line)
    return match ? [match.slice(1, 4)] : []
  })
  if (rows.length < 3) return undefined
  const board: Board = []
  for (const [index, cell] of rows.slice(-3).flat().entries()) {
    const upper = cell.toUpperCase()
    if (upper === 'X' || upper === 'O') board.push(upper)
    else if (Number(cell) === index + 1) board.push(null)
    // A number in the wrong place is not a board this model can trust.
    else return undefined
  }
  return board
}

/**
 * A sensible move for `mark`: win if possible, else block the opponent's win, else the
 * game's own fallback order (centre, corners, sides).
 */
export function chooseMove(board: Board, mark: Mark): number {
  const opponent: Mark = mark === 'X' ? 'O' : 'X'
  return completingCell(board, mark) ?? completingCell(board, opponent) ?? fallbackMove(board)
}

/** The empty cell that would give `mark` three in a row, if there is one. */
function completingCell(board: Board, mark: Mark): number | undefined {
  for (const line of LINES) {
    const marks = line.map((cell) => board[cell - 1])
    if (marks.filter((cell) => cell === mark).length === 2) {
      const empty = line.find((cell) => board[cell - 1] === null)
      if (empty !== undefined) return empty
    }
  }
  return undefined
}

/** Whose turn it is: X moves first, so X when the counts are equal. */
function markToMove(board: Board): Mark {
  const count = (mark: Mark) => board.filter((cell) => cell === mark).length
  return count('X') > count('O') ? 'O' : 'X'
}

const OUTCOMES = ['win', 'loss', 'draw', 'resigned'] as const
type Outcome = (typeof OUTCOMES)[number]

/** Whether a result is a finished game (`outcome` from the user's side, and the board). */
export function isGameResult(value: JSONValue): value is { outcome: Outcome; board: JSONValue[] } & Record<string, JSONValue> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    OUTCOMES.some((outcome) => outcome === value.outcome) &&
    Array.isArray(value.board)
  )
}

/**
 * The offline model's comment on a finished game.
 *
 * @example
 * commentOnGame({ outcome: 'win', board: [...], winningLine: [1, 5, 9] })
 * // 'Well played — you won with three in a row on cells 1, 5 and 9! Say “play tic-tac-toe” for a rematch.'
 */
export function commentOnGame(result: { outcome: Outcome } & Record<string, JSONValue>): string {
  const line = Array.isArray(result.winningLine) && result.winningLine.length === 3 ? result.winningLine.join(', ').replace(/, (\d)$/, ' and $1') : undefined
  const onLine = line ? ` on cells ${line}` : ''
  const again = 'Say “play tic-tac-toe” for a rematch.'
  switch (result.outcome) {
    case 'win':
      return `Well played — you won with three in a row${onLine}! ${again}`
    case 'loss':
      return `Good game! I got three in a row${onLine} this time. ${again}`
    case 'draw':
      return `A draw — well played, neither of us gave an inch. ${again}`
    case 'resigned': {
      const moves = Array.isArray(result.moves) ? result.moves.length : 0
      const when = moves === 0 ? 'before the first move' : `after ${moves} ${moves === 1 ? 'move' : 'moves'}`
      return `You resigned ${when} — no problem. ${again}`
    }
  }
}
