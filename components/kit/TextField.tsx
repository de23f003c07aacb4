'use client'

import { useId, useState } from 'react'

/**
 * A labelled text field with a submit button: the shared look of "type an answer" questions.
 * Submits the trimmed text (Enter or the button); shows the answer, disabled, once given.
 *
 * @example
 * <TextField label="Name for the booking" submitLabel="Confirm" disabled={disabled}
 *   answer={answered?.action === 'accept' ? answered.content.name : undefined}
 *   onSubmit={(name) => respond({ action: 'accept', content: { name } })} />
 */
export function TextField({
  label,
  submitLabel = 'Send',
  placeholder,
  maxLength = 200,
  answer,
  disabled,
  onSubmit,
}: {
  label: string
  submitLabel?: string
  placeholder?: string
  maxLength?: number
  /** The answer already given, shown in place of what is typed. */
  answer?: string
  disabled: boolean
  onSubmit: (text: string) => void
}) {
  const id = useId()
  const [text, setText] = useState('')
  const value = answer ?? text
  const ready = !disabled && text.trim().length > 0
  return (
    <form
      className="mt-3 flex flex-col gap-1.5"
      onSubmit={(event) => {
        event.preventDefault()
        if (ready) onSubmit(text.trim())
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          className="min-w-0 flex-1 rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:opacity-60 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <button
          type="submit"
          disabled={!ready}
          className="rounded-lg bg-sky-700 px-4 py-1.5 text-sm font-semibold text-white shadow-sm transition enabled:hover:bg-sky-800 disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 dark:bg-sky-600 dark:focus-visible:ring-offset-zinc-900"
        >
          {submitLabel}
        </button>
      </div>
    </form>
  )
}
