import { isValidElement, type ReactElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { searchFlights, seatMapFor } from '../flights'
import { BookingConfirmation } from './BookingConfirmation'
import { FlightList, type FlightListProps } from './FlightList'
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
  it('names each flight’s button by what it shows: airline, number, times, duration and price', () => {
    const html = renderToStaticMarkup(<FlightList {...question} message={'Select your flight:\n\n1. ...'} context={route} disabled={false} />)
    expect(html).toContain('data-testid="airplane-icon"')
    const buttons = html.match(/<button[^>]*aria-pressed="false"[^>]*>.*?<\/button>/g) ?? []
    expect(buttons).toHaveLength(flights.length)
    // No aria-label: the name is the text shown, the arrow read as "to".
    expect(buttons[0]).not.toContain('aria-label')
    for (const text of [flight.airline, flight.flightNumber, flight.departure, flight.arrival, `$${flight.price}`]) expect(buttons[0]).toContain(text)
    expect(buttons[0]).toContain('<span aria-hidden="true">→</span><span class="sr-only">to</span>')
    expect(html).toContain('Select your flight:')
    expect(html).not.toContain('1. ...')
    expect(html).not.toContain('disabled=""')
  })

  it('once answered, lists the flights with the chosen one marked, and nothing to press', () => {
    const html = renderToStaticMarkup(
      <FlightList {...question} message="Pick" context={route} disabled answered={{ action: 'accept', content: { flightId: flight.id } }} />,
    )
    expect(html).not.toContain('<button')
    expect(html.match(/aria-current="true"/g)).toHaveLength(1)
    expect(html).toContain('Selected')
    expect(html).toContain('Flight chosen')
  })

  it('answers with the flight’s id, or declines, in the chat’s answer shape', () => {
    const respond = vi.fn<FlightListProps['respond']>()
    const tree = FlightList({ ...question, respond, message: 'Pick', context: route, disabled: false })
    const list = findElements(tree, (props) => typeof props.onChoose === 'function')[0]!
    ;(list.props.onChoose as (flight: (typeof flights)[number]) => void)(flights[1]!)
    expect(respond).toHaveBeenLastCalledWith({ action: 'accept', content: { flightId: flights[1]!.id } })
    const decline = findElements(tree, (props) => props.children === 'Decline')[0]!
    ;(decline.props.onClick as () => void)()
    expect(respond).toHaveBeenLastCalledWith({ action: 'decline' })
  })

  it('says Declined after declining', () => {
    const html = renderToStaticMarkup(<FlightList {...question} message="Pick" context={route} disabled answered={{ action: 'decline' }} />)
    expect(html).toContain('Declined')
    expect(html).not.toContain('aria-current')
    expect(html).not.toContain('<button')
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
    expect(html).toMatch(/<button disabled="" type="button" class="[^"]*">Confirm</)
    expect(html).toContain('>Cancel</button>')
  })

  it('shows the confirmed seat once answered, on a map with nothing to press', () => {
    const html = renderToStaticMarkup(
      <SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled answered={{ action: 'accept', content: { row: 11, seat: 'B' } }} />,
    )
    expect(html).toContain('role="gridcell" aria-label="Seat 11B, yours"')
    expect(html).toContain('aria-label="Seat 10A, taken"')
    expect(html).toContain('aria-label="Seat 10B, free"')
    expect(html).not.toContain('<button')
    expect(html).toContain('confirmed')
  })

  it('says Cancelled after cancelling, and shows no seat when stopped', () => {
    const cancelled = renderToStaticMarkup(<SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled answered={{ action: 'cancel' }} />)
    expect(cancelled).toContain('Cancelled')
    expect(cancelled).not.toContain(', yours')
    const stopped = renderToStaticMarkup(<SeatPicker {...question} message="Pick" context={{ flight, seatMap }} disabled />)
    expect(stopped).toContain('No seat selected')
    expect(stopped).not.toContain('<button')
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
