'use client'

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import type { FlatFormField } from '@/lib/mcp/client/flat-form'
import { AnsweredField, controlProps, FIELD, LABEL, labelText, Notes } from './field-parts'
import { NumberField } from './NumberField'
import { TextField } from './TextField'

type Values = Record<string, unknown>
type AnswerChecks = typeof import('@/lib/mcp/client/flat-form-answer')

/** The answers' check, loaded once, when a form is first shown: it needs Zod, which the chat's first load does not carry. */
let answerChecks: Promise<AnswerChecks> | undefined
function loadAnswerChecks(): Promise<AnswerChecks> {
  // Zod told first not to compile parsers, which the page's CSP forbids (zod-without-eval.ts).
  const loading = (answerChecks ??= import('@/lib/plugins/zod-without-eval').then(() => import('@/lib/mcp/client/flat-form-answer')))
  // A load that failed (the network) is tried again by the next form or submit.
  loading.catch(() => {
    if (answerChecks === loading) answerChecks = undefined
  })
  return loading
}

/**
 * A form of several fields, one per field of an MCP form (`parseFlatForm` of a `requestedSchema`):
 * text, numbers, yes/no, a choice (buttons for up to three, a list for more) and a multiple
 * choice, each labelled, its default filled in, required ones marked with *. On submit it
 * checks what is filled in against the same schema the server checks the answer with: a field
 * it refuses says why and takes the focus; otherwise `onSubmit` gets the content, typed (numbers
 * as numbers, empty optional fields left out). `children` are its buttons, one of them
 * `type="submit"`. Once answered (`disabled`), each field shows what was given, as text.
 *
 * @example
 * <Form fields={parseFlatForm(requestedSchema)} disabled={disabled} answer={answered?.content}
 *   onSubmit={(content) => respond({ action: 'accept', content })}>
 *   <PrimaryButton type="submit">Send</PrimaryButton>
 * </Form>
 */
