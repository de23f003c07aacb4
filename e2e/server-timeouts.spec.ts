import { connect } from 'node:net'
import { expect, test } from '@playwright/test'
import { startApp, type AppProcess } from './support/app-process'
import { createChatApi } from './support/chat-api'

/**
 * Opens a connection, writes `text`, and resolves with how long the server kept it open, what it
 * answered, and who closed it: the server, or this function after 20 s of silence.
 */
function holdOpen({ port, text }: { port: number; text: string }): Promise<{ ms: number; answer: string; closedBy: 'server' | 'client' }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let answer = ''
    let closedBy: 'server' | 'client' = 'server'
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text))
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')))
    socket.once('close', () => resolve({ ms: performance.now() - started, answer, closedBy }))
    socket.once('error', reject)
    socket.setTimeout(20_000, () => {
      closedBy = 'client'
      socket.destroy()
    })
  })
}

test.describe('header and body timeouts of npm start', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  test('HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS end slow clients; a long streamed answer is not cut', async () => {
    app = await startApp({ env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', OFFLINE_MODEL_DELAY_MS: '150' } })
    const slowHeaders = await holdOpen({ port: app.port, text: 'POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' })
    // Ended by the server with a 408; how soon after its second it gets to it is the machine's
    // speed, so the bound is the client's own 20 s, not a wall-clock window.
    expect(slowHeaders).toMatchObject({ closedBy: 'server', answer: expect.stringMatching(/^HTTP\/1\.1 408/) })

    const slowBody = await holdOpen({
      port: app.port,
      text: 'POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"messages":[',
    })
    // Not at the headers' 1 s (a lower bound: a slower machine only adds to it), but by the server.
    expect(slowBody.ms).toBeGreaterThanOrEqual(1_500)
    expect(slowBody.closedBy).toBe('server')
    expect(slowBody.answer).not.toMatch(/^HTTP\/1\.1 200/)

    // The answer streams for longer than REQUEST_TIMEOUT_MS: only receiving the request is limited.
    const chat = createChatApi({ baseURL: app.url })
    const started = performance.now()
    const turn = await chat.say('What can you do? Tell me everything about booking flights, tic-tac-toe and cards.')
    const ms = performance.now() - started
    expect(turn.status).toBe(200)
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
    expect(ms).toBeGreaterThan(2_000)
  })

  test('a timeout that is not milliseconds, or headers allowed longer than the request, stops the start', async () => {
    await expect(startApp({ env: { REQUEST_TIMEOUT_MS: 'soon' }, readyTimeoutMs: 15_000 })).rejects.toThrow(/REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds/)
    await expect(startApp({ env: { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }, readyTimeoutMs: 15_000 })).rejects.toThrow(/HEADERS_TIMEOUT_MS \(5000\) must not be more than REQUEST_TIMEOUT_MS \(1000\)/)
  })
})
