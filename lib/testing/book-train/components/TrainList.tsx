import type { ElicitProps } from '../../../plugins'
import type { bookTrainTool } from '../tool'
import { trainTitle } from '../trains'

/** The fixture's train question: a button per train, and Decline. */
export function TrainList({ message, context: { trains }, respond, disabled, answered }: ElicitProps<typeof bookTrainTool, 'pickTrain'>) {
  const chosen = answered?.action === 'accept' ? answered.content.trainId : undefined
  return (
    <section aria-label="Trains">
      <p>{message}</p>
      <ul>
        {trains.map((train) => (
          <li key={train.id}>
            <button type="button" disabled={disabled} aria-pressed={chosen === train.id} onClick={() => respond({ action: 'accept', content: { trainId: train.id } })}>
              {trainTitle(train)}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" disabled={disabled} onClick={() => respond({ action: 'decline' })}>
        Decline
      </button>
    </section>
  )
}
