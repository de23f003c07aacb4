import type { ElicitProps } from '../../../plugins'
import type { bookTrainTool } from '../tool'
import { freeSeats } from '../trains'

/** The fixture's seat question: a button per free seat, answering the tool's own shape `{ row, seat }`, and Cancel. */
export function SeatChoice({ message, context: { seatMap }, respond, disabled, answered }: ElicitProps<typeof bookTrainTool, 'pickSeat'>) {
  const chosen = answered?.action === 'accept' ? `${answered.content.row}${answered.content.seat}` : undefined
  return (
    <section aria-label="Seats">
      <p>{message}</p>
      {freeSeats(seatMap).map(({ row, seat }) => (
        <button key={`${row}${seat}`} type="button" disabled={disabled} aria-pressed={chosen === `${row}${seat}`} onClick={() => respond({ action: 'accept', content: { row, seat } })}>
          {row}
          {seat}
        </button>
      ))}
      <button type="button" disabled={disabled} onClick={() => respond({ action: 'cancel' })}>
        Cancel
      </button>
    </section>
  )
}
