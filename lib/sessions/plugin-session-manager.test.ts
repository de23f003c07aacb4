import { createScope, suspend, type Operation, type Scope } from 'effection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools'
import { usePluginSessionManager, type PluginSessionManager, type PluginSessionManagerOptions } from './plugin-session-manager'

const teardowns: string[] = []

const askTool = createMcpTool('ask')
  .description('Asks one question')
  .parameters(z.object({ question: z.string() }))
  .elicits({ answer: z.object({ text: z.string() }) })
  .execute(function* ({ question }, ctx) {
    try {
      const answer = yield* ctx.elicit('answer', { message: question })
      return answer.action === 'accept' ? answer.content.text : answer.action
    } finally {
      teardowns.push(question)
    }
  })

const runtime = {
  // eslint-disable-next-line require-yield
  *sample(): Operation<never> {
    throw new Error('These tools do not sample.')
  },
}

let scope: Scope
let destroy: () => Promise<void>
let manager: PluginSessionManager

async function startManager(options: PluginSessionManagerOptions = {}) {
  ;[scope, destroy] = createScope()
  manager = await new Promise<PluginSessionManager>((resolve) => {
    scope.run(function* () {
      resolve(yield* usePluginSessionManager(options))
      yield* suspend()
    })
  })
}
const run = <T>(operation: () => Operation<T>) => scope.run(operation)

beforeEach(() => {
  teardowns.length = 0
})
afterEach(() => destroy())

function* startAsking(question: string, clientId = 'client-a') {
  const session = yield* manager.create({ tool: askTool, params: { question }, callId: `call-${question}`, clientId, runtime })
  const first = yield* session.nextEvent()
  if (first.type !== 'elicit') throw new Error(`expected an elicitation, got ${first.type}`)
  return { session, request: first.request }
}

describe('PluginSessionManager', () => {
  it('keeps a waiting session for its own client only, and removes it when the tool completes', async () => {
    await startManager()
    const { session, request } = await run(() => startAsking('name?'))
    expect(await run(() => manager.listActive())).toMatchObject([{ id: 'call-name?', toolName: 'ask', status: 'awaiting_elicit' }])
    expect(await run(() => manager.get('client-b', session.id))).toBeUndefined()
    expect(await run(() => manager.get('client-a', session.id))).toBe(session)

    expect(session.respondToElicit(request.elicitId, { action: 'accept', content: { text: 'Ada' } })).toMatchObject({ ok: true })
    expect(await run(() => session.nextEvent())).toEqual({ type: 'completed', result: 'Ada' })
    expect(await run(() => manager.listActive())).toEqual([])
  })

  it('aborts a session: the tool is halted (its finally runs), and the reason is remembered', async () => {
    await startManager()
    const { session } = await run(() => startAsking('abort me'))
    expect(await run(() => manager.abort('client-b', session.id))).toBe(false)
    expect(await run(() => manager.abort('client-a', session.id, 'Stopped by the user.'))).toBe(true)
    expect(teardowns).toEqual(['abort me'])
    expect(session.status()).toBe('aborted')
    expect(await run(() => session.nextEvent())).toEqual({ type: 'aborted', reason: 'Stopped by the user.' })
    expect(manager.ended('client-a', session.id)).toEqual({ reason: 'Stopped by the user.' })
    expect(await run(() => manager.listActive())).toEqual([])
  })

  it('expires idle sessions oldest first, and touching a session postpones it', async () => {
    await startManager({ idleTimeoutMs: 60 })
    const first = await run(() => startAsking('first'))
    const second = await run(() => startAsking('second'))
    await run(() => manager.touch(first.session))

    const ended = await run(() => second.session.nextEvent())
    expect(ended).toMatchObject({ type: 'aborted', reason: expect.stringContaining('expired') })
    expect(await run(() => first.session.nextEvent())).toMatchObject({ type: 'aborted' })
    expect(teardowns).toEqual(['second', 'first'])
  })

  it('holds one timer for any number of waiting sessions', async () => {
    await startManager()
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    await run(() => startAsking('warm-up'))
    const before = timers()
    await run(function* () {
      for (let index = 0; index < 500; index++) yield* startAsking(`q${index}`)
    })
    expect((await run(() => manager.listActive())).length).toBe(501)
    expect(timers()).toBe(before)
  })

  it('halts every session when its scope ends', async () => {
    await startManager()
    await run(() => startAsking('one'))
    await run(() => startAsking('two'))
    await destroy()
    expect(teardowns.sort()).toEqual(['one', 'two'])
    ;[scope, destroy] = createScope()
  })

  it('refuses a second session for the same tool call of a client', async () => {
    await startManager()
    await run(() => startAsking('dup'))
    await expect(run(() => startAsking('dup'))).rejects.toThrow('already exists')
  })
})
