import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { decodeModelContext } from '../../../tools/model-context'

export type Era = '2025' | '2026'

/** What a client's elicitation handler was asked, as it arrived. */
export interface Asked {
  message: string
  schema: Record<string, unknown>
  context: Record<string, unknown>
}

export type Answer = { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' } | { action: 'cancel' }

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
}: {
  url: URL
  era: Era
  answer: (asked: Asked, index: number) => Answer
  /** When given, the client declares sampling and answers with this text. */
  sample?: (prompt: string) => string
  headers?: Record<string, string>
}): Promise<{ client: Client; asked: Asked[]; sampled: string[] }> {
  const client = new Client(
    { name: 'booking-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, ...(sample ? { sampling: {} } : {}) },
      ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  )
  const asked: Asked[] = []
  const sampled: string[] = []
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: Record<string, unknown> }
    const { context } = decodeModelContext({ message: params.message, schema: params.requestedSchema })
    const question = { message: params.message, schema: params.requestedSchema, context }
    asked.push(question)
    return answer(question, asked.length - 1) as never
  })
  if (sample) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages.at(-1)?.content
      const prompt = first && !Array.isArray(first) && first.type === 'text' ? first.text : ''
      sampled.push(prompt)
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: sample(prompt) } } as never
    })
  }
  await client.connect(new StreamableHTTPClientTransport(url, headers ? { requestInit: { headers } } : undefined))
  return { client, asked, sampled }
}

/** Pick the first offered flight, then the first free seat of the cabin it was shown. */
export function firstFlightAndSeat(asked: Asked): Answer {
  if ('flights' in asked.context) return { action: 'accept', content: { flightId: (asked.context.flights as { id: string }[])[0]!.id } }
  return { action: 'accept', content: freeSeat(asked) }
}

export function freeSeat(asked: Asked): { row: number; seat: string } {
  const map = asked.context.seatMap as { firstRow: number; lastRow: number; letters: string[]; taken: string[] }
  for (let row = map.firstRow; row <= map.lastRow; row++) {
    for (const seat of map.letters) if (!map.taken.includes(`${row}${seat}`)) return { row, seat }
  }
  throw new Error('no free seat')
}
