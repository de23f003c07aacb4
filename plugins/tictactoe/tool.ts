import 'server-only'
import type { Operation } from 'effection'
import { z } from 'zod'
import { askUntilValid } from '@/lib/plugins/kit'
import { createMcpTool, field, question } from '@/lib/tools'
import type { ExtendedMessage } from '@/lib/tools/sample-messages'
import {
  boardSchema,
  cellAt,
  cellName,
  cellSchema,
  createBoard,
  fallbackMove,
  formatBoard,
  gameMoveSchema,
  gameStatus,
  isLegalMove,
  legalMoves,
  MODEL_MARK,
  placeMark,
  USER_MARK,
  type Board,
  type GameMove,
} from './game'
import { parseMoveReply } from './parse-move'

/**
 * How a game ended, from the user's side: they won, lost, drew, or resigned (declined or
 * cancelled a move). `board` is the final board, `winningLine` the three winning cells (1-9)
 * or null, `moves` every move in order, `message` one sentence for the model.
 */
export interface TicTacToeResult {
  outcome: 'win' | 'loss' | 'draw' | 'resigned'
  board: Board
  winningLine: [number, number, number] | null
  moves: GameMove[]
  message: string
}

/** The system prompt of every sampling call the game makes: the model plays O. */
export const TICTACTOE_SYSTEM_PROMPT = [
  'You are playing tic-tac-toe against the user. You play O; the user plays X and moves first.',
  'Cells are numbered 1-9, left to right, top to bottom; the board shows empty cells by their number.',
  'Win if you can, otherwise block the user, otherwise play well.',
  'Reply with only the number of the empty cell you take, for example: 5',
].join('\n')

const MAX_MODEL_TOKENS = 64

export const ticTacToeTool = createMcpTool('tictactoe')
  .description(
    'Play a game of tic-tac-toe with the user in the chat. The user is X and moves first on a clickable board; ' +
      'you are asked for each of your moves (as O) while the game runs. Returns the outcome from the user’s side ' +
      '(win, loss, draw or resigned), the final board and the moves.',
  )
  .parameters(z.object({}))
  .title(() => 'Tic-tac-toe: you are X')
  .elicits({
    pickMove: question({
      response: z.object({ cell: cellSchema.meta({ title: 'Cell' }) }),
      context: z.object({ board: boardSchema, moveHistory: z.array(gameMoveSchema) }),
      // One choice per empty cell, named where it is on the board ("Top left (1)").
      form: ({ board }) => ({
        cell: field.choice(
          'Your move',
          legalMoves(board).map((cell) => ({ value: String(cell), title: `${cellName(cell)} (${cell})`, answer: { cell } })),
        ),
      }),
    }),
  })
  .execute(function* (_params, ctx): Operation<TicTacToeResult> {
    let board = createBoard()
    const moves: GameMove[] = []
    // The game as the model sees it: each move of the user as the pickMove exchange, each of its own as its reply.
    const history: ExtendedMessage[] = []
    yield* ctx.notify('Your move: you are X', 0)

    while (true) {
      const move = yield* askUntilValid({
        ask: (problem) => ctx.elicit('pickMove', { message: askForMove(board, moves, problem), board, moveHistory: [...moves] }),
        check: ({ cell: chosen }) =>
          isLegalMove(board, chosen) ? { value: chosen } : { problem: `Cell ${chosen} is already taken by ${cellAt(board, chosen)}. Pick an empty cell.` },
        onProblem: (_problem, { cell: chosen }) => ctx.log('info', `Cell ${chosen} is taken; asking again`),
      })
      if (move.action !== 'accept') {
        yield* ctx.log('info', `You resigned after ${moves.length} ${moves.length === 1 ? 'move' : 'moves'}`)
        yield* ctx.notify('You resigned', 1)
        return finish({ outcome: 'resigned', board, moves })
      }
      const cell = move.value
      history.push(
        ...move.answer.exchange.withArguments((context) => ({ board: formatBoard(context.board), moveNumber: context.moveHistory.length + 1 })),
      )

      board = placeMark(board, cell, USER_MARK)
      moves.push({ player: 'user', mark: USER_MARK, cell })
      yield* ctx.log('info', `Move ${moves.length}: you took cell ${cell}`)
      const afterUser = gameStatus(board)
      if (afterUser.state !== 'playing') return yield* end(afterUser.state === 'draw' ? 'draw' : 'win')

      yield* ctx.notify(`You took cell ${cell}; the model is thinking`, progressOf(board))
      const modelCell = yield* askModelForMove(board, history)
      board = placeMark(board, modelCell, MODEL_MARK)
      moves.push({ player: 'model', mark: MODEL_MARK, cell: modelCell })
      history.push({ role: 'assistant', content: `Cell ${modelCell}` })
      yield* ctx.log('info', `Move ${moves.length}: the model took cell ${modelCell}`)
      const afterModel = gameStatus(board)
      if (afterModel.state !== 'playing') return yield* end(afterModel.state === 'draw' ? 'draw' : 'loss')
      yield* ctx.notify(`The model took cell ${modelCell}; your move`, progressOf(board))
    }

    function* end(outcome: 'win' | 'loss' | 'draw'): Operation<TicTacToeResult> {
      const words = { win: 'You won!', loss: 'You lost', draw: 'Draw' }[outcome]
      yield* ctx.log('info', `Game over: ${words}`)
      yield* ctx.notify(`Game over: ${words}`, 1)
      return finish({ outcome, board, moves })
    }

    /** The model's move: asked twice at most, then chosen for it, so the game always goes on. */
    function* askModelForMove(current: Board, past: readonly ExtendedMessage[]): Operation<number> {
      const messages: ExtendedMessage[] = [...past, { role: 'user', content: askModel(current) }]
      for (let attempt = 1; attempt <= 2; attempt++) {
        let reply: string
        try {
          reply = (yield* ctx.sample({ system: TICTACTOE_SYSTEM_PROMPT, messages, maxTokens: MAX_MODEL_TOKENS })).text
        } catch (error) {
          yield* ctx.log('warning', `Asking the model for its move failed: ${error instanceof Error ? error.message : String(error)}`)
          break
        }
        const cell = parseMoveReply(reply)
        if (cell !== undefined && isLegalMove(current, cell)) return cell
        const why =
          cell === undefined ? `“${clip(reply)}” names no cell` : `cell ${cell} is already taken by ${cellAt(current, cell)}`
        yield* ctx.log('warning', `The model's move was not usable: ${why}${attempt === 1 ? '; asking again' : ''}`)
        messages.push({ role: 'assistant', content: reply }, { role: 'user', content: askAgain(current, why) })
      }
      const cell = fallbackMove(current)
      yield* ctx.log('warning', `No usable move from the model; playing cell ${cell} for it`)
      return cell
    }
  })

