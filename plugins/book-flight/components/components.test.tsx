import { isValidElement, type ReactElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { searchFlights, seatMapFor } from '../flights'
import { BookingConfirmation } from './BookingConfirmation'
import { FlightList, flightLabel, type FlightListProps } from './FlightList'
import { SeatPicker } from './SeatPicker'

const flights = searchFlights('NYC', 'LAX')
const flight = flights[0]
const seatMap = { ...seatMapFor(flight), taken: ['10A', '12C'] }
const noop = () => {}
const route = { from: 'NYC', destination: 'LAX', flights }
/** What every question gets besides its message, context and answer. */
const question = { choices: {}, respond: noop }

/** Every element in a rendered tree whose props match, for calling their handlers. */
function findElements(node: ReactNode, match: (props: Record<string, unknown>) => boolean): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap((child) => findElements(child, match))
  if (!isValidElement<Record<string, unknown>>(node)) return []
  const own = match(node.props) ? [node] : []
  return [...own, ...findElements(node.props.children as ReactNode, match)]
}

describe('FlightList', () => {
  it('names each flight by airline, number, times, duration and price', () => {
    expect(flightLabel({ ...flight, airline: 'SkyHigh Airways', flightNumber: 'SH 142', departure: '08:00', arrival: '11:30', durationMinutes: 210, price: 299 })).toBe(
      'SkyHigh Airways SH 142, 08:00 to 11:30, 3h 30m, $299',
    )
    const html = renderToStaticMarkup(
      <FlightList {...question} message={'Select your flight:\n\n1. ...'} context={route} disabled={false} />,
    )
    expect(html).toContain('data-testid="airplane-icon"')
    expect(html).toContain(`aria-label="${flightLabel(flight)}"`)
    expect(html).toContain('Select your flight:')
    expect(html).not.toContain('1. ...')
    expect(html).not.toContain('disabled=""')
  })

  it('marks the chosen flight and disables every button once answered', () => {
    const html = renderToStaticMarkup(
      <FlightList {...question} message="Pick" context={route} disabled answered={{ action: 'accept', content: { flightId: flight.id } }} />,
    )
    expect(html.match(/aria-pressed="true"/g)).toHaveLength(1)
    expect(html.match(/disabled=""/g)).toHaveLength(flights.length + 1)
    expect(html).toContain('Selected')
  })

  it('answers with the flight’s id, or declines, in the chat’s answer shape', () => {
    const respond = vi.fn<FlightListProps['respond']>()
    const tree = FlightList({ ...question, respond, message: 'Pick', context: route, disabled: false })
    const second = findElements(tree, (props) => props['aria-label'] === flightLabel(flights[1]!))[0]!
    ;(second.props.onClick as () => void)()
    expect(respond).toHaveBeenLastCalledWith({ action: 'accept', content: { flightId: flights[1]!.id } })
    const decline = findElements(tree, (props) => props.children === 'Decline')[0]!
    ;(decline.props.onClick as () => void)()
    expect(respond).toHaveBeenLastCalledWith({ action: 'decline' })
  })

  it('says Declined after declining', () => {
    const html = renderToStaticMarkup(
      <FlightList {...question} message="Pick" context={route} disabled answered={{ action: 'decline' }} />,
    )
    expect(html).toContain('Declined')
    expect(html).not.toContain('aria-pressed="true"')
  })
})

describe('SeatPicker', () => {
  it('lays out a grid with row and column headers, an aisle, and disabled taken seats', () => {
    const html = renderToStaticMarkup(<SeatPicker {...question} message="Seat 14C is taken. Select another seat:" context={{ flight, seatMap }} disabled={false} />)
    expect(html).toContain('role="grid"')
    expect(html.match(/role="columnheader"/g)).toHaveLength(seatMap.letters.length + 1)
    expect(html.match(/role="rowheader"/g)).toHaveLength(seatMap.lastRow - seatMap.firstRow + 1)
    expect(html).toContain('Seat 14C is taken. Select another seat:')
    expect(html).toMatch(/aria-label="Seat 10A" aria-pressed="false" disabled=""/)
    expect(html).toMatch(/aria-label="Seat 10B" aria-pressed="false" tabindex/)
    // Confirm waits for a seat.
    expect(html).toMatch(/disabled="" class="[^"]*">Confirm</)
  })

  it('shows the confirmed seat once answered', () => {
    const html = renderToStaticMarkup(
      <SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled answered={{ action: 'accept', content: { row: 11, seat: 'B' } }} />,
    )
    expect(html).toMatch(/aria-label="Seat 11B" aria-pressed="true" disabled=""/)
    expect(html).toContain('confirmed')
  })

  it('says Cancelled after cancelling, and stays disabled with no seat when stopped', () => {
    const cancelled = renderToStaticMarkup(<SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled answered={{ action: 'cancel' }} />)
    expect(cancelled).toContain('Cancelled')
    expect(cancelled).not.toContain('aria-pressed="true"')
    const stopped = renderToStaticMarkup(<SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled />)
    expect(stopped).toContain('No seat selected')
    expect(stopped).toMatch(/disabled="" class="[^"]*">Confirm</)
  })
})

describe('BookingConfirmation', () => {
  it('shows ticket, flight, seat, price and tip', () => {
    const html = renderToStaticMarkup(
      <BookingConfirmation result={{ status: 'confirmed', ticketNumber: 'TKT-ABC234', flight, seat: '12A', price: flight.price, tip: 'Take the train.' }} />,
    )
    for (const text of ['TKT-ABC234', flight.flightNumber, '12A', `$${flight.price}`, 'Take the train.']) expect(html).toContain(text)
  })
})
