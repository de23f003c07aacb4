import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { portState, startApp, type AppProcess } from './support/app-process'
import { contextOf, createChatApi } from './support/chat-api'

// The harness for specs that start and kill real server processes (durable sessions build on it).
test.describe('a server started as its own process', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  test('answers health, starts a booking, and refuses connections after kill -9', async ({ request }) => {
    app = await startApp()
    expect(app.url).toBe(`http://127.0.0.1:${app.port}`)

    const health = await request.get(`${app.url}/api/health`)
    expect(health.status()).toBe(200)
    expect(await health.json()).toEqual({ ok: true })

    const chat = createChatApi({ baseURL: app.url, request })
    const turn = await chat.startBooking('Book a flight from NYC to LAX')
    expect(turn.status).toBe(200)
    expect(turn.elicit).toMatchObject({ type: 'plugin_elicit_request', toolName: 'book_flight', key: 'pickFlight' })
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
    expect(chat.cookie).toMatch(/^chat_client_id=[\w-]{32,}\.[\w-]{43}$/)
    const sessions = await (await request.get(`${app.url}/api/sessions`)).json()
    expect(sessions.sessions.map((session: { id: string }) => session.id)).toContain(turn.elicit!.sessionId)

    expect(await portState(app.port)).toBe('open')
    await app.kill('SIGKILL')
    expect(await portState(app.port)).toBe('refused')
  })

  test('a copy of .next/standalone, deployed elsewhere and started as the deploy docs say, serves the chat', async ({ request }) => {
    const host = mkdtempSync(path.join(tmpdir(), 'deployed-'))
    try {
      // What `rsync -a .next/standalone/ host:/srv/elicit-chat/` leaves there: the folder alone, no project around it.
      cpSync(path.join(process.cwd(), '.next/standalone'), path.join(host, 'app'), { recursive: true, verbatimSymlinks: true })
      const dataDir = path.join(host, 'data')
      app = await startApp({ deployedAt: path.join(host, 'app'), dataDir })
      expect(app.output()).toContain(`data: ${dataDir}`)
      const page = await request.get(`${app.url}/`)
      expect(page.status()).toBe(200)
      const turn = await createChatApi({ baseURL: app.url, request }).startBooking('Book a flight from NYC to LAX')
      expect(turn.elicit).toMatchObject({ toolName: 'book_flight', key: 'pickFlight' })
      await app.stop()
      // The same starter as `npm start`, with its checks: timeouts that contradict each other are refused.
      await expect(
        startApp({ deployedAt: path.join(host, 'app'), dataDir, env: { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }, readyTimeoutMs: 15_000 }),
      ).rejects.toThrow(/HEADERS_TIMEOUT_MS \(5000\) must not be more than REQUEST_TIMEOUT_MS \(1000\)/)
    } finally {
      rmSync(host, { recursive: true, force: true })
    }
  })

  test('the plain-fetch client keeps its cookie and conversation from one question to the next', async () => {
    app = await startApp()
    const chat = createChatApi({ baseURL: app.url })
    const { elicit } = await chat.startBooking()
    expect(elicit?.key).toBe('pickFlight')
    const cookie = chat.cookie
    const flights = contextOf(elicit!).flights as Array<{ id: string }>
    const next = await chat.answer({ event: elicit!, content: { flightId: flights[0]!.id } })
    expect(next.status).toBe(200)
    expect(next.elicit).toMatchObject({ key: 'pickSeat', sessionId: elicit!.sessionId })
    expect(chat.cookie).toBe(cookie)

    // Another browser (no cookie) cannot answer it.
    const stranger = createChatApi({ baseURL: app.url })
    stranger.messages = chat.messages
    const refused = await stranger.answer({ event: next.elicit!, action: 'cancel' })
    expect(refused.events).toContainEqual(expect.objectContaining({ type: 'plugin_session_error', error: 'SESSION_NOT_FOUND' }))

    await app.stop()
    expect(await portState(app.port)).toBe('refused')
  })

  test('a DATA_DIR that cannot be written stops the start with a clear message', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'unwritable-'))
    try {
      writeFileSync(path.join(root, 'a-file'), '')
      const dataDir = path.join(root, 'a-file', 'data')
      const failure = startApp({ dataDir })
      await expect(failure).rejects.toThrow(`DATA_DIR ${dataDir} cannot be created or written`)
      await expect(failure).rejects.toThrow(/exited before it was ready \(exit code 1\)/)
      await expect(failure).rejects.not.toThrow(/\n\s+at /)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
