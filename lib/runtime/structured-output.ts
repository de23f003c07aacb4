import type { z } from 'zod'
import { SampleOutputError } from './errors'
import { describeIssues, toIssues } from './json-schema'

const FENCED = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i

/**
 * The value in a model's JSON answer, validated by the schema the tool asked with. A fenced
 * ```json block is accepted, since models add one even when asked for bare JSON.
 */
export function parseStructuredOutput<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  const body = FENCED.exec(text)?.[1] ?? text
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw new SampleOutputError(`The model's answer is not JSON: ${excerpt(text)}`, text)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    throw new SampleOutputError(
      `The model's answer does not match the requested schema (${describeIssues(toIssues(parsed.error))}): ${excerpt(text)}`,
      text,
    )
  }
  return parsed.data
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (!flat) return '(an empty answer)'
  return JSON.stringify(flat.length > 200 ? `${flat.slice(0, 200)}…` : flat)
}
