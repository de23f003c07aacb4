'use client'

import { useId, useState, type KeyboardEvent } from 'react'
import { PrimaryButton } from './PrimaryButton'

const FIELD =
  'w-full min-w-0 rounded-lg border border-zinc-500 bg-white px-3 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-500 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400'

/**
 * A labelled text field with a submit button: the shared look of "type an answer" questions.
 * One line (Enter submits) or, with `multiline`, a text box that grows a line at a time (Enter
 * makes a new line; Ctrl+Enter or ⌘+Enter submits). It starts from `defaultValue` — typically
 * the question's `defaults` — and submits the trimmed text. Once the question is answered or
 * stopped (`disabled`), it shows the text given, as text: nothing is left greyed out.
 *
 * @example
 * <TextField label="Invitation" multiline defaultValue={defaults?.text} submitLabel="Send" disabled={disabled}
 *   answer={answered?.action === 'accept' ? answered.content.text : undefined}
 *   onSubmit={(text) => respond({ action: 'accept', content: { text } })} />
 */
export function TextField({
  label,
  submitLabel = 'Send',
  placeholder,
  maxLength = 200,
  multiline = false,
  rows = 4,
  defaultValue = '',
  answer,
  disabled,
  onSubmit,
}: {
  label: string
  submitLabel?: string
  placeholder?: string
  maxLength?: number
  /** A text box of several lines instead of one line. */
  multiline?: boolean
  /** The text box's height in lines, when `multiline`. */
  rows?: number
  /** What the field starts with, for the person to edit (e.g. a drafted text from the question's `defaults`). */
  defaultValue?: string
  /** The answer already given, shown in place of what is typed. */
  answer?: string
  disabled: boolean
  onSubmit: (text: string) => void
}) {
  const id = useId()
  const [text, setText] = useState(defaultValue)
  const ready = !disabled && text.trim().length > 0
  const submit = () => {
    if (ready) onSubmit(text.trim())
  }

  if (disabled) {
    const shown = answer ?? ''
    return (
      <div className="mt-3 flex flex-col gap-1">
        <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{label}</p>
        <p className="whitespace-pre-wrap break-words rounded-lg bg-zinc-50 px-3 py-1.5 text-sm text-zinc-900 dark:bg-zinc-800/60 dark:text-zinc-100">
          {shown || <span className="text-zinc-600 dark:text-zinc-400">Nothing was given</span>}
        </p>
      </div>
    )
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      submit()
    }
  }
  return (
    <form
      className="mt-3 flex flex-col gap-1.5"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {multiline ? (
        <>
          <textarea
            id={id}
            value={text}
            rows={rows}
            maxLength={maxLength}
            placeholder={placeholder}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            className={`${FIELD} resize-y leading-relaxed`}
          />
          <div className="flex justify-end">
            <PrimaryButton type="submit" disabled={!ready}>
              {submitLabel}
            </PrimaryButton>
          </div>
        </>
      ) : (
        <div className="flex gap-2">
          <input id={id} value={text} maxLength={maxLength} placeholder={placeholder} onChange={(event) => setText(event.target.value)} className={`${FIELD} flex-1`} />
          <PrimaryButton type="submit" disabled={!ready}>
            {submitLabel}
          </PrimaryButton>
        </div>
      )}
    </form>
  )
}
