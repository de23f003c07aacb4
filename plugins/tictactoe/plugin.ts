import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { GameResult } from './components/GameResult'
import { TicTacToeBoard } from './components/TicTacToeBoard'
import type { ticTacToeTool } from './tool'

/** The browser half of the plugin: its handlers and components (the tool stays on the server). */
export const ticTacToePlugin = makePlugin<typeof ticTacToeTool>('tictactoe')
  .onElicit({
    *pickMove(request, ctx) {
      const choice = yield* ctx.render(TicTacToeBoard, {
        message: request.message,
        board: request.board,
        moveHistory: request.moveHistory,
      })
      return choice.action === 'accept' ? { action: 'accept', content: { cell: choice.cell } } : { action: 'decline' }
    },
  })
  .resultView(GameResult)
  .build()
