'use client'

import { useId } from 'react'
import { AnsweredField, controlProps, FIELD, LABEL, labelText, Notes, type FieldNotes } from './field-parts'

/**
 * A labelled number box, a field of a larger form (`Form`, or your own): whole numbers only
 * with `integer`, within `minimum` and `maximum` when given. Its `value` is the text typed (so
 * that a half-typed "-" or "1." is not lost); read it with `Number(value)` when the form is sent.
 * Once the question is answered or stopped (`disabled`), it shows the number given, as text.
 *
 * @example
 * <NumberField label="Guests" integer minimum={1} maximum={8} value={guests} onChange={setGuests}
 *   disabled={disabled} answer={answered?.action === 'accept' ? answered.content.guests : undefined} />
 */
export function NumberField({
  label,
  value,
  onChange,
  integer = false,
  minimum,
  maximum,
  answer,
  disabled,
  id: givenId,
  ...notes
}: {
  label: string
  /** What is typed, as text. */
  value: string
  onChange: (text: string) => void
  integer?: boolean
  minimum?: number
  maximum?: number
  /** The number already given, shown in place of the box. */
  answer?: number
  disabled: boolean
  id?: string
} & FieldNotes) {
  const ownId = useId()
  const id = givenId ?? ownId
  if (disabled) return <AnsweredField label={label} value={answer === undefined ? undefined : String(answer)} />
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={LABEL}>
        {labelText(label, notes.required)}
      </label>
      <input
        id={id}
        {...controlProps(id, notes)}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        step={integer ? 1 : 'any'}
        min={minimum}
        max={maximum}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`${FIELD} sm:max-w-48`}
      />
      <Notes id={id} {...notes} />
    </div>
  )
}
