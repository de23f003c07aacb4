import type { Operation } from 'effection'
import { z } from 'zod'
import { askUntilValid, createCode } from '../../plugins/kit'
import { createMcpTool, field, question } from '../../tools'
import { freeSeats, searchTrains, seatMapFor, seatMapSchema, trainSchema, trainTitle, type SeatMap, type Train } from './trains'

export type BookTrainResult =
  | { status: 'confirmed'; ticketNumber: string; train: Train; seat: string; price: number; tip: string }
  | { status: 'cancelled'; step: 'train' | 'seat'; message: string }

/**
 * The framework's own fixture tool: `lib/` is tested on it, never on the demo plugins, so a new
 * plugin changes no framework test. It uses every ctx call a real tool does, in this order:
 * notify, log, then a train from a pick list (an id that was not offered is asked again, by the
 * tool), a seat whose form choice ("3B") stands for the answer `{ row, seat }` (a taken seat is
 * asked again), a travel tip sampled from the model, a ticket number drawn in a journaled step,
 * a log and the last notify. A decline or cancel ends it with `status: 'cancelled'`.
 */
export const bookTrainTool = createMcpTool('book_train')
  .description('Book a train for the user: finds three trains, lets them pick one and a seat, and issues a ticket.')
  .parameters(
    z.object({
      from: z.string().trim().min(2).max(64).describe('Departure station, e.g. Paris'),
      to: z.string().trim().min(2).max(64).describe('Arrival station, e.g. Lyon'),
    }),
  )
  .title(({ from, to }) => `${from} → ${to}`)
  .elicits({
    pickTrain: question({
      response: z.object({ trainId: z.string().min(1).meta({ title: 'Train' }) }),
      context: z.object({ from: z.string(), to: z.string(), trains: z.array(trainSchema) }),
      form: ({ trains }) => ({ trainId: field.choice('Train', trains.map((train) => ({ value: train.id, title: trainTitle(train) }))) }),
    }),
    pickSeat: question({
      response: z.object({
        row: z.number().int().positive().meta({ title: 'Row' }),
        seat: z.string().regex(/^[A-Z]$/).meta({ title: 'Seat letter' }),
      }),
      context: z.object({ train: trainSchema, seatMap: seatMapSchema }),
      form: ({ seatMap }) => ({
        seat: field.choice(
          'Seat',
          freeSeats(seatMap).map(({ row, seat }) => ({ value: `${row}${seat}`, title: `Row ${row}, seat ${seat}`, answer: { row, seat } })),
        ),
      }),
    }),
  })
  .execute(function* ({ from, to }, ctx): Operation<BookTrainResult> {
    yield* ctx.notify(`Searching trains from ${from} to ${to}`, 0.1)
    const trains = searchTrains(from, to)
    yield* ctx.log('info', `Found ${trains.length} trains from ${from} to ${to}`)

    const trainChoice = yield* askUntilValid({
      *ask(problem) {
        yield* ctx.notify('Waiting for a train choice', 0.25)
        const lead = problem ?? `Select your train from ${from} to ${to}:`
        return yield* ctx.elicit('pickTrain', {
          message: `${lead}\n\n${trains.map((train, index) => `${index + 1}. ${trainTitle(train)}`).join('\n')}`,
          from,
          to,
          trains,
        })
      },
      check: ({ trainId }) => {
        const offered = trains.find((train) => train.id === trainId)
        return offered ? { value: offered } : { problem: `Train ${trainId} is not one of the offered trains. Select your train:` }
      },
    })
    if (trainChoice.action !== 'accept') {
      return { status: 'cancelled', step: 'train', message: 'The user declined to choose a train; nothing was booked.' }
    }
    const train = trainChoice.value

    const seatMap = seatMapFor(train)
    const seatChoice = yield* askUntilValid({
      *ask(problem) {
        yield* ctx.notify('Waiting for a seat choice', 0.5)
        return yield* ctx.elicit('pickSeat', { message: problem ?? seatQuestion(train, seatMap), train, seatMap })
      },
      check: ({ row, seat }) => {
        const chosen = `${row}${seat}`
        const exists = row >= seatMap.firstRow && row <= seatMap.lastRow && seatMap.letters.includes(seat)
        if (exists && !seatMap.taken.includes(chosen)) return { value: chosen }
        return { problem: `Seat ${chosen} is ${exists ? 'taken' : 'not on this train'}. Select another seat on ${train.number}:` }
      },
    })
    if (seatChoice.action !== 'accept') {
      return { status: 'cancelled', step: 'seat', message: `The user cancelled at seat selection; ${train.number} was not booked.` }
    }
    const seat = seatChoice.value

    yield* ctx.notify('Finding a travel tip', 0.8)
    const tip = yield* ctx.sample({ prompt: `Give one short, practical travel tip for a traveller arriving at ${to} station.`, maxTokens: 120 })
    const ticketNumber = yield* ctx.step('issue ticket', function* () {
      return createCode({ prefix: 'TKT-', length: 6 })
    })
    yield* ctx.log('info', `Issued ticket ${ticketNumber} for ${train.number}, seat ${seat}`)
    yield* ctx.notify('Booking confirmed', 1)
    return { status: 'confirmed', ticketNumber, train, seat, price: train.price, tip: tip.text.trim() }
  })

/** The seat question in words: the train, and how many seats are left to choose from. */
function seatQuestion(train: Train, seatMap: SeatMap): string {
  const total = (seatMap.lastRow - seatMap.firstRow + 1) * seatMap.letters.length
  return `Select your seat on ${train.number}: ${freeSeats(seatMap).length} of ${total} seats are free.`
}
