import { z } from 'zod'
import { createCode, seededNumber, stableHash } from '@/lib/plugins/kit'

export const flightSchema = z.object({
  id: z.string(),
  airline: z.string(),
  flightNumber: z.string(),
  from: z.string(),
  to: z.string(),
  /** Local times, "HH:MM". */
  departure: z.string(),
  arrival: z.string(),
  durationMinutes: z.number().int().positive(),
  price: z.number().positive(),
})
export type Flight = z.infer<typeof flightSchema>

export const seatMapSchema = z.object({
  firstRow: z.number().int().positive(),
  lastRow: z.number().int().positive(),
  letters: z.array(z.string().length(1)),
  /** The aisle runs after these letters. */
  aisleAfter: z.array(z.string().length(1)),
  /** Taken seats, e.g. "12C". */
  taken: z.array(z.string()),
})
export type SeatMap = z.infer<typeof seatMapSchema>

const AIRLINES = [
  { name: 'SkyHigh Airways', code: 'SH' },
  { name: 'CloudAir', code: 'CA' },
  { name: 'JetStream', code: 'JS' },
] as const


function clock(minutes: number): string {
  const wrapped = ((minutes % 1440) + 1440) % 1440
  return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`
}

/** Search the (simulated) flights between two airports. */
export function searchFlights(from: string, to: string): Flight[] {
  const route = `${from.toUpperCase()}-${to.toUpperCase()}`
  // Route-dependent and stable: the same search always shows the same flights.
  const seed = stableHash(route)
  const durationMinutes = 75 + (seed % 300)
  return AIRLINES.map((airline, index) => {
    const departure = 6 * 60 + index * 255 + (seed % 45)
    const number = 100 + ((seed >>> (index * 4)) % 900)
    return {
      id: `${airline.code}-${number}`,
      airline: airline.name,
      flightNumber: `${airline.code} ${number}`,
      from: from.toUpperCase(),
      to: to.toUpperCase(),
      departure: clock(departure),
      arrival: clock(departure + durationMinutes + index * 10),
      durationMinutes: durationMinutes + index * 10,
      price: 199 + ((seed >>> (index * 3)) % 250) + index * 25,
    }
  })
}

/** The cabin of a flight, with some seats already taken. */
export function seatMapFor(flight: Flight): SeatMap {
  const letters = ['A', 'B', 'C', 'D', 'E', 'F']
  const firstRow = 10
  const lastRow = 21
  const taken: string[] = []
  for (let row = firstRow; row <= lastRow; row++) {
    for (const letter of letters) {
      // About a quarter of the cabin is taken, the same seats every time for a flight.
      if (seededNumber({ seed: `${flight.id}/${row}${letter}`, bound: 100 }) < 25) taken.push(`${row}${letter}`)
    }
  }
  return { firstRow, lastRow, letters, aisleAfter: ['C'], taken }
}

/** The free seats of a cabin, front to back and left to right. */
export function freeSeats(seatMap: SeatMap): Array<{ row: number; letter: string }> {
  const free: Array<{ row: number; letter: string }> = []
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const letter of seatMap.letters) if (!seatMap.taken.includes(`${row}${letter}`)) free.push({ row, letter })
  }
  return free
}

/** Where a seat letter sits: by a window (the outermost letters), by the aisle, or between. */
export function seatPosition(seatMap: SeatMap, letter: string): 'window' | 'aisle' | 'middle' {
  const index = seatMap.letters.indexOf(letter)
  if (index === 0 || index === seatMap.letters.length - 1) return 'window'
  const byAisle = seatMap.aisleAfter.includes(letter) || seatMap.aisleAfter.includes(seatMap.letters[index - 1]!)
  return byAisle ? 'aisle' : 'middle'
}

/** A flight as one titled choice of a form: "SH 769 · 06:39 → 09:03 · $218". */
export function flightTitle(flight: Flight): string {
  return `${flight.flightNumber} · ${flight.departure} → ${flight.arrival} · $${flight.price}`
}

export function formatFlight(flight: Flight): string {
  return `${flight.airline} ${flight.flightNumber} | ${flight.departure}-${flight.arrival} | $${flight.price}`
}

/** A new ticket number, e.g. "TKT-7KQ2MZ": random, so the tool makes it in a journaled step. */
export function createTicketNumber(): string {
  return createCode({ prefix: 'TKT-', length: 6 })
}
