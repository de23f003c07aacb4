'use client'

import type { KeyboardEvent, ReactNode } from 'react'
import { choiceFromKey } from './choice-from-key'

const CHOSEN = 'border-sky-600 bg-sky-50 ring-1 ring-sky-600 dark:border-sky-400 dark:bg-sky-500/10 dark:ring-sky-400'
const OFFERED = 'border-zinc-300 bg-white dark:border-zinc-600 dark:bg-zinc-900'

/**
 * Pick one of these: a button per choice, in a column (`layout="list"`: flights, dishes) or in
 * as many columns as fit (`layout="grid"`: time slots, cards). Arrow keys move between the
 * choices (up and down by row in a grid), Home and End to the first and last; Tab walks through
 * them too. Each button is named by what it shows; give `labelOf` only to say more, and start
 * it with the words shown (WCAG 2.5.3). Once answered or stopped (`disabled`) the choices stay
 * as a plain list with the chosen one marked — nothing greyed out is left to press.
 *
 * @example
 * <ChoiceList layout="grid" choices={slots} keyOf={(slot) => slot.id} render={(slot) => slot.time}
 *   chosen={answered?.action === 'accept' ? answered.content.slotId : undefined} disabled={disabled}
 *   onChoose={(slot) => respond({ action: 'accept', content: { slotId: slot.id } })} />
 */
export function ChoiceList<T>({
  choices,
  keyOf,
  labelOf,
  render,
  chosen,
  disabled,
  onChoose,
  layout = 'list',
  minItemWidth = '8rem',
  label,
}: {
  choices: readonly T[]
  keyOf: (choice: T) => string
  /** A button's accessible name, when its content alone does not say enough; it starts with the words shown. */
  labelOf?: (choice: T) => string
  render: (choice: T, state: { chosen: boolean }) => ReactNode
  /** The key of the choice made, if any. */
  chosen?: string
  disabled: boolean
  onChoose: (choice: T) => void
  /** One column, or as many columns of at least `minItemWidth` as fit. */
  layout?: 'list' | 'grid'
  /** The narrowest a choice gets in a grid (a CSS length). */
  minItemWidth?: string
  /** The list's accessible name, when there is more than one list in the question. */
  label?: string
}) {
  const frame =
    layout === 'grid'
      ? { className: 'mt-3 grid gap-1.5 sm:gap-2', style: { gridTemplateColumns: `repeat(auto-fill, minmax(min(${minItemWidth}, 100%), 1fr))` } }
      : { className: 'mt-3 flex flex-col gap-2' }
  const box = `h-full w-full rounded-lg border ${layout === 'grid' ? 'p-1 text-center sm:p-1.5' : 'px-3 py-2.5 text-left'}`

  if (disabled) {
    return (
      <ul {...frame} aria-label={label}>
        {choices.map((choice) => {
          const isChosen = keyOf(choice) === chosen
          return (
            <li key={keyOf(choice)} aria-current={isChosen || undefined} className={`${box} ${isChosen ? CHOSEN : `${OFFERED} text-zinc-600 dark:text-zinc-400`}`}>
              {render(choice, { chosen: isChosen })}
            </li>
          )
        })}
      </ul>
    )
  }
  return (
    <ul {...frame} aria-label={label} onKeyDown={moveFocus}>
      {choices.map((choice) => {
        const key = keyOf(choice)
        const isChosen = key === chosen
        return (
          <li key={key}>
            <button
              type="button"
              aria-label={labelOf?.(choice)}
              aria-pressed={isChosen}
              onClick={() => onChoose(choice)}
              className={[
                'group cursor-pointer transition',
                box,
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-zinc-900',
                isChosen ? CHOSEN : `${OFFERED} hover:border-sky-500 hover:bg-sky-50/60 dark:hover:border-sky-400 dark:hover:bg-sky-500/5`,
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

/** Arrow keys, Home and End move the focus between the list's buttons, as they are laid out. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')]
  const from = buttons.findIndex((button) => button === document.activeElement)
  if (from === -1) return
  const target = choiceFromKey({ from, key: event.key, boxes: buttons.map((button) => button.getBoundingClientRect()) })
  if (target === undefined && !['Home', 'End', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) return
  event.preventDefault()
  if (target !== undefined) buttons[target]?.focus()
}
