import { makePlugin } from '../../plugins'
import { SeatChoice } from './components/SeatChoice'
import { TrainList } from './components/TrainList'
import type { bookTrainTool } from './tool'

/** The fixture's browser half: a component answers each question (the tool stays on the server). */
export const bookTrainPlugin = makePlugin<typeof bookTrainTool>('book_train').onElicit({ pickTrain: TrainList, pickSeat: SeatChoice }).build()
