import type { QuestionProps } from '../../../../plugins/types'
import type { Size } from './colors'

/**
 * The fixture's size question: answers with the tool's shape `{ width, height }`, which the app
 * turns into the form's one choice field ("40x60"). `unoffered` answers a size that was not
 * offered, for the test that the server refuses it.
 */
export function SizePicker({ message, context, respond, disabled, answered }: QuestionProps<{ sizes: Size[] }, Size>) {
  const chosen = answered?.action === 'accept' ? answered.content : undefined
  return (
    <section aria-label="Sizes" className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900">
      <p className="text-sm font-medium text-zinc-900 dark:text-zinc-50">{message}</p>
      <div className="mt-2 flex gap-2">
        {context.sizes.map((size) => (
          <button
            key={`${size.width}x${size.height}`}
            type="button"
            disabled={disabled}
            aria-pressed={chosen?.width === size.width && chosen.height === size.height}
            onClick={() => respond({ action: 'accept', content: size })}
            className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm text-zinc-800 dark:border-zinc-600 dark:text-zinc-100"
          >
            {size.width} × {size.height}
          </button>
        ))}
        <button type="button" disabled={disabled} onClick={() => respond({ action: 'accept', content: { width: 1, height: 1 } })} className="text-sm text-zinc-500">
          A size not offered
        </button>
        <button type="button" disabled={disabled} onClick={() => respond({ action: 'cancel' })} className="text-sm text-zinc-500">
          Cancel
        </button>
      </div>
    </section>
  )
}
