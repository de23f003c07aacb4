// An MCP booking against /api/mcp, each request timed: the 2026-07-28 rounds as a client sends
// them (one POST per round, the question back as input_required), and a 2025 session through
// the official v2 client (each answer's round trip: the answer posted, the next question or the
// result back on the call's stream).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { choicesOf, type FormSchema } from '../lib/protocol/question-form'

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
}
const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

type Question = { key: string; schema: FormSchema; requestState: string }

/** The three rounds of one 2026 booking, in ms each: ask for a flight, ask for a seat, book. */
export async function bookOverMcpRounds(base: string, authorization?: string): Promise<number[]> {
  const url = `${base}/api/mcp`
  const times: number[] = []
  const round = async (params: Record<string, unknown>) => {
    const started = performance.now()
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'book_flight',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...BOOK, ...params, _meta: META } }),
    })
    const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown }
    times.push(performance.now() - started)
    if (!body.result) throw new Error(`MCP round failed: ${JSON.stringify(body.error)}`)
    return body.result
  }
  const question = (result: Record<string, unknown>): Question => {
    const [[key, request]] = Object.entries(result.inputRequests as Record<string, { params: { requestedSchema: FormSchema } }>)
    return { key: key!, schema: request!.params.requestedSchema, requestState: result.requestState as string }
  }
  const flight = question(await round({}))
  const seat = question(await round({ requestState: flight.requestState, inputResponses: { [flight.key]: firstChoices(flight.schema) } }))
  const done = await round({ requestState: seat.requestState, inputResponses: { [seat.key]: firstChoices(seat.schema) } })
  if ((done.structuredContent as { status?: string })?.status !== 'confirmed') throw new Error(`MCP booking not confirmed: ${JSON.stringify(done)}`)
  return times
}

/** One 2025 booking on a fresh session: the time from each answer sent to what came back. */
export async function bookOverMcpSession(base: string): Promise<number[]> {
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: { elicitation: { form: {} } } })
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', base))
  await client.connect(transport)
  const times: number[] = []
  let answeredAt: number | undefined
  const lap = () => {
    if (answeredAt !== undefined) times.push(performance.now() - answeredAt)
  }
  client.setRequestHandler('elicitation/create', async (request) => {
    lap()
    answeredAt = performance.now()
    return firstChoices((request.params as { requestedSchema: FormSchema }).requestedSchema) as never
  })
  try {
    const result = await client.callTool(BOOK)
    lap()
    if ((result.structuredContent as { status?: string })?.status !== 'confirmed') throw new Error('MCP session booking not confirmed')
  } finally {
    // Ended (DELETE), as a client that is done should: the server counts a client's open sessions (MCP_MAX_SESSIONS_PER_CLIENT).
    await transport.terminateSession().catch(() => {})
    await client.close()
  }
  return times
}

/** A person's answer to a form: the first offer of each pick list (the first flight, the first free seat). */
function firstChoices(schema: FormSchema): { action: 'accept'; content: Record<string, string> } {
  return { action: 'accept', content: Object.fromEntries(Object.entries(choicesOf(schema)).map(([name, choices]) => [name, choices[0]!.value])) }
}

/** The MCP booking measured on one server process, with the trivial route in the same run. */
export interface McpMeasures {
  floor: number[]
  /** Every 2026-07-28 round, three per booking. */
  rounds: number[]
  /** Every answer of a 2025 session, two per booking. */
  session: number[]
  /** rounds p50 / floor p50 */
  ratio: number
}

/** `bookings` MCP bookings in 2026 rounds (each followed by three GET /api/health) and a quarter as many 2025 sessions. */
export async function measureMcp(base: string, bookings: number): Promise<McpMeasures> {
  const health = async () => {
    const started = performance.now()
    await (await fetch(`${base}/api/health`)).text()
    return performance.now() - started
  }
  for (let index = 0; index < 10; index++) {
    await bookOverMcpRounds(base)
    await health()
  }
  const floor: number[] = []
  const rounds: number[] = []
  for (let index = 0; index < bookings; index++) {
    rounds.push(...(await bookOverMcpRounds(base)))
    floor.push(await health(), await health(), await health())
  }
  const session: number[] = []
  for (let index = 0; index < Math.ceil(bookings / 4); index++) session.push(...(await bookOverMcpSession(base)))
  const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]!
  return { floor, rounds, session, ratio: p50(rounds) / p50(floor) }
}
