import type { ReactNode } from 'react'

/** The look of every text and number box of the kit: a visible border (4.6:1 on white and on zinc-900), a sky focus ring, red when invalid. */
export const FIELD =
  'w-full min-w-0 rounded-lg border border-zinc-500 bg-white px-3 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 aria-[invalid=true]:border-red-600 dark:border-zinc-500 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:aria-[invalid=true]:border-red-400'

export const LABEL = 'text-sm font-medium text-zinc-800 dark:text-zinc-200'

/** What a field of a form says besides its label: its description, and why its value was not taken. */
export interface FieldNotes {
  description?: string
  /** Why the value was not taken; the field is marked invalid and says it. */
  error?: string
  /** Marked with a * after the label (and `aria-required`). */
  required?: boolean
}

/** A field's label text, with its * when required. */
export function labelText(label: string, required?: boolean): ReactNode {
  return (
    <>
      {label}
      {required ? <span aria-hidden="true"> *</span> : null}
    </>
  )
}

/** The props every control of a field takes besides its id: what describes it (`aria-describedby`), invalid, required. */
export function controlProps(id: string, { description, error, required }: FieldNotes) {
  const described = [description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': described, 'aria-required': required || undefined } as const
}

/** The description and the error under a field, each with the id its control is described by. */
export function Notes({ id, description, error }: { id: string } & FieldNotes) {
  return (
    <>
      {description ? (
        <p id={`${id}-description`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </>
  )
}

/** A field once its question is answered or stopped: its label and the value given, as text (nothing greyed out is left). */
export function AnsweredField({ label, value }: { label: string; value?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <p className={LABEL}>{label}</p>
      <p className="whitespace-pre-wrap break-words rounded-lg bg-zinc-50 px-3 py-1.5 text-sm text-zinc-900 dark:bg-zinc-800/60 dark:text-zinc-100">
        {value || <span className="text-zinc-600 dark:text-zinc-400">Nothing was given</span>}
      </p>
    </div>
  )
}
