import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { chatEventSchema } from '@/lib/conversations/event-schema'
import { CLIENT_COOKIE, createClientIdentity, SECURE_CLIENT_COOKIE } from '@/lib/http'
import { ADMIN_ERROR_STATUS, CHAT_ERROR_STATUS, chatRequestSchema, type ChatEvent } from '@/lib/protocol'
import { USAGE_ERROR_CODES } from '@/lib/budgets'

/*
 * docs/http-contract.md is the contract outside clients and tests rely on; lib/protocol is the
 * code that defines it. This holds the page's tables to the code, so that neither can change
 * without the other: every request field, event, event field and error code the code has is
 * documented, and nothing else is.
 */
const page = readFileSync(new URL('../../../docs/http-contract.md', import.meta.url), 'utf8')

/** The body rows of the first table after the line that starts with `marker`, each as its cells without code marks. */
function tableAfter(marker: string): string[][] {
  const lines = page.split('\n')
  const start = lines.findIndex((line) => line.startsWith(marker))
  expect(start, `docs/http-contract.md has a line starting "${marker}"`).toBeGreaterThanOrEqual(0)
  const first = lines.findIndex((line, index) => index > start && line.startsWith('|'))
  const rows: string[][] = []
  for (let index = first + 2; lines[index]?.startsWith('|'); index++) {
    rows.push(lines[index]!.split('|').slice(1, -1).map((cell) => cell.replaceAll('`', '').trim()))
  }
  expect(rows.length, `a table after "${marker}"`).toBeGreaterThan(0)
  return rows
}

/** Every field of an object schema, nested objects and arrays of objects included, as `a.b` and `a[].b`, and whether it may be absent. */
function fieldsOf(schema: z.ZodType, prefix = ''): Array<{ path: string; optional: boolean }> {
  const inner = unwrapped(schema)
  if (inner instanceof z.ZodArray) return fieldsOf(inner.element as z.ZodType, `${prefix}[]`)
  if (!(inner instanceof z.ZodObject)) return []
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return [{ path, optional: field.isOptional() }, ...fieldsOf(field, path)]
  })
}

function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrapped(schema.unwrap() as z.ZodType)
  return schema
}

/** Each event of the events' schema: its type and the schemas of its fields (`type` left out). */
const events = chatEventSchema.options.map((event) => {
  const { type, ...fields } = event.shape as Record<string, z.ZodType> & { type: z.ZodLiteral<string> }
  return { type: type.value, fields: fields as Record<string, z.ZodType> }
})

/*
 * The events' schema (lib/conversations/event-schema.ts) is the runtime copy of the protocol's
 * `ChatEvent` type; the tables are checked against it. This line holds the two to the same event
 * types, each with the same fields, the same ones optional: otherwise it does not compile.
 */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T]
type FieldsByType<Event extends { type: string }> = {
  [Type in Event['type']]: { all: Exclude<keyof Extract<Event, { type: Type }>, 'type'>; optional: OptionalKeys<Extract<Event, { type: Type }>> }
}
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const schemaIsTheProtocols: Same<FieldsByType<ChatEvent>, FieldsByType<z.output<typeof chatEventSchema>>> = true

describe('docs/http-contract.md', () => {
  it('lists every field of the request, and only those, each marked optional exactly when it may be absent', () => {
    const documented = tableAfter('## The request').map(([path, type]) => ({ path: path!, optional: /\boptional\b/.test(type!) }))
    const sorted = (fields: Array<{ path: string; optional: boolean }>) => [...fields].sort((a, b) => a.path.localeCompare(b.path))
    expect(sorted(documented)).toEqual(sorted(fieldsOf(chatRequestSchema)))
  })

  it('lists every event type with its fields, and only those, the optional ones marked "?"', () => {
    expect(schemaIsTheProtocols).toBe(true)
    const documented = Object.fromEntries(tableAfter('## The events').map(([type, fields]) => [type, fields!.split(',').map((field) => field.trim())]))
    const defined = Object.fromEntries(
      events.map(({ type, fields }) => [type, Object.entries(fields).map(([key, field]) => (field.isOptional() ? `${key}?` : key))]),
    )
    expect(documented).toEqual(defined)
  })

  it("lists every session error of plugin_session_error, and only those", () => {
    const lost = events.find(({ type }) => type === 'plugin_session_error')!
    const errors = (lost.fields.error as z.ZodEnum).options
    expect(tableAfter('**`plugin_session_error`.**').map(([error]) => error).sort()).toEqual([...errors].sort())
  })

  it('lists every error code with its HTTP status, and only those', () => {
    const documented = Object.fromEntries(tableAfter('## Refusals').map(([code, status]) => [code, Number(status)]))
    expect(documented).toEqual(CHAT_ERROR_STATUS)
  })

  it('lists every admin route refusal with its HTTP status, and only those; the usage route refuses with codes of that table', () => {
    const documented = Object.fromEntries(tableAfter('### Admin refusals').map(([code, status]) => [code, Number(status)]))
    expect(documented).toEqual(ADMIN_ERROR_STATUS)
    for (const code of USAGE_ERROR_CODES) expect(documented).toHaveProperty(code)
  })

  it('names the identity cookie, its value and its attributes as the server sets them', () => {
    const cookie = sectionText('## The identity cookie')
    const identity = createClientIdentity({ secret: 'a-secret-for-this-test', trustProxy: true })
    const plain = identity.resolve(new Request('http://localhost/api/chat')).headers['Set-Cookie']!
    const secure = identity.resolve(new Request('http://localhost/api/chat', { headers: { 'x-forwarded-proto': 'https' } })).headers['Set-Cookie']!

    const [pair, ...attributes] = plain.split('; ')
    expect(pair).toMatch(new RegExp(`^${CLIENT_COOKIE}=[A-Za-z0-9_-]{32}\\.[A-Za-z0-9_-]{43}$`))
    expect(secure.startsWith(`${SECURE_CLIENT_COOKIE}=`)).toBe(true)
    expect(secure).toBe(`${SECURE_CLIENT_COOKIE}=${secure.split('=')[1]!.split(';')[0]}; ${attributes.join('; ')}; Secure`)
    expect(cookie).toContain(`\`${CLIENT_COOKIE}\` over plain HTTP`)
    expect(cookie).toContain(`\`${SECURE_CLIENT_COOKIE}\` when the request reached a`)
    expect(cookie).toContain('(32 characters)')
    expect(cookie).toContain('(43 characters)')
    expect(cookie).toContain(`**Attributes.** \`${attributes.join('; ')}\``)
    expect(cookie).toContain('and `Secure` over HTTPS')
  })
})

/** The text of the section under `heading`, to the next one, its lines joined and its spaces single. */
function sectionText(heading: string): string {
  const start = page.indexOf(`\n${heading}\n`)
  expect(start, `docs/http-contract.md has "${heading}"`).toBeGreaterThanOrEqual(0)
  const end = page.indexOf('\n## ', start + heading.length + 1)
  return page.slice(start, end < 0 ? undefined : end).replace(/\s+/g, ' ')
}
