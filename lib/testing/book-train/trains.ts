import { z } from 'zod'
import { seededNumber, stableHash } from '../../plugins/kit'

export const trainSchema = z.object({
  id: z.string(),
  /** As a timetable shows it: "IC 412". */
  number: z.string(),
  from: z.string(),
  to: z.string(),
  /** Local time, "HH:MM". */
  departure: z.string(),
  price: z.number().positive(),
})
export type Train = z.infer<typeof trainSchema>

export const seatMapSchema = z.object({
  firstRow: z.number().int().positive(),
  lastRow: z.number().int().positive(),
  letters: z.array(z.string().length(1)),
  /** Taken seats, e.g. "3C". */
  taken: z.array(z.string()),
})
export type SeatMap = z.infer<typeof seatMapSchema>

/** The three trains between two stations: the same for the same route, every time (nothing is stored). */
export function searchTrains(from: string, to: string): Train[] {
  const route = `${from}-${to}`
  return [0, 1, 2].map((index) => {
    const number = 100 + index * 300 + seededNumber({ seed: `${route}/${index}`, bound: 300 })
    const minutes = 6 * 60 + index * 240 + seededNumber({ seed: `${route}/time`, bound: 60 })
    return {
      id: `IC-${number}`,
      number: `IC ${number}`,
      from,
      to,
      departure: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
      price: 30 + index * 15 + seededNumber({ seed: `${route}/price/${index}`, bound: 20 }),
    }
  })
}

/** A train's coach: 6 rows of 4 seats, a quarter of them taken (at least one), the same ones every time. */
export function seatMapFor(train: Train): SeatMap {
  const letters = ['A', 'B', 'C', 'D']
  const offset = stableHash(train.id) % 4
  const taken: string[] = []
  for (let row = 1; row <= 6; row++) {
    letters.forEach((letter, index) => {
      if ((row + index + offset) % 4 === 0) taken.push(`${row}${letter}`)
    })
  }
  return { firstRow: 1, lastRow: 6, letters, taken }
}

/** The free seats of a coach, front to back, each as the seat question's answer: `{ row, seat }`. */
export function freeSeats(seatMap: SeatMap): Array<{ row: number; seat: string }> {
  const free: Array<{ row: number; seat: string }> = []
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const seat of seatMap.letters) if (!seatMap.taken.includes(`${row}${seat}`)) free.push({ row, seat })
  }
  return free
}

/** A train as a line of the question and a titled choice of its form: "IC 412 · 08:15 · $45". */
export function trainTitle(train: Train): string {
  return `${train.number} · ${train.departure} · $${train.price}`
}
