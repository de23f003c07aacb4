'use client'

import { useId, useMemo, useState, type FormEvent } from 'react'
import type { ElicitAnswer } from '@/lib/protocol'
import { flatFormAnswerSchema, parseFlatForm, type FlatFormField } from '@/lib/mcp/client/flat-form'
import { QuestionPanel } from '../kit'
import { AnswerButtons, AnswerSummary } from './answer-parts'

type Values = Record<string, unknown>

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const
const FIELD =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/20 disabled:opacity-60 aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100'

/**
 * An external server's form (MCP form mode), made from its flat JSON Schema: a labelled control
 * per property, defaults filled in, required ones marked and checked before anything is sent
 * (with the same schema the server checks the answer against). Accept, Decline or Cancel.
 */
export function ExternalForm({
  message,
  server,
  requestedSchema,
  onRespond,
  disabled,
  response,
}: {
  message: string
  server: string
  requestedSchema: Record<string, unknown>
  onRespond: (answer: ElicitAnswer<Values>) => void
  disabled: boolean
  response?: ElicitAnswer<Values>
}) {
  const id = useId()
  const fields = useMemo(() => parseFlatForm(requestedSchema), [requestedSchema])
  const schema = useMemo(() => flatFormAnswerSchema(fields), [fields])
  const [values, setValues] = useState<Values>(() => Object.fromEntries(fields.map((field) => [field.name, initialValue(field)])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const set = (name: string, value: unknown) => setValues((current) => ({ ...current, [name]: value }))

  function accept(event: FormEvent) {
    event.preventDefault()
    if (disabled) return
    const content = contentOf(fields, values)
    const checked = schema.safeParse(content)
    if (!checked.success) {
      const found: Record<string, string> = {}
      for (const issue of checked.error.issues) found[String(issue.path[0] ?? '')] ??= issue.message
      setErrors(found)
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus()
      return
    }
    setErrors({})
    onRespond({ action: 'accept', content: checked.data })
  }

  return (
    <QuestionPanel label={`Form from ${server}`} title={`${server} asks`} prompt={<span className="whitespace-pre-wrap">{message}</span>}>
      <form className="mt-3 space-y-3" onSubmit={accept} noValidate aria-describedby={`${id}-required`}>
        <p id={`${id}-required`} className="text-xs text-zinc-500 dark:text-zinc-400">
          Fields marked * are required.
        </p>
        {fields.map((field) => (
          <Field
            key={field.name}
            id={`${id}-${field.name}`}
            field={field}
            value={response?.action === 'accept' ? (response.content?.[field.name] ?? values[field.name]) : values[field.name]}
            error={errors[field.name]}
            disabled={disabled}
            onChange={(value) => set(field.name, value)}
          />
        ))}
        {response ? (
          <AnswerSummary answer={response} />
        ) : (
          <AnswerButtons disabled={disabled} onRespond={onRespond} />
        )}
      </form>
    </QuestionPanel>
  )
}

function Field({
  id,
  field,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string
  field: FlatFormField
  value: unknown
  error?: string
  disabled: boolean
  onChange: (value: unknown) => void
}) {
  const described = [field.description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  const label = (
    <>
      {field.label}
      {field.required ? <span aria-hidden="true"> *</span> : null}
    </>
  )
  const notes = (
    <>
      {field.description ? (
        <p id={`${id}-description`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {field.description}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </>
  )
  const common = { id, disabled, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, 'aria-required': field.required || undefined }

  if (field.kind === 'boolean') {
    return (
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input type="checkbox" {...common} checked={value === true} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4" />
          {label}
        </label>
        {notes}
      </div>
    )
  }
  if (field.kind === 'multi-choice' || (field.kind === 'choice' && field.options.length <= 3)) {
    const multiple = field.kind === 'multi-choice'
    const chosen = multiple ? ((value as string[] | undefined) ?? []) : [value as string]
    return (
      <fieldset className="space-y-1" aria-describedby={described} aria-invalid={error ? true : undefined}>
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{label}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {field.options.map((option, index) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={id}
                id={index === 0 ? id : undefined}
                value={option.value}
                disabled={disabled}
                checked={chosen.includes(option.value)}
                onChange={(event) =>
                  onChange(
                    multiple
                      ? event.target.checked
                        ? [...chosen, option.value]
                        : chosen.filter((item) => item !== option.value)
                      : option.value,
                  )
                }
                className="h-4 w-4"
              />
              {option.label}
            </label>
          ))}
        </div>
        {notes}
      </fieldset>
    )
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {field.kind === 'choice' ? (
        <select {...common} value={(value as string | undefined) ?? ''} onChange={(event) => onChange(event.target.value)} className={FIELD}>
          {field.required && value !== undefined ? null : <option value="">—</option>}
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : field.kind === 'number' ? (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={(value as string | undefined) ?? ''}
          onChange={(event) => onChange(event.target.value)}
          className={FIELD}
        />
      ) : (
        <input
          {...common}
          type={field.format ? INPUT_TYPE[field.format] : 'text'}
          minLength={field.minLength}
          maxLength={field.maxLength}
          value={displayText(field, value)}
          onChange={(event) => onChange(event.target.value)}
          className={FIELD}
        />
      )}
      {notes}
    </div>
  )
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

/** What the form holds, as the server's schema types it: numbers as numbers, empty optional fields left out. */
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
