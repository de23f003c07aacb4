import { z } from 'zod'
import type { ValidationIssue } from '../protocol/events'

export type { ValidationIssue }

const cache = new WeakMap<z.ZodType, Record<string, unknown>>()

/**
 * JSON Schema for a Zod 4 schema, computed once per schema. (Zod 4's own `z.toJSONSchema`:
 * `zod-to-json-schema` returns an empty schema for Zod 4 input.)
 */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = cache.get(schema)
  if (!json) {
    json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>
    cache.set(schema, json)
  }
  return json
}


export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }))
}

export function describeIssues(issues: ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
}
