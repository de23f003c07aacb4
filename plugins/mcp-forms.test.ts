import type { Client } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { whyNotInFormSubset } from '@/lib/mcp/server'
import { connectBookingClient, firstChoices, type Answer } from '@/lib/mcp/server/testing/booking-client'
import { servedEndpoints } from '@/lib/mcp/server/testing/served-endpoints'
import { QUESTION_META_KEY, type FormSchema } from '@/lib/protocol/question-form'
import { pluginTools } from './index'

// A check of every plugin, a new one included: each of its questions reaches an MCP client as a
// native form inside the subset clients draw, in words for a person, with its context in _meta.
const endpoints = servedEndpoints()
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await endpoints.closeAll()
})

const SECRET = 'q'.repeat(40)
const ERAS = ['2025', '2026'] as const

/** What a person fills in: a choice field's first offer, and something plain for any other field. */
function filledIn(schema: FormSchema): Answer {
  const content: Record<string, string | number | boolean | string[]> = {}
  const offered = firstChoices({ schema: schema as unknown as Record<string, unknown> })
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.type === 'boolean') content[name] = true
    else if (property.type === 'number' || property.type === 'integer') content[name] = property.minimum ?? 1
    else if (property.type === 'array') content[name] = []
    else content[name] = offered.action === 'accept' && name in offered.content ? (offered.content[name] as string) : 'A person'
  }
  return { action: 'accept', content }
}

/** Arguments a person would give a tool: every parameter, as plainly as its schema allows (every option on). */
function argumentsFor(parameters: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string; minimum?: number }> }
  return Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([name, property]) => [
      name,
      property.type === 'boolean' ? true : property.type === 'number' || property.type === 'integer' ? (property.minimum ?? 1) + 1 : 'ABC',
    ]),
  )
}

describe.each(ERAS)('every question of every plugin, as an official v2 client (%s) gets it', (era) => {
  it.each(pluginTools.map((tool) => [tool.name, tool] as const))('%s: a native form inside the MCP form subset, words for a person, the context in _meta', async (_name, tool) => {
    const url = await endpoints.serve({ stateSecret: SECRET, tools: pluginTools })
    // The first answer is one no form offers, so the question asked again is checked too.
    const { client, asked } = await connectBookingClient({
      url,
      era,
      answer: (question, index) => (index === 0 ? { action: 'accept', content: { unoffered: 'x' } } : filledIn(question.schema as unknown as FormSchema)),
    })
    clients.push(client)
    const result = await client.callTool({ name: tool.name, arguments: argumentsFor(tool.parameters) })
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    expect(asked.length).toBeGreaterThanOrEqual(2)
    expect(asked[1]!.message).toMatch(/^That answer was not accepted: .+ is missing\. Please answer again\.\n\n/)
    for (const question of asked) {
      expect(whyNotInFormSubset(question.schema), JSON.stringify(question.schema)).toBeUndefined()
      expect(question.message).not.toContain('x-model-context')
      expect(question.message).not.toMatch(/[{}]/)
      const meta = question.meta[QUESTION_META_KEY] as { tool: string; key: string; context: Record<string, unknown> }
      expect(meta.tool).toBe(tool.name)
      expect(Object.keys(tool.elicits)).toContain(meta.key)
      expect(Object.keys(meta.context).length).toBeGreaterThan(0)
      // A whole number (`field.integer`) is inside the subset, as the guide offers it; a choice among
      // numbers is not (Inspector draws an integer enum as a number box): the subset check refuses it.
    }
  })
})

