import type { JSONValue, LanguageModelV3Message } from '@ai-sdk/provider'
import type { OfflineReply } from './offline-plan'
import { userText, type OfflineCall } from './offline-prompt'

/**
 * The offline model's tic-tac-toe: it starts a game when asked, plays its moves when the
 * `tictactoe` tool samples it, and comments on the finished game. It knows the game only as
 * text, like any model would: the board in the prompt is rows such as "X | 2 | O", empty
 * cells showing their number 1-9.
 */

/** The name of the tool the offline model calls to play. */
export const TICTACTOE_TOOL = 'tictactoe'

type Mark = 'X' | 'O'
type Cell = Mark | null

const TICTACTOE = /\btic[\s-]?tac[\s-]?toe\b|\bnoughts and crosses\b/i
const PLAY_CUE = /\b(?:play|playing|game|let'?s|start|begin|rematch|again|another|new|fancy|want)\b/i
const REMATCH = /\b(?:another (?:game|round|one)|play again|rematch|one more (?:game|round)|new game)\b/i
const ROW = /^\s*([XO1-9])\s*\|\s*([XO1-9])\s*\|\s*([XO1-9])\s*$/i
const MODEL_MARK = /\byou (?:are|play|have)\s+(?:as\s+)?["'“]?(X|O)\b/i

const LINES: ReadonlyArray<readonly [number, number, number]> = [
  [1, 2, 3],
  [4, 5, 6],
  [7, 8, 9],
  [1, 4, 7],
  [2, 5, 8],
  [3, 6, 9],
  [1, 5, 9],
  [3, 5, 7],
]
const CORNERS = [1, 3, 7, 9]
const SIDES = [2, 4, 6, 8]

/**
 * The offline model's reply when tic-tac-toe is what the call is about: its move on a
 * tic-tac-toe sampling call, or starting a game (calling the tool) when the user asks to
 * play. Undefined when the call is about something else.
 */
export function planTicTacToeReply({
  prompt,
  toolNames,
  canCallTools,
}: OfflineCall): OfflineReply | undefined {
  if (toolNames.size === 0) {
    const move = planTicTacToeMove(prompt)
    if (move) return { text: move, toolCalls: [] }
  }
  const last = prompt.at(-1)
  if (last?.role !== 'user' || !asksToPlayTicTacToe(userText(last), { gamePlayed: hasPlayedTicTacToe(prompt) })) return undefined
  if (toolNames.has(TICTACTOE_TOOL) && canCallTools) {
    return { text: announceGame(), toolCalls: [{ toolName: TICTACTOE_TOOL, input: '{}' }] }
  }
  return { text: "I'd love to play, but the tic-tac-toe game isn't available in this conversation right now.", toolCalls: [] }
}

/**
 * Whether the user asks to play tic-tac-toe: "Let's play tic-tac-toe", "play tictactoe", or,
 * once a game has been played in this chat, "another game" or "rematch".
 */
export function asksToPlayTicTacToe(text: string, { gamePlayed = false }: { gamePlayed?: boolean } = {}): boolean {
  if (TICTACTOE.test(text)) return PLAY_CUE.test(text) || text.replace(TICTACTOE, '').replace(/[\s!?.,]+/g, '') === ''
  return gamePlayed && REMATCH.test(text)
}

/** Whether the conversation already called the tic-tac-toe tool. */
export function hasPlayedTicTacToe(prompt: LanguageModelV3Message[]): boolean {
  return prompt.some(
    (message) => message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call' && part.toolName === TICTACTOE_TOOL),
  )
}

/** The short text streamed before the offline model calls the tool. */
export function announceGame(): string {
  return "Let's play! You're X and you go first — pick a cell on the board."
}

/**
 * The offline model's move when a sampling call is about tic-tac-toe: the system prompt
 * names the game and the last user message shows the board. The reply is just the cell
 * number. Undefined when the call is not such a request.
 *
 * @example
 * planTicTacToeMove([
 *   { role: 'system', content: 'You play tic-tac-toe as O.' },
 *   { role: 'user', content: [{ type: 'text', text: 'X | 2 | 3\n4 | 5 | 6\n7 | 8 | 9\nYour move.' }] },
 * ]) // '5'
 */
export function planTicTacToeMove(prompt: LanguageModelV3Message[]): string | undefined {
  const system = prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n')
  if (!TICTACTOE.test(system)) return undefined
  const last = prompt.findLast((message) => message.role === 'user')
  const text = last ? userText(last) : ''
  const board = readBoard(text)
  if (!board || freeCells(board).length === 0) return undefined
  const named = (MODEL_MARK.exec(system) ?? MODEL_MARK.exec(text))?.[1].toUpperCase()
  const mark: Mark = named === 'X' || named === 'O' ? named : markToMove(board)
  return String(chooseMove(board, mark))
}

/** The board in a text: its last three rows of "X | 2 | O". Undefined when there are none. */
export function readBoard(text: string): Cell[] | undefined {
  const rows = text.split('\n').flatMap((line) => {
    const match = ROW.exec(line)
    return match ? [match.slice(1, 4)] : []
  })
  if (rows.length < 3) return undefined
  const board: Cell[] = []
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
 * centre, a corner, a side. Deterministic: the first such cell in order.
 */
export function chooseMove(board: Cell[], mark: Mark): number {
  const opponent: Mark = mark === 'X' ? 'O' : 'X'
  const move = completingCell(board, mark) ?? completingCell(board, opponent) ?? [5, ...CORNERS, ...SIDES].find((cell) => board[cell - 1] === null)
  if (move === undefined) throw new RangeError('The board is full.')
  return move
}

/** The empty cell that would give `mark` three in a row, if there is one. */
function completingCell(board: Cell[], mark: Mark): number | undefined {
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
function markToMove(board: Cell[]): Mark {
  const count = (mark: Mark) => board.filter((cell) => cell === mark).length
  return count('X') > count('O') ? 'O' : 'X'
}

function freeCells(board: Cell[]): number[] {
  return board.flatMap((cell, index) => (cell === null ? [index + 1] : []))
}

const OUTCOMES = ['win', 'loss', 'draw', 'resigned'] as const
type Outcome = (typeof OUTCOMES)[number]

/** Whether a tool result is a finished tic-tac-toe game (`outcome` from the user's side, and the board). */
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