/** The elicitation message: readable on its own, board included, for clients that know nothing of the context. */
function askForMove(board: Board, moves: readonly GameMove[], problem: string | undefined): string {
  const lastModelMove = moves.findLast((move) => move.player === 'model')
  const lead =
    problem ?? (lastModelMove ? `The model took cell ${lastModelMove.cell}. Your move — you are X.` : 'Your move — you are X, and you go first.')
  return `${lead}\n\n${formatBoard(board)}\n\nEmpty cells: ${legalMoves(board).join(', ')}.`
}

function askModel(board: Board): string {
  return `The board now (you are O):\n\n${formatBoard(board)}\n\nEmpty cells: ${legalMoves(board).join(', ')}. Reply with the number of the cell you take.`
}

function askAgain(board: Board, why: string): string {
  return `That move cannot be played: ${why}. The board is still:\n\n${formatBoard(board)}\n\nReply with just the number of one of the empty cells: ${legalMoves(board).join(', ')}.`
}

function finish({ outcome, board, moves }: { outcome: TicTacToeResult['outcome']; board: Board; moves: GameMove[] }): TicTacToeResult {
  const status = gameStatus(board)
  const winningLine = status.state === 'won' ? status.win.line : null
  const message = {
    win: `The user won with three X in a row on cells ${winningLine?.join(', ')}.`,
    loss: `You (O) won with three in a row on cells ${winningLine?.join(', ')}; the user lost.`,
    draw: 'The game ended in a draw: the board is full and nobody has three in a row.',
    resigned: `The user resigned after ${moves.length} moves.`,
  }[outcome]
  return { outcome, board, winningLine, moves: [...moves], message }
}

/** The share of the board filled, for the progress bar. */
function progressOf(board: Board): number {
  return Math.round(((9 - legalMoves(board).length) / 9) * 100) / 100
}

function clip(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ')
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}
