import type { PluginElicitRequestEvent } from '../lib/protocol'
import type { Flight, SeatMap } from '../plugins/book-flight/flights'

/** What every booking in the bench starts with. */
export const BOOKING_MESSAGE = 'Book a flight from NYC to LAX'

/** The answer to the FlightList: the first flight it offers. */
export function chooseFlight(request: PluginElicitRequestEvent): { flightId: string } {
  const flights = contextOf(request).flights as Flight[]
  return { flightId: flights[0]!.id }
}

/** The answer to the SeatPicker: the first free seat on its map. */
export function chooseSeat(request: PluginElicitRequestEvent): { row: number; seat: string } {
  return freeSeat(contextOf(request).seatMap as SeatMap)
}

function contextOf(request: PluginElicitRequestEvent) {
  return request.context
}

function freeSeat(seatMap: SeatMap) {
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const seat of seatMap.letters) if (!seatMap.taken.includes(`${row}${seat}`)) return { row, seat }
  }
  throw new Error('no free seat')
}
