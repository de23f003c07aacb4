import { z } from 'zod'
import type { FlatFormField } from './flat-form'

/*
 * The check of an answer to a flat form, apart from reading the form (`flat-form.ts`): it needs
 * Zod, which the chat's first load does not carry. The server checks each answer with it, and the
 * kit's `Form` loads it when a form is shown, to check the same way before sending.
 */

/** The schema an answer to the form must match: what the server gets is checked here first. */
export function flatFormAnswerSchema(fields: readonly FlatFormField[]): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {}
  for (const field of fields) {
    const value = valueSchema(field)
    shape[field.name] = field.required ? value : value.optional()
  }
  return z.strictObject(shape)
}

function valueSchema(field: FlatFormField): z.ZodType {
  switch (field.kind) {
    case 'text': {
      let text =
        field.format === 'email'
          ? z.email()
          : field.format === 'uri'
            ? z.url()
            : field.format === 'date'
              ? z.iso.date()
              : field.format === 'date-time'
                ? z.iso.datetime({ offset: true })
                : z.string()
      if (field.minLength !== undefined) text = text.min(field.minLength)
      if (field.maxLength !== undefined) text = text.max(field.maxLength)
      return field.required && field.minLength === undefined ? text.min(1, 'required') : text
    }
    case 'number': {
      let number = field.integer ? z.number().int() : z.number()
      if (field.minimum !== undefined) number = number.min(field.minimum)
      if (field.maximum !== undefined) number = number.max(field.maximum)
      return number
    }
    case 'boolean':
      return z.boolean()
    case 'choice':
      return z.enum(field.options.map((option) => option.value) as [string, ...string[]])
    case 'multi-choice': {
      let list = z.array(z.enum(field.options.map((option) => option.value) as [string, ...string[]]))
      if (field.minItems !== undefined) list = list.min(field.minItems)
      if (field.maxItems !== undefined) list = list.max(field.maxItems)
      return list
    }
  }
}
