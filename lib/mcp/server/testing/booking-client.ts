import { Client, StreamableHTTPClientTransport, type ClientCapabilities, type OAuthClientProvider } from '@modelcontextprotocol/client'
import { QUESTION_META_KEY, choicesOf, type FormSchema, type QuestionMeta } from '../../../protocol/question-form'

export type Era = '2025' | '2026'

/** What a client's elicitation handler was asked, as it arrived. */
export interface Asked {
  message: string
  schema: Record<string, unknown>
  /** The request's whole `_meta`. */
  meta: Record<string, unknown>
  /** The question's context, from `_meta[QUESTION_META_KEY]`. */
  context: Record<string, unknown>
}

export type Answer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' }

/**
 * An official v2 client for the endpoint at `url`, of either era, that answers each question
 * with the next of `answers` (a function of what was asked) and records what it was asked.
 */
export async function connectBookingClient({
  url,
  era,
  answer,
  sample,
  headers,
  capabilities = {},
  fetch,
  authProvider,
}: {
  url: URL
  era: Era
  answer: (asked: Asked, index: number) => Answer | Promise<Answer>
  /** When given, the client declares sampling and answers with this text. */
  sample?: (prompt: string) => string | Promise<string>
  headers?: Record<string, string>
  /** Declared beside form elicitation (and sampling), e.g. `extensions`. */
  capabilities?: ClientCapabilities
  /** The transport's fetch: a test's load balancer (endpoint-pool.ts). */
  fetch?: typeof globalThis.fetch
  /** The client's OAuth: its tokens sent, a 401 answered by its flow. */
  authProvider?: OAuthClientProvider
}): Promise<{ client: Client; asked: Asked[]; sampled: string[] }> {
  const client = new Client(
    { name: 'booking-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, ...(sample ? { sampling: {} } : {}), ...capabilities },
      ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  )
  const asked: Asked[] = []
  const sampled: string[] = []
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> }
    const question = askedOf(params)
    asked.push(question)
    return answer(question, asked.length - 1) as never
  })
  if (sample) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages.at(-1)?.content
      const prompt = first && !Array.isArray(first) && first.type === 'text' ? first.text : ''
      sampled.push(prompt)
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: await sample(prompt) } } as never
    })
  }
  await client.connect(new StreamableHTTPClientTransport(url, { ...(headers ? { requestInit: { headers } } : {}), ...(fetch ? { fetch } : {}), ...(authProvider ? { authProvider } : {}) }))
  return { client, asked, sampled }
}

/** An `elicitation/create`'s params as the test reads them: the context from `_meta[QUESTION_META_KEY]`. */
export function askedOf(params: { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> }): Asked {
  const meta = params._meta ?? {}
  const question = meta[QUESTION_META_KEY] as QuestionMeta | undefined
  return { message: params.message, schema: params.requestedSchema, meta, context: question?.context ?? {} }
}

/** What a person picks who takes the first offer of every pick list: the first flight, the first free seat, the first empty cell, the first card. */
export function firstChoices(asked: Pick<Asked, 'schema'>): { action: 'accept'; content: Record<string, string> } {
  const content: Record<string, string> = {}
  for (const [name, choices] of Object.entries(choicesOf(asked.schema as unknown as FormSchema))) content[name] = choices[0]!.value
  return { action: 'accept', content }
}

/** The first free seat a seat question shows (its first choice), as the tool books it: "1B". */
export function firstFreeSeat(asked: Pick<Asked, 'context'>): string {
  const map = asked.context.seatMap as { firstRow: number; lastRow: number; letters: string[]; taken: string[] }
  for (let row = map.firstRow; row <= map.lastRow; row++) {
    for (const seat of map.letters) if (!map.taken.includes(`${row}${seat}`)) return `${row}${seat}`
  }
  throw new Error('no free seat')
}
