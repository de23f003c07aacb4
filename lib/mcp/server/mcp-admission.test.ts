import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createAdmission, type Admission } from '../../http/admission'
import { askedOf, connectBookingClient, firstChoices } from './testing/booking-client'
import { servedEndpoints } from './testing/served-endpoints'

const BOOK = { name: 'book_train', arguments: { from: 'Lille', to: 'Nantes' } }

const endpoints = servedEndpoints()
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await endpoints.closeAll()
})

/**
 * An endpoint admitted by `admission`, whose clock stands still (nothing refills unless a test
 * says so), and a way to spend the server's whole budget as other clients' work would.
 */
async function admittedEndpoint() {
  const admission = createAdmission({ burst: 1_000, perSecond: 1_000, globalBurst: 40, globalPerSecond: 20, now: () => 0 })
  const url = await endpoints.serve({ stateSecret: 's'.repeat(40), admission })
  return { url, spend: () => spend(admission) }
}

/** Other clients' answers take all there is, and more: the server is in debt as deep as it goes. */
function spend(admission: Admission) {
  for (let index = 0; index < 200; index++) admission.admit(`10.0.${index}.1`, 'continue')
}

const refusedAsBusy = { message: expect.stringMatching(/429|too many requests/i) }

describe('MCP under load: a call in progress goes on, new work waits', () => {
  it('2025-11-25: the answers to a call’s questions are admitted on a spent server, and a new call is refused with 429', async () => {
    const { url, spend } = await admittedEndpoint()
    const { client, asked } = await connectBookingClient({
      url,
      era: '2025',
      answer: (question, index) => {
        // The server is spent while the call waits at its first question.
        if (index === 0) spend()
        return firstChoices(question)
      },
    })
    clients.push(client)
    const result = (await client.callTool(BOOK)) as { structuredContent?: Record<string, unknown> }
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    await expect(client.callTool(BOOK)).rejects.toMatchObject(refusedAsBusy)
  })

  it('2026-07-28: a retry carrying its requestState is admitted once on a spent server; a new call and the same state again are refused', async () => {
    const { url, spend } = await admittedEndpoint()
    const client = new Client({ name: 'admission-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(url))
    clients.push(client)
    const round = (params: Record<string, unknown> = {}) =>
      client.request({ method: 'tools/call', params: { ...BOOK, ...params } } as never, { allowInputRequired: true } as never) as Promise<{
        inputRequests: Record<string, { params: { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> } }>
        requestState: string
      }>
    const first = await round()
    const [[key, request]] = Object.entries(first.inputRequests) as [[string, { params: { message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> } }]]
    spend()
    const answered = { requestState: first.requestState, inputResponses: { [key]: firstChoices(askedOf(request.params)) } }
    const second = await round(answered)
    expect(Object.keys(second.inputRequests)).toEqual([expect.stringMatching(/^pickSeat/)])
    await expect(round()).rejects.toMatchObject(refusedAsBusy)
    await expect(round(answered)).rejects.toMatchObject(refusedAsBusy)
  })

  it('refuses a made-up requestState as new work, and answers a spent server with 429 and Retry-After', async () => {
    const { url, spend } = await admittedEndpoint()
    spend()
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...BOOK, requestState: 'v1.forged.state' } }),
    })
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('too many requests') } })
  })

  it('refuses a batch with 400 and -32600 before charging it, busy or not', async () => {
    const { url, spend } = await admittedEndpoint()
    const batch = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: BOOK }]),
      })
    for (const headers of [{}, { 'mcp-protocol-version': '2026-07-28' }] as Record<string, string>[]) {
      const refused = await batch(headers)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Batches are not supported/) } })
    }
    spend()
    expect((await batch({})).status).toBe(400)
  })
})
