import type { ElicitAnswer } from '@/lib/protocol'
import { QuietButton } from '../QuietButton'

export const ANSWER_BUTTON =
  'rounded-lg bg-sky-700 px-3 py-1.5 text-sm font-medium text-white transition enabled:hover:bg-sky-800 disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-900'

const SAID = { accept: 'Accepted', decline: 'Declined', cancel: 'Cancelled' } as const

/** How a question was answered, once it was. */
export function AnswerSummary({ answer, accepted = SAID.accept, declined = SAID.decline }: { answer: ElicitAnswer<unknown>; accepted?: string; declined?: string }) {
  const text = answer.action === 'accept' ? accepted : answer.action === 'decline' ? declined : SAID.cancel
  return (
    <p className="text-sm font-medium text-zinc-700 dark:text-zinc-300" data-testid="external-answer">
      {text}.
    </p>
  )
}

/**
 * Cancel, Decline and Accept, in that order. Accept submits the form around it when `onAccept`
 * is not given; `acceptDisabled` holds it back (e.g. until the user confirms).
 */
export function AnswerButtons({
  disabled,
  acceptDisabled = false,
  onRespond,
  onAccept,
}: {
  disabled: boolean
  acceptDisabled?: boolean
  onRespond(answer: ElicitAnswer<unknown>): void
  onAccept?: () => void
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'cancel' })}>
        Cancel
      </QuietButton>
      <QuietButton disabled={disabled} onClick={() => onRespond({ action: 'decline' })}>
        Decline
      </QuietButton>
      <button type={onAccept ? 'button' : 'submit'} disabled={disabled || acceptDisabled} className={ANSWER_BUTTON} onClick={onAccept}>
        Accept
      </button>
    </div>
  )
}
