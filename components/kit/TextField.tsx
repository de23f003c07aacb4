'use client'

import { useId, useState, type KeyboardEvent } from 'react'
import { AnsweredField, controlProps, FIELD, LABEL, labelText, Notes, type FieldNotes } from './field-parts'
import { PrimaryButton } from './PrimaryButton'

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const

/**
 * A labelled text field: the shared look of "type an answer" questions. One line or, with
 * `multiline`, a text box that grows a line at a time. Once the question is answered or stopped
 * (`disabled`), it shows the text given (`answer`), as text: nothing is left greyed out.
 *
 * With `onSubmit` it is a question of its own, with its submit button: it starts from
 * `defaultValue` (typically the question's `defaults`) and submits the trimmed text (Enter on
 * one line; Ctrl+Enter or ⌘+Enter in a text box). Without it, it is one field of a larger form
 * (`Form`, or your own): no button, its text is `value`, each change goes to `onChange`.
 *
 * @example
 * <TextField label="Invitation" multiline defaultValue={defaults?.text} submitLabel="Send" disabled={disabled}
 *   answer={answered?.action === 'accept' ? answered.content.text : undefined}
 *   onSubmit={(text) => respond({ action: 'accept', content: { text } })} />
 * <TextField label="Name" value={name} onChange={setName} disabled={disabled} answer={answered?.content.name} />
 */
export function TextField({
  label,
  submitLabel = 'Send',
  placeholder,
  maxLength,
  minLength,
  format,
  multiline = false,
  rows = 4,
  defaultValue = '',
  value,
  onChange,
  answer,
  disabled,
  onSubmit,
  id: givenId,
  ...notes
}: {
  label: string
  submitLabel?: string
  placeholder?: string
  maxLength?: number
  minLength?: number
  /** One of the MCP form formats: the browser's own control for it (an email, a link, a date, a date and time). */
  format?: keyof typeof INPUT_TYPE
  /** A text box of several lines instead of one line. */
  multiline?: boolean
  /** The text box's height in lines, when `multiline`. */
  rows?: number
  /** What the field starts with, for the person to edit (e.g. a drafted text from the question's `defaults`). */
  defaultValue?: string
  /** The text, when a form around the field holds it (with `onChange`). */
  value?: string
  onChange?: (text: string) => void
  /** The answer already given, shown in place of what is typed. */
  answer?: string
  disabled: boolean
  /** Its own submit button, which sends the trimmed text; without it, the field is part of a larger form. */
  onSubmit?: (text: string) => void
  /** The control's id, when the form around it needs it (to move the focus to a field it refused). */
  id?: string
} & FieldNotes) {
  const ownId = useId()
  const id = givenId ?? ownId
  const [typed, setTyped] = useState(defaultValue)
  const text = value ?? typed
  const change = (next: string) => {
    setTyped(next)
    onChange?.(next)
  }
  const ready = !disabled && text.trim().length > 0
  const submit = () => {
    if (ready) onSubmit?.(text.trim())
  }

  if (disabled) {
    const answered = <AnsweredField label={label} value={answer} />
    return onSubmit ? <div className="mt-3">{answered}</div> : answered
  }

  // A question of its own takes a short answer unless told otherwise; a field of a form, what its form allows.
  const control = { ...controlProps(id, notes), value: text, maxLength: maxLength ?? (onSubmit ? 200 : undefined), minLength, placeholder }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (onSubmit && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      submit()
    }
  }
  const box = multiline ? (
    <textarea id={id} rows={rows} {...control} onChange={(event) => change(event.target.value)} onKeyDown={onKeyDown} className={`${FIELD} resize-y leading-relaxed`} />
  ) : (
    <input id={id} {...control} type={format ? INPUT_TYPE[format] : 'text'} onChange={(event) => change(event.target.value)} className={`${FIELD} flex-1`} />
  )
  const labelled = (
    <label htmlFor={id} className={LABEL}>
      {labelText(label, notes.required)}
    </label>
  )

  if (!onSubmit) {
    return (
      <div className="flex flex-col gap-1.5">
        {labelled}
        {box}
        <Notes id={id} {...notes} />
      </div>
    )
  }
  const button = (
    <PrimaryButton type="submit" disabled={!ready}>
      {submitLabel}
    </PrimaryButton>
  )
  return (
    <form
      className="mt-3 flex flex-col gap-1.5"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      {labelled}
      {multiline ? (
        <>
          {box}
          <div className="flex justify-end">{button}</div>
        </>
      ) : (
        <div className="flex gap-2">
          {box}
          {button}
        </div>
      )}
      <Notes id={id} {...notes} />
    </form>
  )
}
