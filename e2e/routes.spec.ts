import { expect, test } from '@playwright/test'

// The HTTP contract, driven directly: refusals are 4xx with a code, never a 500.
test.describe('POST /api/chat', () => {
  test('streams NDJSON and sets an HttpOnly identity cookie', async ({ request }) => {
    const response = await request.post('/api/chat', { data: { messages: [{ role: 'user', content: 'Hello' }] } })
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('application/x-ndjson')
    expect(response.headers()['set-cookie']).toMatch(/chat_client_id=[\w-]{32,}\.[\w-]{43};.*HttpOnly/)
    const events = (await response.text()).trim().split('\n').map((line) => JSON.parse(line))
    expect(events.at(-1)).toMatchObject({ type: 'complete' })
    expect(events.at(-2)).toMatchObject({ type: 'conversation_state' })
  })

  test('refuses broken JSON, the wrong media type and a bad body with clear codes', async ({ request }) => {
    const broken = await request.post('/api/chat', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"messages":') })
    expect(broken.status()).toBe(400)
    expect((await broken.json()).error.code).toBe('invalid_json')

    const form = await request.post('/api/chat', { headers: { 'content-type': 'text/plain' }, data: Buffer.from('hello') })
    expect(form.status()).toBe(415)

    const bad = await request.post('/api/chat', { data: { messages: [{ role: 'robot', content: 1 }] } })
    expect(bad.status()).toBe(400)
    const body = await bad.json()
    expect(body.error).toMatchObject({ code: 'invalid_request', issues: expect.any(Array) })
  })

  test('answers for a session the browser does not own are reported lost, not applied', async ({ request }) => {
    const response = await request.post('/api/chat', {
      data: {
        messages: [
          { role: 'user', content: 'Book a flight from NYC to LAX' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_someone_else', type: 'function', function: { name: 'book_flight', arguments: '{"from":"NYC","destination":"LAX"}' } }] },
        ],
        pluginElicitResponses: [
          { sessionId: 'call_someone_else', callId: 'call_someone_else', elicitId: 'book_flight/pickFlight/call_someone_else/4', result: { action: 'decline' } },
        ],
      },
    })
    expect(response.status()).toBe(200)
    const events = (await response.text()).trim().split('\n').map((line) => JSON.parse(line))
    expect(events).toContainEqual(expect.objectContaining({ type: 'plugin_session_error', error: 'SESSION_NOT_FOUND' }))
  })
})
