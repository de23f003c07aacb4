import { z } from 'zod'
import { responseSchemaOf, type ElicitsMap } from '../../tools/elicits'
import type { AnyMcpTool } from '../../tools/types'

/** A tool cannot be served over MCP as written; the message names the tool, the key and why. */
export class McpToolShapeError extends Error {
  override name = 'McpToolShapeError'
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])

/**
 * The JSON Schema of every elicitation key of `tool`, checked to be what MCP form-mode
 * elicitation can carry: an object whose properties are each a string, number, integer or
 * boolean (or a string enum, or an array of string enums). Anything else is refused when the
 * tool is registered, naming the key, rather than failing in front of a user later.
 */
export function flatFormSchemas(tool: AnyMcpTool): Record<string, Record<string, unknown>> {
  const schemas: Record<string, Record<string, unknown>> = {}
  for (const [key, spec] of Object.entries(tool.elicits as ElicitsMap)) {
    const json = z.toJSONSchema(responseSchemaOf(spec), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
    const problem = whyNotFlat(json)
    if (problem) {
      throw new McpToolShapeError(
        `Tool "${tool.name}" cannot be served over MCP: the response schema of elicitation '${key}' ${problem}. ` +
          'MCP form elicitation takes an object of string, number, integer or boolean properties (and string enums).',
      )
    }
    schemas[key] = json
  }
  return schemas
}

function whyNotFlat(schema: Record<string, unknown>): string | undefined {
  if (schema.type !== 'object') return `is not an object (it is ${describe(schema)})`
  const properties = schema.properties
  if (typeof properties !== 'object' || properties === null) return 'has no properties'
  for (const [name, property] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    if (PRIMITIVE_TYPES.has(property.type as string)) continue
    if (property.type === 'array' && isStringEnum(property.items)) continue
    return `has property '${name}' of ${describe(property)}, not a primitive`
  }
  return undefined
}

function isStringEnum(items: unknown): boolean {
  if (typeof items !== 'object' || items === null) return false
  const node = items as Record<string, unknown>
  return (node.type === 'string' && Array.isArray(node.enum)) || Array.isArray(node.anyOf)
}

function describe(schema: Record<string, unknown>): string {
  if (typeof schema.type === 'string') return `type ${schema.type}`
  if (schema.anyOf || schema.oneOf) return 'a union'
  return 'no single type'
}