export function Form({
  fields,
  disabled,
  answer,
  onSubmit,
  children,
}: {
  fields: readonly FlatFormField[]
  disabled: boolean
  /** The content already given, shown once the form is answered. */
  answer?: Values
  onSubmit: (content: Values) => void
  children?: ReactNode
}) {
  const id = useId()
  const [values, setValues] = useState<Values>(() => Object.fromEntries(fields.map((field) => [field.name, initialValue(field)])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  /** Why the answer could not be checked (its check did not load), until the next submit. */
  const [unchecked, setUnchecked] = useState<string>()
  /** A submit waiting for the check to load: a second one meanwhile is the same click, not another answer. */
  const submitting = useRef(false)
  const set = (name: string, value: unknown) => setValues((current) => ({ ...current, [name]: value }))
  // Loaded while the person fills it in, so that a submit does not wait for it.
  useEffect(() => {
    if (!disabled) loadAnswerChecks().catch(() => {})
  }, [disabled])

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (disabled || submitting.current) return
    let checks: AnswerChecks
    submitting.current = true
    try {
      checks = await loadAnswerChecks()
    } catch {
      setUnchecked('The form could not be checked: the page could not reach the server. Try again.')
      return
    } finally {
      submitting.current = false
    }
    setUnchecked(undefined)
    const checked = checks.flatFormAnswerSchema(fields).safeParse(contentOf(fields, values))
    if (!checked.success) {
      const found: Record<string, string> = {}
      for (const issue of checked.error.issues) found[String(issue.path[0] ?? '')] ??= issue.message
      setErrors(found)
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus()
      return
    }
    setErrors({})
    onSubmit(checked.data)
  }

  const required = fields.some((field) => field.required)
  return (
    <form className="mt-3 space-y-3" onSubmit={submit} noValidate aria-describedby={required ? `${id}-required` : undefined}>
      {required && !disabled ? (
        <p id={`${id}-required`} className="text-xs text-zinc-600 dark:text-zinc-400">
          Fields marked * are required.
        </p>
      ) : null}
      {fields.map((field) => (
        <Field
          key={field.name}
          id={`${id}-${field.name}`}
          field={field}
          value={values[field.name]}
          given={answer?.[field.name]}
          error={errors[field.name]}
          disabled={disabled}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      {unchecked ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {unchecked}
        </p>
      ) : null}
      {children}
    </form>
  )
}

function Field({
  id,
  field,
  value,
  given,
  error,
  disabled,
  onChange,
}: {
  id: string
  field: FlatFormField
  value: unknown
  given: unknown
  error?: string
  disabled: boolean
  onChange: (value: unknown) => void
}) {
  const notes = { ...(field.description ? { description: field.description } : {}), ...(error ? { error } : {}), required: field.required }
  if (field.kind === 'text') {
    return (
      <TextField
        id={id}
        label={field.label}
        format={field.format}
        minLength={field.minLength}
        maxLength={field.maxLength}
        value={displayText(field, value)}
        onChange={onChange}
        disabled={disabled}
        answer={typeof given === 'string' ? given : undefined}
        {...notes}
      />
    )
  }
  if (field.kind === 'number') {
    return (
      <NumberField
        id={id}
        label={field.label}
        integer={field.integer}
        minimum={field.minimum}
        maximum={field.maximum}
        value={(value as string | undefined) ?? ''}
        onChange={onChange}
        disabled={disabled}
        answer={typeof given === 'number' ? given : undefined}
        {...notes}
      />
    )
  }
  if (disabled) return <AnsweredField label={field.label} value={answeredText(field, given)} />
  if (field.kind === 'boolean') {
    return (
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input type="checkbox" id={id} {...controlProps(id, notes)} checked={value === true} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4" />
          {labelText(field.label, field.required)}
        </label>
        <Notes id={id} {...notes} />
      </div>
    )
  }
  if (field.kind === 'multi-choice' || field.options.length <= 3) {
    const multiple = field.kind === 'multi-choice'
    const chosen = multiple ? ((value as string[] | undefined) ?? []) : [value as string]
    const { 'aria-describedby': described, 'aria-invalid': invalid } = controlProps(id, notes)
    return (
      <fieldset className="space-y-1" aria-describedby={described} aria-invalid={invalid}>
        <legend className={LABEL}>{labelText(field.label, field.required)}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {field.options.map((option, index) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={id}
                id={index === 0 ? id : undefined}
                value={option.value}
                checked={chosen.includes(option.value)}
                onChange={(event) =>
                  onChange(multiple ? (event.target.checked ? [...chosen, option.value] : chosen.filter((item) => item !== option.value)) : option.value)
                }
                className="h-4 w-4"
              />
              {option.label}
            </label>
          ))}
        </div>
        <Notes id={id} {...notes} />
      </fieldset>
    )
  }
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={LABEL}>
        {labelText(field.label, field.required)}
      </label>
      <select id={id} {...controlProps(id, notes)} value={(value as string | undefined) ?? ''} onChange={(event) => onChange(event.target.value)} className={FIELD}>
        {field.required && value !== undefined ? null : <option value="">—</option>}
        {field.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Notes id={id} {...notes} />
    </div>
  )
}

/** What was given for a yes/no or choice field, in its words: the choices' labels, Yes or No. */
function answeredText(field: Extract<FlatFormField, { kind: 'boolean' | 'choice' | 'multi-choice' }>, given: unknown): string | undefined {
  if (field.kind === 'boolean') return given === undefined ? undefined : given === true ? 'Yes' : 'No'
  const labelOf = (value: unknown) => field.options.find((option) => option.value === value)?.label ?? String(value)
  if (Array.isArray(given)) return given.map(labelOf).join(', ')
  return given === undefined ? undefined : labelOf(given)
}

function initialValue(field: FlatFormField): unknown {
  switch (field.kind) {
    case 'number':
      return field.default === undefined ? '' : String(field.default)
    case 'boolean':
      return field.default ?? false
    case 'multi-choice':
      return field.default ?? []
    case 'choice':
      return field.default
    case 'text':
      return field.default ?? ''
  }
}

/** What the form holds, as the schema types it: numbers as numbers, empty optional fields left out. */
function contentOf(fields: readonly FlatFormField[], values: Values): Values {
  const content: Values = {}
  for (const field of fields) {
    const value = values[field.name]
    if (field.kind === 'number') {
      if (value === '' || value === undefined) continue
      content[field.name] = Number(value)
    } else if (field.kind === 'text') {
      if (value === '' && !field.required) continue
      content[field.name] = field.format === 'date-time' && typeof value === 'string' && value ? localToIso(value) : value
    } else if (field.kind === 'choice') {
      if (value === undefined || value === '') {
        if (field.required) content[field.name] = ''
        continue
      }
      content[field.name] = value
    } else if (field.kind === 'boolean') {
      content[field.name] = value === true
    } else content[field.name] = value
  }
  return content
}

function localToIso(local: string): string {
  const date = new Date(local)
  return Number.isNaN(date.getTime()) ? local : date.toISOString()
}

function displayText(field: Extract<FlatFormField, { kind: 'text' }>, value: unknown): string {
  const text = typeof value === 'string' ? value : ''
  // An answer sent as ISO date-time shows in the local-time control as its first 16 characters.
  return field.format === 'date-time' && text.endsWith('Z') ? text.slice(0, 16) : text
}
