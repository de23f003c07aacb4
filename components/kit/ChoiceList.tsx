import type { ReactNode } from 'react'

/**
 * A list of choices, one button each, the chosen one pressed; the shared look of "pick one of
 * these" questions (flights, dishes, time slots). Stays on screen, disabled, once answered.
 *
 * @example
 * <ChoiceList choices={slots} keyOf={(slot) => slot} labelOf={(slot) => `Table at ${slot}`}
 *   chosen={answered?.action === 'accept' ? answered.content.time : undefined} disabled={disabled}
 *   onChoose={(slot) => respond({ action: 'accept', content: { time: slot } })} render={(slot) => slot} />
 */
export function ChoiceList<T>({
  choices,
  keyOf,
  labelOf,
  render,
  chosen,
  disabled,
  onChoose,
}: {
  choices: readonly T[]
  keyOf: (choice: T) => string
  /** Each button's accessible name. */
  labelOf: (choice: T) => string
  render: (choice: T, state: { chosen: boolean }) => ReactNode
  /** The key of the choice made, if any. */
  chosen?: string
  disabled: boolean
  onChoose: (choice: T) => void
}) {
  return (
    <ul className="mt-3 space-y-2">
      {choices.map((choice) => {
        const key = keyOf(choice)
        const isChosen = key === chosen
        return (
          <li key={key}>
            <button
              type="button"
              aria-label={labelOf(choice)}
              aria-pressed={isChosen}
              disabled={disabled}
              onClick={() => onChoose(choice)}
              className={[
                'group w-full rounded-lg border px-3 py-2.5 text-left transition',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-900',
                isChosen
                  ? 'border-sky-500 bg-sky-50 ring-1 ring-sky-500 dark:border-sky-400 dark:bg-sky-500/10 dark:ring-sky-400'
                  : 'border-zinc-200 bg-white enabled:hover:border-sky-400 enabled:hover:bg-sky-50/60 dark:border-zinc-700 dark:bg-zinc-900 dark:enabled:hover:border-sky-500 dark:enabled:hover:bg-sky-500/5',
                disabled && !isChosen ? 'opacity-50' : '',
                disabled ? 'cursor-default' : 'cursor-pointer',
              ].join(' ')}
            >
              {render(choice, { chosen: isChosen })}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
