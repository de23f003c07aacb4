import 'client-only'
import { makePlugin } from '@/lib/plugins'
import { BookingConfirmation } from './components/BookingConfirmation'
import { FlightList } from './components/FlightList'
import { SeatPicker } from './components/SeatPicker'
import type { bookFlightTool } from './tool'

/** The browser half of the plugin: its handlers and components (the tool stays on the server). */
export const bookFlightPlugin = makePlugin<typeof bookFlightTool>('book_flight')
  .onElicit({
    *pickFlight(request, ctx) {
      const choice = yield* ctx.render(FlightList, {
        message: request.message,
        from: request.from,
        destination: request.destination,
        flights: request.flights,
      })
      return choice.action === 'accept' ? { action: 'accept', content: { flightId: choice.flightId } } : { action: 'decline' }
    },
    *pickSeat(request, ctx) {
      const choice = yield* ctx.render(SeatPicker, {
        message: request.message,
        flight: request.flight,
        seatMap: request.seatMap,
      })
      return choice.action === 'accept'
        ? { action: 'accept', content: { row: choice.row, seat: choice.seat } }
        : { action: 'cancel' }
    },
  })
  .resultView(BookingConfirmation)
  .build()
