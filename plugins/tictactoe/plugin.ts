import { makePlugin } from '@/lib/plugins'
import { GameResult } from './components/GameResult'
import { TicTacToeBoard } from './components/TicTacToeBoard'
import { ticTacToeTool } from './tool'

export const ticTacToePlugin = makePlugin(ticTacToeTool)
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
