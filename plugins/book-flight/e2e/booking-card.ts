import { expect, type Locator, type Page } from '@playwright/test'
import { ToolCallCard } from '@/lib/plugins/kit/testing/tool-call-card'

/** One book_flight tool call: its FlightList, SeatPicker and confirmation. */
export class BookingCard extends ToolCallCard {
  /** The nth book_flight card in the conversation (0-based, in order of appearance). */
  static nth(page: Page, index = 0): BookingCard {
    return new BookingCard(BookingCard.all(page).nth(index))
  }

  static all(page: Page): Locator {
    return ToolCallCard.all(page, 'book_flight')
  }

  readonly flightList: Locator
  readonly flights: Locator
  readonly decline: Locator
  readonly seatMap: Locator
  readonly seats: Locator
  readonly freeSeats: Locator
  readonly confirm: Locator
  readonly cancel: Locator
  readonly confirmation: Locator
  readonly notBooked: Locator

  constructor(root: Locator) {
    super(root)
    this.flightList = root.getByRole('region', { name: /^Flights from / })
    this.flights = this.flightList.getByRole('button', { name: /\$\d/ })
    this.decline = root.getByRole('button', { name: 'Decline' })
    this.seatMap = root.getByRole('grid', { name: /^Seat map for / })
    this.seats = this.seatMap.getByRole('button', { name: /^Seat \d+[A-Z]$/ })
    this.freeSeats = this.seatMap.locator('button[aria-label^="Seat "]:enabled')
    this.confirm = root.getByRole('button', { name: 'Confirm' })
    this.cancel = root.getByRole('button', { name: 'Cancel' })
    this.confirmation = root.getByRole('region', { name: 'Booking confirmation' })
    this.notBooked = root.getByRole('region', { name: 'Booking not made' })
  }

  /** Pick the nth flight; returns what its button says (airline, flight number, times, price). */
  async pickFlight(index = 0): Promise<string> {
    const flight = this.flights.nth(index)
    await expect(flight).toBeEnabled()
    const text = (await flight.innerText()).replace(/\s+/g, ' ')
    await flight.click()
    return text
  }

  /** Select the first free seat and confirm; returns the seat, e.g. "12C". */
  async pickFreeSeat(): Promise<string> {
    const seat = this.freeSeats.first()
    const label = (await seat.getAttribute('aria-label')) ?? ''
    await seat.click()
    await expect(seat).toHaveAttribute('aria-pressed', 'true')
    await this.confirm.click()
    return label.replace('Seat ', '')
  }

  async expectConfirmed({ seat }: { seat: string }) {
    await expect(this.confirmation).toBeVisible()
    await expect(this.confirmation).toContainText(/TKT-[A-Z0-9]{6}/)
    await expect(this.confirmation).toContainText(seat)
    await expect(this.confirmation).toContainText(/\$\d+/)
    return (await this.confirmation.textContent())?.match(/TKT-[A-Z0-9]{6}/)?.[0] ?? ''
  }
}
