import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { GameResult } from './components/GameResult'
import { TicTacToeBoard } from './components/TicTacToeBoard'
import type { ticTacToeTool } from './tool'

/** The browser half of the plugin: the component that answers its question, and its result view (the tool stays on the server). */
export const ticTacToePlugin = makePlugin<typeof ticTacToeTool>('tictactoe')
  .onElicit({ pickMove: TicTacToeBoard })
  .resultView(GameResult)
  .build()
