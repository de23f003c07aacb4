import type { QuestionProps } from '../../../../plugins/types'
import type { Colour } from './colors'

/** The fixture's colour question: a swatch per colour, and Decline. */
export function ColourPicker({ message, context, choices, respond, disabled, answered }: QuestionProps<{ colours: Colour[] }, { colour: string }>) {
  const chosen = answered?.action === 'accept' ? answered.content.colour : undefined
  // The form's titles (its choices) name the swatches: what a native form would show.
  const titleOf = (id: string) => choices.colour?.find((choice) => choice.value === id)?.title ?? id
  return (
    <section aria-label="Colours" className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900">
      <p className="text-sm font-medium text-zinc-900 dark:text-zinc-50">{message}</p>
      <ul className="mt-2 flex gap-2">
        {context.colours.map((colour) => (
          <li key={colour.id}>
            <button
              type="button"
              disabled={disabled}
              aria-pressed={chosen === colour.id}
              onClick={() => respond({ action: 'accept', content: { colour: colour.id } })}
              className="flex items-center gap-2 rounded-lg border border-zinc-300 px-3 py-1.5 text-sm text-zinc-800 enabled:hover:bg-zinc-100 aria-pressed:ring-2 aria-pressed:ring-sky-500 dark:border-zinc-600 dark:text-zinc-100 dark:enabled:hover:bg-zinc-800"
            >
              <span aria-hidden="true" className="h-3 w-3 rounded-full" style={{ background: colour.hex }} />
              {titleOf(colour.id)}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" disabled={disabled} onClick={() => respond({ action: 'decline' })} className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        Decline
      </button>
    </section>
  )
}
