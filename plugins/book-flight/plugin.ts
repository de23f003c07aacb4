import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { BookingConfirmation } from './components/BookingConfirmation'
import { FlightList } from './components/FlightList'
import { SeatPicker } from './components/SeatPicker'
import type { bookFlightTool } from './tool'

/** The browser half of the plugin: the components that answer its questions, and its result view (the tool stays on the server). */
export const bookFlightPlugin = makePlugin<typeof bookFlightTool>('book_flight')
  .onElicit({ pickFlight: FlightList, pickSeat: SeatPicker })
  .resultView(BookingConfirmation)
  .build()
