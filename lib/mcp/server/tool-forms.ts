import { z } from 'zod'
import { questionFormOf, responseSchemaOf, type ElicitSpec, type ElicitsMap } from '../../tools/elicits'
import type { AnyMcpTool } from '../../tools/types'
import { whyNotInFormSubset } from './form-subset'

/** A tool cannot be served over MCP as written; the message names the tool, the key and why. */
export class McpToolShapeError extends Error {
  override name = 'McpToolShapeError'
}

/**
 * Refuses, when the tool is registered, a question no native form could answer: one that states
 * no form of its own (its form is derived from the response schema, see `deriveFormFields`) and
 * whose answer has a part no form field can stand for (an object, a list of objects). A question
 * with a form of its own is built from the context it is asked with, so it is checked when
 * asked (`formProblem`).
 */
export function checkToolForms(tool: AnyMcpTool): void {
  for (const [key, spec] of Object.entries(tool.elicits as ElicitsMap)) {
    if (!derivesItsForm(spec)) continue
    const json = z.toJSONSchema(responseSchemaOf(spec), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
    const problem = whyNoFieldFor(json) ?? whyNotInFormSubset(questionFormOf(spec).schema)
    if (problem) {
      throw new McpToolShapeError(
        `Tool "${tool.name}" cannot be served over MCP: the response schema of elicitation '${key}' ${problem}. ` +
          'MCP form elicitation takes an object of string, number, integer or boolean properties (and choices); or give the question a form of its own (question({ response, context, form })).',
      )
    }
  }
}

/** Why the form a question is about to be asked with is not one a client can show (a tool's own `form` built it), naming the tool and key. */
export function formProblem({ toolName, key, schema }: { toolName: string; key: string; schema: unknown }): string | undefined {
  const problem = whyNotInFormSubset(schema)
  return problem && `Tool "${toolName}" cannot ask '${key}' over MCP: its form ${problem}.`
}

/** A spec whose form comes from its response schema alone (a dynamic spec's comes with each question). */
function derivesItsForm(spec: ElicitSpec): boolean {
  if (spec instanceof z.ZodType) return true
  return !('responseFor' in spec) && !('form' in spec && spec.form)
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])

function whyNoFieldFor(schema: Record<string, unknown>): string | undefined {
  if (schema.type !== 'object') return `is not an object (it is ${describe(schema)})`
  const properties = schema.properties
  if (typeof properties !== 'object' || properties === null) return 'has no properties'
  for (const [name, property] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    if (PRIMITIVE_TYPES.has(property.type as string) || Array.isArray(property.enum)) continue
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
